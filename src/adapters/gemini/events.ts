/**
 * Gemini CLI's hook events: the family's mapping (`command-hook/events.ts`, where the shared choices are
 * explained) under Gemini CLI's names. Its facts are in `docs/gemini-notes.md`; the ones this mapping rests on:
 * BeforeAgent fires for boulder's own continuation too; AfterAgent ends every turn, a cancelled or failed one
 * included (the transcript tells them apart); a subagent's AfterTool carries the parent's session, so at
 * AfterAgent the list is the parent's last `write_todos` in its transcript; there is no subagent stop.
 * PreCompress, fired before every model request, is no longer installed: an older install's is answered with
 * nothing and logs nothing.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import type { Engine } from "../../engine/engine.js";
import { type EventSpec, handleFamilyHook, on } from "../command-hook/events.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import { type CommandHookInput, hookInputParser, isRecord, textOf } from "../shared/hook-input.js";
import { TODO_TOOL, type TurnReading, unfinishedReason } from "./transcript.js";

/** The harness name boulder's state and log use for Gemini CLI sessions. */
export const HARNESS = "gemini";

export const HOOK_EVENTS = ["SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Gemini CLI sends no subagent fields: its subagents run outside the main agent loop. */
export type HookInput = CommandHookInput<HookEvent>;

export const parseHookInput = hookInputParser(HOOK_EVENTS);

const WRITE_TODOS: TodoShape = { label: TODO_TOOL, listFields: ["todos"], text: "description", status: "status" };

/**
 * `write_todos`'s input, the whole list each time. Contract: as `core/todo-normalize.ts`, nothing throws and
 * every item dropped or changed is named in `warnings`.
 */
export function normalizeGeminiTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, WRITE_TODOS);
}

const PLAN_MODE_WAIT = "the agent is in plan mode: its plan waits for the user's approval";

export interface HookDeps {
	engine: Engine;
	readTurn(file: string): Promise<TurnReading>;
}

/** Our own continuation, echoed back as a prompt, is never the user's turn (that would reset the budgets). */
export function provenanceOf(prompt: string) {
	return isBoulderPrompt(prompt) ? ("continuation" as const) : ("user" as const);
}

const GEMINI: EventSpec<TurnReading, HookDeps> = {
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
	provenance: ({ input }) => provenanceOf(textOf(input.fields.prompt) ?? ""),
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
		lastText: (input, turn) => turn?.lastAssistantText ?? textOf(input.fields.prompt_response),
		waitsFor: (_input, turn) => (turn?.planMode ? PLAN_MODE_WAIT : null),
		// A deny the loop detector swallowed leaves no new turn: not delivered, so boulder stops denying.
		recordedBeforeHook: true,
		answer: { decision: "deny" },
	},
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleFamilyHook(input, GEMINI, { engine: deps.engine, readTurn: (file) => deps.readTurn(file) });
}
