/**
 * Qwen Code's hook events: the family's mapping (`command-hook/events.ts`)
 * with Qwen Code's facts (`docs/qwen-notes.md`): which UserPromptSubmit starts
 * a turn, its plan mode, its continuation cap as data (the policy's
 * `harness-cap`), its `todo_write` list, its own goal, and the turn read from
 * its transcript (`transcript.ts`).
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Provenance } from "../../core/turns.js";
import * as family from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type CommandHookInput, hookInputParser, isRecord, nonEmptyText, stringField } from "../shared/hook-input.js";
import { qwenGoalDriverName } from "./goal.js";
import type { QwenTurn } from "./transcript.js";

/** The harness name boulder's state and log use for Qwen Code sessions. */
export const HARNESS = "qwen";

export const HOOK_EVENTS = [...family.CLAUDE_CODE_EVENTS, "StopFailure", "PreCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type QwenHookInput = CommandHookInput<HookEvent>;

export const parseQwenHookInput = hookInputParser(HOOK_EVENTS);

/** Why boulder waits in Qwen Code's plan mode. */
const planModeWait = "Qwen Code is in plan mode: the agent proposes and waits for the user to approve";

/** Where Qwen Code's continuation cap is raised, as `why` names it. */
const CAP_LIFT =
	'"stopHookBlockingCap" in .qwen/settings.json (`boulder install qwen --raise-cap` sets it to 100, its maximum) or QWEN_CODE_STOP_HOOK_BLOCK_CAP';

const TODO_TOOL = "todo_write";
const TODO_WRITE: TodoShape = { label: TODO_TOOL, listFields: ["todos"], text: "content", status: "status", id: "id" };

/** Contract: as `core/todo-normalize.ts`: input unchecked, nothing throws, every change named in `warnings`. */
export function normalizeQwenTodoWrite(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_WRITE);
}

/** The list a `todo_write` call left: its input, else the list in its response's display. */
function todoWriteList(toolInput: unknown, toolResponse: unknown): NormalizedTodos {
	const display = isRecord(toolResponse) ? toolResponse.returnDisplay : undefined;
	return normalizeQwenTodoWrite(isRecord(toolInput) && Array.isArray(toolInput.todos) ? toolInput : display);
}

export interface QwenHookDeps extends family.EventDeps<QwenTurn> {
	/** The continuations Qwen Code honours per prompt (`cap.ts`). */
	cap(): Promise<number>;
	/** Qwen Code's own goal (`goal.ts`); absent: no goal is looked for. */
	readGoal?(file: string): Promise<string | null>;
}

/**
 * Who started the turn a UserPromptSubmit announces: the user's prompt alone
 * has `submitted_prompt`; a tool result (empty) and boulder's own continuation
 * (its turn began when it was delivered) start none; another hook's is `system`.
 */
export function promptProvenance(fields: Record<string, unknown>): Provenance | null {
	if (nonEmptyText(fields.submitted_prompt) !== null) return "user";
	const prompt = nonEmptyText(fields.prompt);
	return prompt === null || isBoulderPrompt(prompt) ? null : "system";
}

const QWEN: family.EventSpec<QwenTurn, QwenHookDeps> = {
	harness: HARNESS,
	title: "Qwen Code",
	events: { ...family.claudeCodeMeanings, StopFailure: family.on.failure, PreCompact: family.on.compaction },
	subagentStop: "SubagentStop",
	view: (turn) => ({ ...turn, startMarker: turn.endMarker }),
	provenance: ({ input }) => promptProvenance(input.fields),
	todoTool: { name: TODO_TOOL, list: todoWriteList },
	sessionStart: { context: ["resume", "compact"], resetsBackground: true },
	stop: {
		lastText: (input, turn) => turn?.lastAssistantText ?? stringField(input, family.LAST_MESSAGE),
		background: "count",
		waitsFor: (input) => (stringField(input, "permission_mode") === "plan" ? planModeWait : null),
		cap: {
			harness: "Qwen Code",
			lift: CAP_LIFT,
			limit: (deps) => deps.cap(),
			inRow: (_hook, turn) => turn?.continuations ?? null,
		},
		driver: async (hook) => {
			const goal = await family.readOwn(hook, "reading Qwen Code's goal from the transcript", hook.deps.readGoal, null);
			return goal === null ? null : qwenGoalDriverName(goal);
		},
	},
	failure: { missingIsNormal: true, inSubagents: true },
};

export const handleQwenHook = family.hookHandler(QWEN);
