/**
 * Codex's hook events: the family's mapping (`command-hook/events.ts`) with
 * Codex's facts (`docs/codex-notes.md`). No cap on Stop-hook continuations,
 * so nothing here blocks but the engine's `inject`. The Interrupt `codex exec`
 * fires as it aborts a goal's turn at shut-down is no user's abort; while
 * Codex's own goal drives, Stop names it as the other driver (`goal.ts`). A
 * prompt that carries boulder's own nudge is no user turn (the engine started
 * that turn when it delivered the nudge).
 */

import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Engine } from "../../engine/engine.js";
import * as family from "../command-hook/events.js";
import type { ReadOptions } from "../command-hook/turn-reader.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, hookInputParser, stringField } from "../shared/hook-input.js";
import { type CodexGoalReading, goalCanContinue, goalDriverName, isGoalShutdownInterrupt } from "./goal.js";
import type { RolloutTurn } from "./rollout.js";

export const HARNESS = "codex";

/** Codex sends Claude Code's input shape plus `turn_id`. PostCompact is understood but not installed (`dialect.ts`). */
export const HOOK_EVENTS = [...family.CLAUDE_CODE_EVENTS, "Interrupt", "PreCompact", "PostCompact"] as const;
type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

export const parseHookInput = hookInputParser(HOOK_EVENTS);

const PLAN_TOOL = "update_plan";

/** `update_plan` sends the whole plan each time: `{explanation?, plan: [{step, status}]}`. */
const UPDATE_PLAN: TodoShape = { label: PLAN_TOOL, listFields: ["plan"], text: "step", status: "status" };

/** Contract: as `core/todo-normalize.ts`: never throws; every item dropped or changed is named in `warnings`. */
export function normalizeCodexPlan(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, UPDATE_PLAN);
}

export interface HookDeps {
	engine: Engine;
	readTurn(file: string, options: ReadOptions): Promise<RolloutTurn>;
	/** Absent: no goal is looked for. */
	readGoal?(file: string): Promise<CodexGoalReading>;
}

const NO_GOAL: CodexGoalReading = { goal: null, lastTurn: null };

function goalOf(hook: family.Hook<RolloutTurn, HookDeps>): Promise<CodexGoalReading> {
	return family.readOwn(hook, "reading Codex's goal from the rollout", hook.deps.readGoal, NO_GOAL);
}

const CODEX: family.EventSpec<RolloutTurn, HookDeps> = {
	harness: HARNESS,
	title: "Codex",
	events: {
		...family.claudeCodeMeanings,
		Interrupt: async (hook) => {
			if (isGoalShutdownInterrupt(await goalOf(hook))) return NOTHING;
			await hook.deps.engine.sessionEvent(hook.ref, { type: "interrupt" });
			return NOTHING;
		},
		PreCompact: family.on.compaction,
		PostCompact: family.on.compaction,
	},
	subagentStop: "SubagentStop",
	provenance: ({ input }) => (isBoulderPrompt(stringField(input, "prompt")) ? null : "user"),
	todoTool: { name: PLAN_TOOL, list: (toolInput) => normalizeCodexPlan(toolInput), noun: "plan" },
	editTools: ["apply_patch"],
	sessionStart: { context: ["resume", "compact"], compaction: true },
	stop: {
		driver: async (hook) => {
			const goal = await goalOf(hook);
			return goal.goal !== null && goalCanContinue(goal) ? goalDriverName(goal.goal) : null;
		},
	},
};

export const handleHook = family.hookHandler(CODEX);
