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
import { isRecord, messageOf, nonEmptyText as text0 } from "../shared/json-values.js";

export { isRecord, messageOf } from "../shared/json-values.js";

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
	if (text.trim() === "") return { ok: false, problem: `${event}: the hook input was empty` };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, problem: `${event}: the hook input is not JSON (${messageOf(error)})` };
	}
	if (!isRecord(value)) return { ok: false, problem: `${event}: the hook input is not a JSON object` };
	const named = value.hook_event_name;
	if (named !== undefined && named !== event) {
		return {
			ok: false,
			problem: `registered for ${event} but the input says ${JSON.stringify(named)}; nothing done`,
		};
	}
	const sessionId = text0(value.session_id);
	if (sessionId === null) {
		return { ok: false, problem: `${event}: the hook input has no session_id; not guessing whose state it is` };
	}
	return {
		ok: true,
		input: {
			event,
			sessionId,
			transcriptPath: text0(value.transcript_path),
			cwd: text0(value.cwd),
			agentId: text0(value.agent_id),
			agentType: text0(value.agent_type),
			fields: value,
		},
	};
}

/** A non-empty string field, or null. */
export function stringField(input: HookInput, key: string): string | null {
	return text0(input.fields[key]);
}

export function booleanField(input: HookInput, key: string): boolean | null {
	const value = input.fields[key];
	return typeof value === "boolean" ? value : null;
}
