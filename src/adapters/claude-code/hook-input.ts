/**
 * Claude Code's hook events and its hook input, read by the shared reader
 * (`shared/hook-input.ts`) for the events this adapter answers.
 */
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";

export { booleanField, isRecord, messageOf, stringField } from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Claude Code sessions. */
export const HARNESS = "claude-code";

/** The events the adapter handles; `PostCompact` is understood but not installed (see `hook-config.ts`). */
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

export function isHookEvent(name: unknown): name is HookEvent {
	return typeof name === "string" && (HOOK_EVENTS as readonly string[]).includes(name);
}

export type HookInput = CommandHookInput<HookEvent>;

export type ParsedHookInput = ParsedCommandHookInput<HookEvent>;

/** See `parseCommandHookInput`: the event must be one of Claude Code's. */
export function parseHookInput(text: string, event: string | undefined): ParsedHookInput {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}
