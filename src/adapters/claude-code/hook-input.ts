/**
 * Reads the JSON Claude Code writes on a hook's stdin. Nothing is trusted:
 * the text may be empty, cut short, not an object, or miss fields, and a
 * newer Claude Code may add fields or events. Reading never throws; what
 * cannot be used is a `problem` the caller records before letting the agent
 * stop.
 *
 * Deliberately hand-written rather than a zod schema: this runs in a fresh
 * process on every hook event, where every millisecond of start-up counts.
 */
import { isRecord, messageOf, nonEmptyText, parseHookObject } from "../shared/command-hook.js";

export { isRecord, messageOf };

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
export interface HookInput {
	event: HookEvent;
	sessionId: string;
	transcriptPath: string | null;
	cwd: string | null;
	/** Present only inside subagents (Agent/Task tool). */
	agentId: string | null;
	agentType: string | null;
	fields: Record<string, unknown>;
}

export type ParsedHookInput = { ok: true; input: HookInput } | { ok: false; problem: string };

/**
 * Contract: `event` is the name the hook was registered under (the command's
 * argument); the input's own `hook_event_name`, when present, must agree, so
 * a miswired registration does nothing rather than the wrong thing.
 */
export function parseHookInput(text: string, event: string | undefined): ParsedHookInput {
	if (!isHookEvent(event)) {
		return { ok: false, problem: `unknown hook event ${JSON.stringify(event ?? null)}; nothing done` };
	}
	const read = parseHookObject(text, event);
	if (!read.ok) return read;
	const value = read.value;
	return {
		ok: true,
		input: {
			event,
			sessionId: read.sessionId,
			transcriptPath: nonEmptyText(value.transcript_path),
			cwd: nonEmptyText(value.cwd),
			agentId: nonEmptyText(value.agent_id),
			agentType: nonEmptyText(value.agent_type),
			fields: value,
		},
	};
}

/** A non-empty string field, or null. */
export function stringField(input: HookInput, key: string): string | null {
	return nonEmptyText(input.fields[key]);
}

export function booleanField(input: HookInput, key: string): boolean | null {
	const value = input.fields[key];
	return typeof value === "boolean" ? value : null;
}
