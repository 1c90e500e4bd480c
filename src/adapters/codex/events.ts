/**
 * Codex's hook events, mapped onto engine calls. Thin on purpose: every
 * decision is the engine's; this file only says which engine call an event
 * means, fills in what Codex does not send (spend and unanswered questions,
 * from the rollout) and answers Stop in Codex's words.
 *
 * Choices, and why:
 * - Codex has no cap on Stop-hook continuations: it loops for as long as a
 *   hook blocks. boulder's budgets and stagnation guard are the only brake,
 *   so nothing here blocks except the engine's `inject`.
 * - UserPromptSubmit is a real user turn: Codex fires none for a hook's
 *   continuation. Should one ever carry boulder's own nudge, it is not the
 *   user's, and nothing is recorded (the engine started that turn when it
 *   delivered the nudge).
 * - The todo list comes from `update_plan`'s PostToolUse, which also fires
 *   when the default model calls it from inside a code-mode script (whose
 *   rollout shows only the script). File edits (`apply_patch`) count as
 *   activity the same way; commands do not.
 * - Interrupt (Esc or Ctrl-C) is the user's abort: durable until the user
 *   writes again. Codex fires no Stop after it. One is not: `codex exec`
 *   aborting, as it shuts down, the turn an active goal started, before
 *   that turn reached the model (`goal.ts`).
 * - While Codex's own goal drives the session (it starts a turn whenever the
 *   thread is idle), Stop hears of it (`otherDriver`) and the engine stands
 *   down unless `builtInGoals` is `take-over`. Under `codex exec` a goal
 *   cannot continue, so boulder drives.
 * - SubagentStop is never continued (subagents own no continuation; Codex
 *   fires no Stop for them).
 * - A Stop whose turn the rollout does not show fails closed: the engine
 *   hears that the turn is unseen and does not nudge.
 * - Compaction (PreCompact, PostCompact, a `compact` SessionStart) is noted,
 *   never a user turn. A `resume` or `compact` SessionStart carries the
 *   resume context (where the unfinished work stands).
 */
import type { Engine, IdleFacts, SessionRef } from "../../engine/engine.js";
import { endTurn } from "../command-hook/stop.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { answerFor, type HookAnswer, NOTHING, sessionStartContext } from "../shared/hook-answer.js";
import { stringField } from "../shared/hook-input.js";
import { type CodexGoalReading, goalCanContinue, goalDriverName, isGoalShutdownInterrupt } from "./goal.js";
import { HARNESS, type HookInput } from "./hook-input.js";
import { type ReadRolloutOptions, type RolloutTurn, unreadableReason, unseenReason } from "./rollout.js";
import { normalizeCodexPlan, PLAN_TOOL } from "./todos.js";

export { isBoulderPrompt } from "../shared/boulder-prompt.js";

export interface HookDeps {
	engine: Engine;
	readTurn(file: string, options: ReadRolloutOptions): Promise<RolloutTurn>;
	/** Codex's own goal, from the rollout (`goal.ts`); absent: no goal is looked for. */
	readGoal?(file: string): Promise<CodexGoalReading>;
}

/** The tool that changes files: work the plan may not show yet. */
export const EDIT_TOOL = "apply_patch";

export function sessionRefOf(input: HookInput): SessionRef {
	return {
		harness: HARNESS,
		sessionId: input.sessionId,
		subagent: input.agentId !== null || input.event === "SubagentStop",
		agent: input.agentType,
	};
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	const ref = sessionRefOf(input);
	const { engine } = deps;
	switch (input.event) {
		case "Stop":
			return onStop(input, ref, deps);
		case "SubagentStop":
			await engine.onIdle(ref, {});
			return NOTHING;
		case "UserPromptSubmit":
			if (isBoulderPrompt(stringField(input, "prompt"))) return NOTHING;
			await engine.turnStarted(ref, "user");
			return NOTHING;
		case "PostToolUse":
			await onToolUsed(input, ref, engine);
			return NOTHING;
		case "Interrupt":
			// `codex exec` aborting the goal's turn as it shuts down is no user's abort.
			if (isGoalShutdownInterrupt(await goalOf(input, ref, deps))) return NOTHING;
			await engine.sessionEvent(ref, { type: "interrupt" });
			return NOTHING;
		case "SessionStart":
			return onSessionStart(input, ref, engine);
		case "PreCompact":
		case "PostCompact":
			await engine.sessionEvent(ref, { type: "compaction" });
			return NOTHING;
	}
}

