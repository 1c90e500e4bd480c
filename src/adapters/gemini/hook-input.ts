/**
 * Reads the JSON Gemini CLI writes on a hook's stdin. Nothing is trusted: the
 * text may be empty, cut short, not an object, or miss fields, and a newer
 * Gemini CLI may add fields or events. Reading never throws; what cannot be
 * used is a `problem` the caller records before letting the agent stop.
 *
 * Every event carries `session_id, transcript_path, cwd, hook_event_name,
 * timestamp`; the rest is per event (`prompt` for BeforeAgent; `prompt,
 * prompt_response, stop_hook_active` for AfterAgent; `tool_name, tool_input,
 * tool_response` for AfterTool; `trigger` for PreCompress; `source` for
 * SessionStart).
 */
import { type CommandHookInput, type ParsedCommandHookInput, parseCommandHookInput } from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Gemini CLI sessions. */
export const HARNESS = "gemini";

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
