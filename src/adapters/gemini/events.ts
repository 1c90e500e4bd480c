/**
 * Gemini CLI's hook events: the family's mapping (`command-hook/events.ts`,
 * where the shared choices are explained) under Gemini CLI's names, with
 * its facts:
 *
 * - BeforeAgent fires for the user's prompts and also for boulder's own
 *   continuation (AfterAgent's `deny` sends its reason as the next prompt,
 *   which goes through BeforeAgent again). Our text begins with the mark of
 *   boulder's nudges (`shared/boulder-prompt.ts`): that turn is a
 *   `continuation`, and only any other prompt is the user's, which starts a
 *   new episode. Counting our own prompt as the user's would reset the
 *   budgets on every nudge.
 * - AfterAgent is the idle: the turn ends and the engine decides in one
 *   write. Gemini CLI fires it for a turn the user cancelled or that failed
 *   too, with nothing in the input saying so; the transcript says whether
 *   the turn ended with a finished reply (`transcript.ts`), and a turn it
 *   does not show finished, or a transcript that cannot be read, is never
 *   continued.
 * - Printing `{"decision":"deny"}` is the delivery: recorded as delivered in
 *   the same write as the decision. Gemini CLI may end the turn a deny began
 *   without any model request (after "Potential loop detected" its loop
 *   detector stops every later turn of the prompt, and AfterAgent still
 *   fires): the transcript, written before AfterAgent, then shows no new
 *   turn. That nudge is not counted as delivered and boulder stops denying,
 *   or the two would spin.
 * - AfterTool is installed for `write_todos` only: its input is the whole list.
 *   Gemini CLI runs a subagent's tool hooks with the parent's `session_id`
 *   and `transcript_path`, so a subagent's `write_todos` arrives as if it
 *   were the parent's. The transcript holds only the parent's own calls
 *   (a subagent's are in a file of its own): at AfterAgent the list is the
 *   parent's last `write_todos` there, whatever AfterTool heard in between.
 * - PreCompress is no longer installed: Gemini CLI fires it (`trigger:
 *   "auto"`) before every model request, before it decides whether to
 *   compress, so it says nothing about a compaction. An older install's
 *   registration is answered with nothing and logs nothing.
 * - SessionStart with `source: "resume"` (`--resume`) carries the resume
 *   context, which Gemini CLI puts before the prompt (headless) or into the
 *   history (interactive), wrapped in `<hook_context>`.
 * - Plan mode (the agent called `enter_plan_mode` and has not left it) waits
 *   for the user, who approves the plan.
 * - Gemini CLI has no subagent-stop event and fires no AfterAgent inside a
 *   subagent: every AfterAgent is the main session's.
 */

import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Engine, IdleResult } from "../../engine/engine.js";
import { type EventSpec, handleFamilyHook, on } from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import {
	type CommandHookInput,
	isRecord,
	type ParsedCommandHookInput,
	parseCommandHookInput,
} from "../shared/hook-input.js";
import { limitNotice } from "../shared/hook-messages.js";
import { type TurnReading, unfinishedReason } from "./transcript.js";

/** The harness name boulder's state and log use for Gemini CLI sessions. */
export const HARNESS = "gemini";

/*
 * The JSON Gemini CLI writes on a hook's stdin, read by the shared reader.
 * Nothing is trusted: the text may be empty, cut short, not an object, or
 * miss fields, and a newer Gemini CLI may add fields or events. Reading never
 * throws; what cannot be used is a `problem` the caller records before
 * letting the agent stop.
 *
 * Every event carries `session_id, transcript_path, cwd, hook_event_name,
 * timestamp`; the rest is per event (`prompt` for BeforeAgent; `prompt,
 * prompt_response, stop_hook_active` for AfterAgent; `tool_name, tool_input,
 * tool_response` for AfterTool; `trigger` for PreCompress; `source` for
 * SessionStart).
 */
export const HOOK_EVENTS = ["SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Gemini CLI sends no subagent fields: its subagents run outside the main agent loop. */
export type HookInput = CommandHookInput<HookEvent>;

/**
 * Contract: `event` is the name the hook was registered under (the command's
 * argument); the input's own `hook_event_name`, when present, must agree, so
 * a miswired registration does nothing rather than the wrong thing.
 */
export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}

/** A string field as sent (the empty string included), or null. */
export function textField(input: Pick<CommandHookInput, "fields">, key: string): string | null {
	const value = input.fields[key];
	return typeof value === "string" ? value : null;
}

/**
 * Gemini CLI's todo list: the `write_todos` tool's input, `{todos:
 * [{description, status}]}`, whole each time, with the statuses pending,
 * in_progress, completed, cancelled and blocked (boulder's own five).
 *
 * Contract: as `core/todo-normalize.ts`: nothing throws, and every item
 * dropped or changed is named in `warnings`.
 */
export const TODO_TOOL = "write_todos";

const WRITE_TODOS: TodoShape = { label: TODO_TOOL, listFields: ["todos"], text: "description", status: "status" };

export function normalizeGeminiTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, WRITE_TODOS);
}

/** Why boulder waits while the agent is in plan mode. */
export const PLAN_MODE_WAIT = "the agent is in plan mode: its plan waits for the user's approval";

export interface HookDeps {
	engine: Engine;
	readTurn(file: string): Promise<TurnReading>;
}

/** Our own continuation, echoed back as a prompt, is never the user's turn. */
export function provenanceOf(prompt: string) {
	return isBoulderPrompt(prompt) ? ("continuation" as const) : ("user" as const);
}

/** The engine's decision as Gemini CLI's AfterAgent output. */
export function answerFor(result: IdleResult): HookAnswer {
	if (result.kind === "inject") return { output: { decision: "deny", reason: result.text } };
	if (result.kind === "complete") return { output: { systemMessage: result.text } };
	if (result.kind === "skip" && result.notice) return { output: { systemMessage: limitNotice(result.detail) } };
	return NOTHING;
}

export const GEMINI: EventSpec<TurnReading, HookDeps> = {
	harness: HARNESS,
	title: "Gemini CLI",
	events: {
		SessionStart: on.sessionStart,
		BeforeAgent: on.prompt,
		AfterTool: on.toolUsed,
		AfterAgent: on.stop,
		PreCompress: on.nothing,
	},
	subagentStop: null,
	unseenReason: unfinishedReason,
	provenance: ({ input }) => provenanceOf(textField(input, "prompt") ?? ""),
	todoTool: {
		name: TODO_TOOL,
		list: (toolInput) => normalizeGeminiTodos(toolInput),
		failure: (response) => (isRecord(response) && response.error !== null ? response.error : undefined),
	},
	sessionStart: { context: ["resume"] },
	stop: {
		// Its warnings were recorded when AfterTool heard the same call.
		before: async ({ ref, deps }, turn) => {
			if (turn && turn.todoInput !== null)
				await deps.engine.todosChanged(ref, normalizeGeminiTodos(turn.todoInput).todos);
		},
		lastText: (input, turn) => turn?.lastAssistantText ?? textField(input, "prompt_response"),
		waitsFor: (_input, turn) => (turn?.planMode ? PLAN_MODE_WAIT : null),
		recordedBeforeHook: true,
		answer: answerFor,
	},
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleFamilyHook(input, GEMINI, { engine: deps.engine, readTurn: (file) => deps.readTurn(file) });
}
