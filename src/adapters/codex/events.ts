/**
 * Codex's hook events: the family's mapping (`command-hook/events.ts`, where
 * the shared choices are explained) with Codex's facts:
 *
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
 * - SubagentStop is never continued (Codex fires no Stop for subagents).
 * - Compaction (PreCompact, PostCompact, a `compact` SessionStart) is noted,
 *   never a user turn. A `resume` or `compact` SessionStart carries the
 *   resume context.
 */
import type { Engine } from "../../engine/engine.js";
import {
	claudeCodeMeanings,
	type EventSpec,
	type Hook,
	handleFamilyHook,
	on,
	readOwn,
} from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type HookAnswer, NOTHING } from "../shared/hook-answer.js";
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

const NO_GOAL: CodexGoalReading = { goal: null, lastTurn: null };

function goalOf(hook: Hook<RolloutTurn, HookDeps>): Promise<CodexGoalReading> {
	return readOwn(hook, "reading Codex's goal from the rollout", hook.deps.readGoal, NO_GOAL);
}

export const CODEX: EventSpec<RolloutTurn, HookDeps> = {
	harness: HARNESS,
	events: {
		...claudeCodeMeanings,
		Interrupt: async (hook) => {
			// `codex exec` aborting the goal's turn as it shuts down is no user's abort.
			if (isGoalShutdownInterrupt(await goalOf(hook))) return NOTHING;
			await hook.deps.engine.sessionEvent(hook.ref, { type: "interrupt" });
			return NOTHING;
		},
		PreCompact: on.compaction,
		PostCompact: on.compaction,
	},
	subagentStop: "SubagentStop",
	unseenReason,
	unreadableReason,
	provenance: ({ input }) => (isBoulderPrompt(stringField(input, "prompt")) ? null : "user"),
	todoTool: { name: PLAN_TOOL, list: (toolInput) => normalizeCodexPlan(toolInput), noun: "plan" },
	editTools: [EDIT_TOOL],
	sessionStart: { context: ["resume", "compact"], compaction: true },
	stop: {
		driver: async (hook) => {
			const goal = await goalOf(hook);
			return goal.goal !== null && goalCanContinue(goal) ? goalDriverName(goal.goal) : null;
		},
	},
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleFamilyHook(input, CODEX, deps);
}