/**
 * A compaction is noted; a resumed or compacted session is told where its
 * unfinished work stands (`hookSpecificOutput.additionalContext`, which Codex
 * adds to the model's context: never a turn).
 */
async function onSessionStart(input: HookInput, ref: SessionRef, engine: Engine): Promise<HookAnswer> {
	const source = stringField(input, "source");
	if (source === "compact") await engine.sessionEvent(ref, { type: "compaction" });
	if ((source !== "resume" && source !== "compact") || ref.subagent) return NOTHING;
	return sessionStartContext(await engine.resumeContext(ref, source));
}

async function onToolUsed(input: HookInput, ref: SessionRef, engine: Engine): Promise<void> {
	const tool = stringField(input, "tool_name");
	if (tool === EDIT_TOOL) {
		await engine.activity(ref);
		return;
	}
	if (tool !== PLAN_TOOL) return;
	const { todos, warnings } = normalizeCodexPlan(input.fields.tool_input);
	await engine.todosChanged(ref, todos);
	if (warnings.length > 0) {
		await engine.recordError(ref, `reading the agent's plan from ${PLAN_TOOL}`, new Error(warnings.join("; ")));
	}
}

async function onStop(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<HookAnswer> {
	const { engine } = deps;
	const lastMessage = stringField(input, "last_assistant_message");
	const { turn, unseen } = await seeTurn(input, ref, deps, lastMessage);
	const facts: IdleFacts & { interruptAt?: number | null } = {
		lastAssistantText: lastMessage ?? turn?.lastAssistantText ?? null,
	};
	if (unseen !== null) facts.turnUnseen = unseen;
	if (turn?.interrupt) facts.interruptAt = turn.interrupt.at;
	if (turn?.pendingQuestion) facts.pendingInput = { kind: "question", detail: turn.pendingQuestion };
	const goal = await goalOf(input, ref, deps);
	if (goal.goal !== null && goalCanContinue(goal)) facts.otherDriver = goalDriverName(goal.goal);
	const end = { outcome: "end" as const, ...(turn ? { spend: turn.spend, marker: turn.startMarker } : {}) };
	// Printing the block is the delivery: recorded in the same write as the decision.
	return endTurn(engine, ref, end, facts, {
		deliverNow: true,
		answer: (result) => answerFor(result, ref, engine, { delivered: true }),
	});
}

/** The current turn as the rollout shows it for a Stop, or why it cannot be seen. */
async function seeTurn(
	input: HookInput,
	ref: SessionRef,
	deps: HookDeps,
	expectLastText: string | null,
): Promise<{ turn: RolloutTurn | null; unseen: string | null }> {
	if (ref.subagent) return { turn: null, unseen: null };
	if (input.transcriptPath === null) return { turn: null, unseen: unreadableReason(null, null) };
	try {
		const turn = await deps.readTurn(input.transcriptPath, { expectLastText });
		return { turn, unseen: unseenReason(input.transcriptPath, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableReason(input.transcriptPath, error) };
	}
}

const NO_GOAL: CodexGoalReading = { goal: null, lastTurn: null };

/** Codex's goal as the rollout shows it; none for a subagent, without a rollout, or when it cannot be read. */
async function goalOf(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<CodexGoalReading> {
	if (ref.subagent || input.transcriptPath === null || deps.readGoal === undefined) return NO_GOAL;
	try {
		return await deps.readGoal(input.transcriptPath);
	} catch (error) {
		await deps.engine.recordError(ref, "reading Codex's goal from the rollout", error);
		return NO_GOAL;
	}
}
