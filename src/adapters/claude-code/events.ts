/**
 * Claude Code's hook events: the family's mapping of the Claude Code shape
 * (`command-hook/claude-style.ts`, where the choices are explained) with
 * Claude Code's tools, transcript reader and `/goal`.
 */

import type { SessionRef } from "../../engine/engine.js";
import {
	type ClaudeStyleDeps,
	type ClaudeStyleSpec,
	handleClaudeStyleHook,
	sessionRefOf as refOf,
} from "../command-hook/claude-style.js";
import { CLAUDE_TASK_TOOLS } from "../command-hook/todo-write.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";
import type { ReadTurnOptions, TurnReading } from "./transcript.js";

/** The harness name boulder's state and log use for Claude Code sessions. */
export const HARNESS = "claude-code";

/**
 * The events the adapter handles, read by the shared reader
 * (`shared/hook-input.ts`); `PostCompact` is understood but not installed
 * (see `dialect.ts`).
 */
export const HOOK_EVENTS = [
	"SessionStart",
	"UserPromptSubmit",
	"PreToolUse",
	"PostToolUse",
	"Stop",
	"SubagentStop",
	"StopFailure",
	"PreCompact",
	"PostCompact",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

/** See `parseCommandHookInput`: the event must be one of Claude Code's. */
export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}

export interface HookDeps extends ClaudeStyleDeps<TurnReading> {
	readTurn(file: string, options: ReadTurnOptions): Promise<TurnReading>;
}

export const CLAUDE_CODE: ClaudeStyleSpec = {
	harness: HARNESS,
	title: "Claude Code",
	tools: { todoWrite: "TodoWrite", tasks: CLAUDE_TASK_TOOLS, subagents: ["Agent", "Task"] },
	goalName: "Claude Code's /goal",
};

export function sessionRefOf(input: HookInput): SessionRef {
	return refOf(input, HARNESS);
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleClaudeStyleHook(input, CLAUDE_CODE, deps);
}
