/**
 * Reads the JSON Gemini CLI writes on a hook's stdin. Nothing is trusted: the
 * text may be empty, cut short, not an object, or miss fields, and a newer
 * Gemini CLI may add fields or events. Reading never throws; what cannot be
 * used is a `problem` the caller records before letting the agent stop.
 *
 * Every event carries `session_id, transcript_path, cwd, hook_event_name,
 * timestamp`; the rest is per event (`prompt` for BeforeAgent; `prompt,
 * prompt_response, stop_hook_active` for AfterAgent; `tool_name, tool_input,
 * tool_response` for AfterTool; `trigger` for PreCompress).
 */
import { nonEmptyText, type Parsed, parseHookObject } from "../shared/command-hook.js";

/** The harness name boulder's state and log use for Gemini CLI sessions. */
export const HARNESS = "gemini";

export const HOOK_EVENTS = ["BeforeAgent", "AfterTool", "AfterAgent", "PreCompress"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: unknown): name is HookEvent {
	return typeof name === "string" && (HOOK_EVENTS as readonly string[]).includes(name);
}

export interface HookInput {
	event: HookEvent;
	sessionId: string;
	transcriptPath: string | null;
	cwd: string | null;
	fields: Record<string, unknown>;
}

/**
 * Contract: `event` is the name the hook was registered under (the command's
 * argument); the input's own `hook_event_name`, when present, must agree, so
 * a miswired registration does nothing rather than the wrong thing.
 */
export function parseHookInput(text: string, event: string | undefined): Parsed<HookInput> {
	if (!isHookEvent(event)) {
		return { ok: false, problem: `unknown hook event ${JSON.stringify(event ?? null)}; nothing done` };
	}
	const read = parseHookObject(text, event);
	if (!read.ok) return read;
	return {
		ok: true,
		input: {
			event,
			sessionId: read.sessionId,
			transcriptPath: nonEmptyText(read.value.transcript_path),
			cwd: nonEmptyText(read.value.cwd),
			fields: read.value,
		},
	};
}

/** A string field as sent (the empty string included), or null. */
export function textField(input: HookInput, key: string): string | null {
	const value = input.fields[key];
	return typeof value === "string" ? value : null;
}
