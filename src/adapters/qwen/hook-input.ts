/**
 * Qwen Code's hook input: the shared command-hook reader
 * (`../shared/hook-input.ts`) with the events boulder answers. Qwen Code's
 * hooks follow Claude Code's: the same base fields, plus `prompt_id` (one per
 * user prompt, kept by the tool calls and Stop-hook continuations that follow
 * it) and `permission_mode` on every event.
 */
import { CLAUDE_CODE_EVENTS } from "../command-hook/events.js";
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Qwen Code sessions. */
export const HARNESS = "qwen";

export const HOOK_EVENTS = [...CLAUDE_CODE_EVENTS, "StopFailure", "PreCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type QwenHookInput = CommandHookInput<HookEvent>;

export function parseQwenHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}
