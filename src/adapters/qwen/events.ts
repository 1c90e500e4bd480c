/**
 * Qwen Code's hook events, mapped onto engine calls: Claude Code's pattern
 * (the shared Stop answer and background reading), with Qwen Code's own
 * facts, as seen on the pinned version (`docs/qwen-notes.md`):
 *
 * - UserPromptSubmit fires for the user's prompt (which alone carries
 *   `submitted_prompt`), but also for every tool result (an empty `prompt`)
 *   and for every Stop-hook continuation (the hook's reason as `prompt`).
 *   Only the first is a real user turn. boulder's own continuation started
 *   its turn when the Stop hook printed it, so it is recognised as boulder's
 *   (`shared/boulder-prompt.ts`, as for Codex) and changes nothing; tool
 *   results change nothing; any other prompt without `submitted_prompt`
 *   (another hook's continuation) is a `system` turn, which never resets the
 *   episode's budgets.
 * - A Stop is never fired for an aborted turn (Esc, Ctrl+C): boulder hears
 *   nothing, so it does not nudge; the user's next prompt starts afresh.
 * - Qwen Code overrides the Stop hook once it has blocked `cap` times in a
 *   row for one prompt (`stopHookBlockingCap`, 8 by default, at most 100;
 *   `QWEN_CODE_STOP_HOOK_BLOCK_CAP` wins). The cap and the prompt's
 *   continuations so far are an idle fact: the policy does not send the
 *   nudge Qwen Code would override, and says so (`harness-cap`).
 * - `permission_mode: "plan"`: Qwen Code's plan mode, where the agent only
 *   proposes and the user approves; boulder waits for the user.
 * - SessionStart `resume` (`--resume`, `--continue`) or `compact` carries the
 *   resume context (where the unfinished work stands).
 * - The turn's spend, file edits, an unanswered question (or a plan put
 *   forward for approval), and the prompt's continuations so far come from
 *   the transcript; a Stop whose turn it cannot see fails closed.
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { Provenance } from "../../core/turns.js";
import { FileProblem } from "../../engine/bounded-read.js";
import type { Engine, IdleFacts, SessionRef } from "../../engine/engine.js";
import { endTurn } from "../command-hook/stop.js";
import { runningBackgroundTasks } from "../shared/background-tasks.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { answerFor, type HookAnswer, NOTHING, sessionStartContext } from "../shared/hook-answer.js";
import { stringField } from "../shared/hook-input.js";
import { qwenGoalDriverName } from "./goal.js";
import { HARNESS, type QwenHookInput } from "./hook-input.js";
import { CAP_LIFT, planModeWait } from "./messages.js";
import { TODO_TOOL, todoWriteList } from "./todos.js";
import { type QwenTurn, type ReadQwenTurnOptions, unreadableReason, unseenReason } from "./transcript.js";

export interface QwenHookDeps {
	engine: Engine;
	readTurn(file: string, options: ReadQwenTurnOptions): Promise<QwenTurn>;
	/** The continuations Qwen Code honours per prompt (see `cap.ts`). */
	cap(): Promise<number>;
	/** Qwen Code's own goal, from the transcript (`goal.ts`); absent: no goal is looked for. */
	readGoal?(file: string): Promise<string | null>;
}

