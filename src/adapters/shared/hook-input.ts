/**
 * Reads the JSON a command-hook harness writes on a hook's stdin (Claude
 * Code, Codex, and the others that copied its shape: `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name`, and per-event fields; Copilot
 * CLI's are the same in camelCase, `InputKeys`).
 * Nothing is trusted: the text may be empty, cut short, not an object, or
 * miss fields, and a newer harness may add fields or events. Reading never
 * throws; what cannot be used is a `problem` the caller records before
 * letting the agent stop.
 *
 * Deliberately hand-written rather than a zod schema: this runs in a fresh
 * process on every hook event, where every millisecond of start-up counts.
 */

/** The fields every event carries, plus the whole object for the per-event ones. */
export interface CommandHookInput<E extends string = string> {
	event: E;
	sessionId: string;
	transcriptPath: string | null;
	cwd: string | null;
	/** Present only inside subagents. */
	agentId: string | null;
	agentType: string | null;
	fields: Record<string, unknown>;
}

export type ParsedCommandHookInput<E extends string = string> =
	| { ok: true; input: CommandHookInput<E> }
	| { ok: false; problem: string };

/** Where a harness's input keeps the common fields. */
export interface InputKeys {
	sessionId: string;
	transcriptPath: string;
	agentId: string;
	agentType: string;
	/** The field naming the event, checked against the registration; null: the input names none. */
	event: string | null;
}

/** Claude Code's keys, which Codex copied. */
export const SNAKE_CASE_KEYS: InputKeys = {
	sessionId: "session_id",
	transcriptPath: "transcript_path",
	agentId: "agent_id",
	agentType: "agent_type",
	event: "hook_event_name",
};

/**
 * Contract: `event` is the name the hook was registered under (the command's
 * argument) and must be one of `events`; the input's own event name
 * (`hook_event_name`), when present, must agree, so a miswired registration
 * does nothing rather than the wrong thing.
 */
export function parseCommandHookInput<E extends string>(
	text: string,
	event: string | undefined,
	events: readonly E[],
	keys: InputKeys = SNAKE_CASE_KEYS,
): ParsedCommandHookInput<E> {
	if (event === undefined || !(events as readonly string[]).includes(event)) {
		return { ok: false, problem: `unknown hook event ${JSON.stringify(event ?? null)}; nothing done` };
	}
	const known = event as E;
	if (text.trim() === "") return { ok: false, problem: `${event}: the hook input was empty` };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, problem: `${event}: the hook input is not JSON (${messageOf(error)})` };
	}
	if (!isRecord(value)) return { ok: false, problem: `${event}: the hook input is not a JSON object` };
	const named = keys.event === null ? undefined : value[keys.event];
	if (named !== undefined && named !== event) {
		return {
			ok: false,
			problem: `registered for ${event} but the input says ${JSON.stringify(named)}; nothing done`,
		};
	}
	const sessionId = nonEmptyText(value[keys.sessionId]);
	if (sessionId === null) {
		return { ok: false, problem: `${event}: the hook input has no ${keys.sessionId}; not guessing whose state it is` };
	}
	return {
		ok: true,
		input: {
			event: known,
			sessionId,
			transcriptPath: nonEmptyText(value[keys.transcriptPath]),
			cwd: nonEmptyText(value.cwd),
			agentId: nonEmptyText(value[keys.agentId]),
			agentType: nonEmptyText(value[keys.agentType]),
			fields: value,
		},
	};
}

/** A harness's parser: `parseCommandHookInput` for its events, in its keys. */
export function hookInputParser<E extends string>(events: readonly E[], keys: InputKeys = SNAKE_CASE_KEYS) {
	return (text: string, event: string | undefined) => parseCommandHookInput(text, event, events, keys);
}

/** A non-empty string field, or null. */
export function stringField(input: Pick<CommandHookInput, "fields">, key: string): string | null {
	return nonEmptyText(input.fields[key]);
}

/** A string as sent (the empty string included), or null. */
export function textOf(value: unknown): string | null {
	return typeof value === "string" ? value : null;
}

export function booleanField(input: Pick<CommandHookInput, "fields">, key: string): boolean | null {
	const value = input.fields[key];
	return typeof value === "boolean" ? value : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A non-empty string, or null. */
export function nonEmptyText(value: unknown): string | null {
	return typeof value === "string" && value.trim() !== "" ? value : null;
}
