/**
 * Codex's hook events and its hook input, read by the shared reader
 * (`shared/hook-input.ts`): Codex sends Claude Code's shape (`session_id`,
 * `transcript_path`, `cwd`, `hook_event_name`) plus its own `turn_id`.
 */
import { CLAUDE_CODE_EVENTS } from "../command-hook/events.js";
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Codex sessions. */
export const HARNESS = "codex";

/** The events the adapter answers; PostCompact is understood but not installed (see `hook-config.ts`). */
export const HOOK_EVENTS = [...CLAUDE_CODE_EVENTS, "Interrupt", "PreCompact", "PostCompact"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

/** See `parseCommandHookInput`: the event must be one of Codex's that boulder answers. */
export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS);
}