export function sessionRefOf(input: QwenHookInput): SessionRef {
	return {
		harness: HARNESS,
		sessionId: input.sessionId,
		subagent: input.agentId !== null || input.event === "SubagentStop",
		agent: input.agentType,
	};
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleQwenHook(input: QwenHookInput, deps: QwenHookDeps): Promise<HookAnswer> {
	const ref = sessionRefOf(input);
	switch (input.event) {
		case "Stop":
			return onStop(input, ref, deps);
		case "SubagentStop":
			await deps.engine.onIdle(ref, {});
			return NOTHING;
		case "UserPromptSubmit": {
			const provenance = promptProvenance(input.fields);
			if (provenance !== null) await deps.engine.turnStarted(ref, provenance);
			return NOTHING;
		}
		case "PostToolUse":
			await onToolUsed(input, ref, deps.engine);
			return NOTHING;
		case "SessionStart":
			return onSessionStart(input, ref, deps.engine);
		case "StopFailure":
			await onStopFailure(input, ref, deps);
			return NOTHING;
		case "PreCompact":
			await deps.engine.sessionEvent(ref, { type: "compaction" });
			return NOTHING;
	}
}

/**
 * Tasks of an earlier process do not survive a new start. A resumed or
 * compacted session is told where its unfinished work stands: the engine's
 * resume context as `hookSpecificOutput.additionalContext`, which Qwen Code
 * puts at the end of the system instruction for the rest of the process (a
 * later compaction's replaces it). Context, never a turn.
 */
async function onSessionStart(input: QwenHookInput, ref: SessionRef, engine: Engine): Promise<HookAnswer> {
	const source = stringField(input, "source");
	if (source !== "compact") await engine.backgroundChanged(ref, 0);
	if ((source !== "resume" && source !== "compact") || ref.subagent) return NOTHING;
	return sessionStartContext(await engine.resumeContext(ref, source));
}

/**
 * Who started the turn a UserPromptSubmit announces, or null when it starts
 * none: a tool result, or boulder's own continuation (whose turn began when
 * it was delivered).
 */
export function promptProvenance(fields: Record<string, unknown>): Provenance | null {
	const submitted = fields.submitted_prompt;
	if (typeof submitted === "string" && submitted.trim() !== "") return "user";
	const prompt = typeof fields.prompt === "string" ? fields.prompt : "";
	if (prompt.trim() === "") return null;
	if (isBoulderPrompt(prompt)) return null;
	return "system";
}

async function onStop(input: QwenHookInput, ref: SessionRef, deps: QwenHookDeps): Promise<HookAnswer> {
	const { engine } = deps;
	const lastMessage = stringField(input, "last_assistant_message");
	const cap = await deps.cap();
	const { turn, unseen } = await seeTurn(input, ref, deps, lastMessage, cap);
	const facts: IdleFacts = { lastAssistantText: turn?.lastAssistantText ?? lastMessage };
	if (unseen !== null) facts.turnUnseen = unseen;
	const background = runningBackgroundTasks(input.fields.background_tasks);
	if (background !== null) facts.backgroundTasks = background;
	if (turn?.pendingQuestion) facts.pendingInput = { kind: "question", detail: turn.pendingQuestion };
	else if (stringField(input, "permission_mode") === "plan")
		facts.pendingInput = { kind: "wait", detail: planModeWait };
	if (turn?.continuations != null) {
		facts.harnessCap = { harness: "Qwen Code", limit: cap, inRow: turn.continuations, lift: CAP_LIFT };
	}
	const goal = await goalOf(input, ref, deps);
	if (goal !== null) facts.otherDriver = qwenGoalDriverName(goal);
	const end = {
		outcome: "end" as const,
		...(turn ? { spend: turn.spend, activity: turn.activity, marker: turn.endMarker } : {}),
	};
	return endTurn(engine, ref, end, facts, {
		deliverNow: true,
		answer: (result) => answerFor(result, ref, engine, { delivered: true }),
	});
}

async function onToolUsed(input: QwenHookInput, ref: SessionRef, engine: Engine): Promise<void> {
	if (stringField(input, "tool_name") !== TODO_TOOL) return;
	const { todos, warnings } = todoWriteList(input.fields.tool_input, input.fields.tool_response);
	await engine.todosChanged(ref, todos);
	if (warnings.length > 0) {
		await engine.recordError(ref, `reading the agent's list from ${TODO_TOOL}`, new Error(warnings.join("; ")));
	}
}

async function onStopFailure(input: QwenHookInput, ref: SessionRef, deps: QwenHookDeps): Promise<void> {
	const error = stringField(input, "error") ?? "unknown error";
	const details = input.fields.error_details;
	const shown = stringField(input, "last_assistant_message");
	const all = [error, typeof details === "string" ? details : JSON.stringify(details ?? ""), shown ?? ""].join(" ");
	let spend = {};
	if (input.transcriptPath !== null) {
		try {
			spend = { spend: (await deps.readTurn(input.transcriptPath, {})).spend };
		} catch (error) {
			const missing = error instanceof FileProblem && error.kind === "missing";
			if (!missing)
				await deps.engine.recordError(ref, input.event, new Error(unreadableReason(input.transcriptPath, error)));
		}
	}
	if (isContextOverflow(all)) {
		await deps.engine.sessionEvent(ref, { type: "context-overflow", ...spend });
		return;
	}
	await deps.engine.sessionEvent(ref, { type: "api-error", message: shown ? `${error} (${shown})` : error, ...spend });
}

/**
 * The current turn as the transcript shows it for a Stop, or why it cannot
 * be seen (then no nudge follows: a pending question may be in what was not
 * seen). A subagent's Stop reads nothing; it owns no continuation.
 */
async function seeTurn(
	input: QwenHookInput,
	ref: SessionRef,
	deps: QwenHookDeps,
	expectLastText: string | null,
	cap: number,
): Promise<{ turn: QwenTurn | null; unseen: string | null }> {
	if (ref.subagent) return { turn: null, unseen: null };
	if (input.transcriptPath === null) return { turn: null, unseen: unreadableReason(null, null) };
	try {
		const turn = await deps.readTurn(input.transcriptPath, { expectLastText, countUpTo: cap });
		return { turn, unseen: unseenReason(input.transcriptPath, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableReason(input.transcriptPath, error) };
	}
}

/** Qwen Code's goal as the transcript shows it; none for a subagent, without a transcript, or when it cannot be read. */
async function goalOf(input: QwenHookInput, ref: SessionRef, deps: QwenHookDeps): Promise<string | null> {
	if (ref.subagent || input.transcriptPath === null || deps.readGoal === undefined) return null;
	try {
		return await deps.readGoal(input.transcriptPath);
	} catch (error) {
		await deps.engine.recordError(ref, "reading Qwen Code's goal from the transcript", error);
		return null;
	}
}
