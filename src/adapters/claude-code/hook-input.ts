/**
 * Claude Code's hook input: the shared command-hook reader
 * (`../shared/hook-input.ts`) with Claude Code's events.
 */
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";

export { booleanField, isRecord, messageOf, stringField } from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Claude Code sessions. */
export const HARNESS = "claude-code";

/** The events the adapter handles; `PostCompact` is understood but not installed (see `hook-config.ts`). */
export const HOOK_EVENTS = [
	"SessionStart",
	"UserPromptSubmit",
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

/** The fields every event carries, plus the whole object for the per-event ones. */
export type HookInput = CommandHookInput<HookEvent>;

export type ParsedHookInput = ParsedCommandHookInput<HookEvent>;

/** See `parseCommandHookInput`. */
export function parseHookInput(text: string, event: string | undefined): ParsedHookInput {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}
