/**
 * Qwen Code's hook events: the family's mapping (`command-hook/events.ts`,
 * where the shared choices are explained) with Qwen Code's facts, as seen on
 * the pinned version (`docs/qwen-notes.md`):
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
 *   resume context, which Qwen Code puts at the end of the system
 *   instruction for the rest of the process (a later compaction's replaces
 *   it). Tasks of an earlier process do not survive a new start.
 * - The turn's spend, file edits, an unanswered question (or a plan put
 *   forward for approval), and the prompt's continuations so far come from
 *   the transcript. A StopFailure's spend is read for a subagent too, and a
 *   missing transcript there is no error.
 */

import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Provenance } from "../../core/turns.js";
import type { Engine } from "../../engine/engine.js";
import {
	CLAUDE_CODE_EVENTS,
	claudeCodeMeanings,
	type EventSpec,
	handleFamilyHook,
	LAST_MESSAGE,
	on,
	readOwn,
} from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import {
	type CommandHookInput,
	isRecord,
	type ParsedCommandHookInput,
	parseCommandHookInput,
	stringField,
} from "../shared/hook-input.js";
import { qwenGoalDriverName } from "./goal.js";
import type { QwenTurn, ReadQwenTurnOptions } from "./transcript.js";

/** The harness name boulder's state and log use for Qwen Code sessions. */
export const HARNESS = "qwen";

/**
 * The events boulder answers, read by the shared command-hook reader
 * (`../shared/hook-input.ts`). Qwen Code's hooks follow Claude Code's: the
 * same base fields, plus `prompt_id` (one per user prompt, kept by the tool
 * calls and Stop-hook continuations that follow it) and `permission_mode` on
 * every event.
 */
export const HOOK_EVENTS = [...CLAUDE_CODE_EVENTS, "StopFailure", "PreCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type QwenHookInput = CommandHookInput<HookEvent>;

export function parseQwenHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}

/** Why boulder waits in Qwen Code's plan mode. */
export const planModeWait = "Qwen Code is in plan mode: the agent proposes and waits for the user to approve";

/** Where Qwen Code's continuation cap is raised, as `why` names it. */
export const CAP_LIFT =
	'"stopHookBlockingCap" in .qwen/settings.json (`boulder install qwen --raise-cap` sets it to 100, its maximum) or QWEN_CODE_STOP_HOOK_BLOCK_CAP';

/**
 * Qwen Code's todo list: the `todo_write` tool (off unless the setting
 * `tools.todoWrite.enabled` is true), whose input is the whole list
 * `{todos: [{id, content, status}]}`; its response's `returnDisplay.todos`
 * holds the list as the harness kept it.
 */
export const TODO_TOOL = "todo_write";

const TODO_WRITE: TodoShape = {
	label: TODO_TOOL,
	listFields: ["todos"],
	text: "content",
	status: "status",
	id: "id",
};

/**
 * Contract: as `core/todo-normalize.ts`: input unchecked, nothing throws,
 * every item dropped or changed is named in `warnings`.
 */
export function normalizeQwenTodoWrite(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_WRITE);
}

/** The list a `todo_write` call left: its input, else the list in its response's display. */
export function todoWriteList(toolInput: unknown, toolResponse: unknown): NormalizedTodos {
	if (isRecord(toolInput) && Array.isArray(toolInput.todos)) return normalizeQwenTodoWrite(toolInput);
	const display = isRecord(toolResponse) ? toolResponse.returnDisplay : undefined;
	return normalizeQwenTodoWrite(display);
}

export interface QwenHookDeps {
	engine: Engine;
	readTurn(file: string, options: ReadQwenTurnOptions): Promise<QwenTurn>;
	/** The continuations Qwen Code honours per prompt (see `cap.ts`). */
	cap(): Promise<number>;
	/** Qwen Code's own goal, from the transcript (`goal.ts`); absent: no goal is looked for. */
	readGoal?(file: string): Promise<string | null>;
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

export const QWEN: EventSpec<QwenTurn, QwenHookDeps> = {
	harness: HARNESS,
	title: "Qwen Code",
	events: {
		...claudeCodeMeanings,
		StopFailure: on.failure,
		PreCompact: on.compaction,
	},
	subagentStop: "SubagentStop",
	view: (turn) => ({ ...turn, startMarker: turn.endMarker }),
	provenance: ({ input }) => promptProvenance(input.fields),
	todoTool: { name: TODO_TOOL, list: todoWriteList },
	sessionStart: { context: ["resume", "compact"], resetsBackground: true },
	stop: {
		lastText: (input, turn) => turn?.lastAssistantText ?? stringField(input, LAST_MESSAGE),
		background: "count",
		waitsFor: (input) => (stringField(input, "permission_mode") === "plan" ? planModeWait : null),
		cap: {
			harness: "Qwen Code",
			lift: CAP_LIFT,
			limit: (deps) => deps.cap(),
			inRow: (_hook, turn) => turn?.continuations ?? null,
		},
		driver: async (hook) => {
			const goal = await readOwn(hook, "reading Qwen Code's goal from the transcript", hook.deps.readGoal, null);
			return goal === null ? null : qwenGoalDriverName(goal);
		},
	},
	failure: { missingIsNormal: true, inSubagents: true },
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleQwenHook(input: QwenHookInput, deps: QwenHookDeps): Promise<HookAnswer> {
	return handleFamilyHook(input, QWEN, deps);
}
