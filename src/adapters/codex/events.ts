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

import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Engine } from "../../engine/engine.js";
import {
	CLAUDE_CODE_EVENTS,
	claudeCodeMeanings,
	type EventSpec,
	type Hook,
	handleFamilyHook,
	on,
	readOwn,
} from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import {
	type CommandHookInput,
	type ParsedCommandHookInput,
	parseCommandHookInput,
	stringField,
} from "../shared/hook-input.js";
import { type CodexGoalReading, goalCanContinue, goalDriverName, isGoalShutdownInterrupt } from "./goal.js";
import type { ReadRolloutOptions, RolloutTurn } from "./rollout.js";

export { isBoulderPrompt } from "../shared/boulder-prompt.js";

/** The harness name boulder's state and log use for Codex sessions. */
export const HARNESS = "codex";

/**
 * The events the adapter answers, in Codex's hook input, read by the shared
 * reader (`shared/hook-input.ts`): Codex sends Claude Code's shape
 * (`session_id`, `transcript_path`, `cwd`, `hook_event_name`) plus its own
 * `turn_id`. PostCompact is understood but not installed (see `dialect.ts`).
 */
export const HOOK_EVENTS = [...CLAUDE_CODE_EVENTS, "Interrupt", "PreCompact", "PostCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

/** See `parseCommandHookInput`: the event must be one of Codex's that boulder answers. */
export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}

/**
 * Codex's todo list: the `update_plan` tool, which sends the whole plan each
 * time, `{explanation?, plan: [{step, status}]}`. Its statuses are
 * `pending`, `in_progress` and `completed` (Codex refuses any other), so a
 * skipped step arrives as `completed` or leaves the plan.
 *
 * Contract: as `core/todo-normalize.ts`: input is the tool's arguments,
 * unchecked; nothing throws, and every item dropped or changed is named in
 * `warnings`.
 */
export const PLAN_TOOL = "update_plan";

const UPDATE_PLAN: TodoShape = { label: PLAN_TOOL, listFields: ["plan"], text: "step", status: "status" };

export function normalizeCodexPlan(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, UPDATE_PLAN);
}

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
	title: "Codex",
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
