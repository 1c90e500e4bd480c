/**
 * Builders for the Gemini CLI adapter's tests: transcript lines shaped like
 * the ones Gemini CLI 0.61.0 writes (a metadata line, message lines, a
 * message written again when its tool calls are added, `$set` lines), and
 * hook inputs parsed the way the hook parses them.
 */
import { type HookInput, parseHookInput } from "../../../src/adapters/gemini/events.js";

export const SESSION = "2080798d-962a-4d0f-8ac1-e52f144bfa95";
export const TRANSCRIPT = "/chats/session-2080798d.jsonl";

let counter = 0;
function id(): string {
	counter++;
	return `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`;
}

const AT = "2026-12-01T12:20:00.000Z";

export function header(): Record<string, unknown> {
	return { sessionId: SESSION, projectHash: "3ac715b1", startTime: AT, lastUpdated: AT, kind: "main" };
}

/** The session context Gemini CLI puts first, as a `$set` of the whole list. */
export function sessionContext(): Record<string, unknown> {
	return {
		$set: {
			messages: [
				{ id: id(), timestamp: AT, type: "user", content: [{ text: "<session_context>…</session_context>" }] },
			],
			lastUpdated: AT,
		},
	};
}

export function prompt(text: string): Record<string, unknown> {
	return { id: id(), timestamp: AT, type: "user", content: [{ text }] };
}

export interface Tokens {
	input?: number;
	output?: number;
	cached?: number;
	thoughts?: number;
	tool?: number;
}

function tokens(t: Tokens = {}) {
	const used = { input: 100, output: 20, cached: 0, thoughts: 0, tool: 0, ...t };
	return { ...used, total: used.input + used.output + used.thoughts + used.tool };
}

/** A model reply with text. */
export function reply(text: string, t: Tokens = {}): Record<string, unknown> {
	return {
		id: id(),
		timestamp: AT,
		type: "gemini",
		content: text,
		thoughts: [],
		tokens: tokens(t),
		model: "gemini-2.5-flash",
	};
}

/** A model reply calling tools: written once bare, then again with its calls, then the results as a user message. */
export function toolCall(
	calls: { name: string; args: Record<string, unknown>; status?: string }[],
	t: Tokens = {},
): Record<string, unknown>[] {
	const message = { id: id(), timestamp: AT, type: "gemini", content: "", thoughts: [], tokens: tokens(t) };
	const withCalls = {
		...message,
		toolCalls: calls.map((call, index) => ({
			id: `${call.name}_${index}`,
			name: call.name,
			args: call.args,
			status: call.status ?? "success",
		})),
	};
	const results = {
		id: id(),
		timestamp: AT,
		type: "user",
		content: calls.map((call, index) => ({
			functionResponse: { id: `${call.name}_${index}`, name: call.name, response: { output: "ok" } },
		})),
	};
	return [message, { $set: { lastUpdated: AT } }, withCalls, results];
}

export function writeTodos(statuses: string[]): Record<string, unknown>[] {
	const todos = statuses.map((status, index) => ({ description: `Item ${String.fromCharCode(65 + index)}`, status }));
	return toolCall([{ name: "write_todos", args: { todos } }]);
}

export function cancelledNote(at = "2026-12-01T12:21:00.000Z"): Record<string, unknown> {
	return { id: id(), timestamp: at, type: "info", content: "Request cancelled." };
}

export function jsonl(lines: Record<string, unknown>[]): string {
	return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** A hook input as Gemini CLI sends it, parsed the way the hook parses it. */
export function hookInput(event: string, fields: Record<string, unknown> = {}): HookInput {
	const parsed = parseHookInput(
		JSON.stringify({
			session_id: SESSION,
			transcript_path: TRANSCRIPT,
			cwd: "/w",
			hook_event_name: event,
			timestamp: AT,
			...fields,
		}),
		event,
	);
	if (!parsed.ok) throw new Error(parsed.problem);
	return parsed.input;
}
