/**
 * Reads the JSON Copilot CLI writes on a hook's stdin. Its fields are
 * camelCase (`sessionId`, `transcriptPath`, `stopReason`), except agentStop's
 * Claude-compatible `stop_hook_active`, and the input does not name its
 * event: the event is the command's argument. Inside a subagent every event
 * carries `agentId` (its `sessionId` is then the subagent's own) and
 * `parentAgentId`.
 *
 * Nothing is trusted; reading never throws. What cannot be used is a
 * `problem` the caller records before letting the agent stop. Hand-written
 * rather than a zod schema for the same reason as Claude Code's: a fresh
 * process per event.
 */
import type { ParsedInput } from "../shared/command-hook.js";
import { isRecord, messageOf, nonEmptyText } from "../shared/json-values.js";

export { isRecord, messageOf } from "../shared/json-values.js";

/** The harness name boulder's state and log use for Copilot CLI sessions. */
export const HARNESS = "copilot";

export const HOOK_EVENTS = [
	"sessionStart",
	"userPromptSubmitted",
	"agentStop",
	"subagentStop",
	"errorOccurred",
	"preCompact",
	"sessionEnd",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: unknown): name is HookEvent {
	return typeof name === "string" && (HOOK_EVENTS as readonly string[]).includes(name);
}

export interface HookInput {
	event: HookEvent;
	sessionId: string;
	transcriptPath: string | null;
	cwd: string | null;
	/** Present only inside subagents (the `task` tool). */
	agentId: string | null;
	agentType: string | null;
	fields: Record<string, unknown>;
}

export function parseHookInput(text: string, event: string | undefined): ParsedInput<HookInput> {
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
	const sessionId = nonEmptyText(value.sessionId);
	if (sessionId === null) {
		return { ok: false, problem: `${event}: the hook input has no sessionId; not guessing whose state it is` };
	}
	return {
		ok: true,
		input: {
			event,
			sessionId,
			transcriptPath: nonEmptyText(value.transcriptPath),
			cwd: nonEmptyText(value.cwd),
			agentId: nonEmptyText(value.agentId),
			agentType: nonEmptyText(value.agentType),
			fields: value,
		},
	};
}

/** A non-empty string field, or null. */
export function stringField(input: HookInput, key: string): string | null {
	return nonEmptyText(input.fields[key]);
}
