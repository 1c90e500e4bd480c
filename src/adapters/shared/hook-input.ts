/**
 * Reads the JSON a command-hook harness writes on a hook's stdin (Claude
 * Code's shape, which Qwen Code and others follow: `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name`, then the event's own fields).
 * Nothing is trusted: the text may be empty, cut short, not an object, or
 * miss fields, and a newer harness may add fields or events. Reading never
 * throws; what cannot be used is a `problem` the caller records before
 * letting the agent stop.
 *
 * Deliberately hand-written rather than a zod schema: this runs in a fresh
 * process on every hook event, where every millisecond of start-up counts.
 */

/** The fields every event carries, plus the whole object for the per-event ones. */
export interface CommandHookInput<Event extends string = string> {
	event: Event;
	sessionId: string;
	transcriptPath: string | null;
	cwd: string | null;
	/** Present only inside subagents. */
	agentId: string | null;
	agentType: string | null;
	fields: Record<string, unknown>;
}

export type ParsedCommandHookInput<Event extends string = string> =
	| { ok: true; input: CommandHookInput<Event> }
	| { ok: false; problem: string };

/**
 * Contract: `event` is the name the hook was registered under (the command's
 * argument) and must be one of `events`; the input's own `hook_event_name`,
 * when present, must agree, so a miswired registration does nothing rather
 * than the wrong thing.
 */
export function parseCommandHookInput<Event extends string>(
	text: string,
	event: string | undefined,
	events: readonly Event[],
): ParsedCommandHookInput<Event> {
	if (event === undefined || !(events as readonly string[]).includes(event)) {
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
			event: event as Event,
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
export function stringField(input: Pick<CommandHookInput, "fields">, key: string): string | null {
	return text0(input.fields[key]);
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

function text0(value: unknown): string | null {
	return typeof value === "string" && value.trim() !== "" ? value : null;
}
