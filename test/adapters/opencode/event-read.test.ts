import { describe, expect, it } from "vitest";
import {
	answeredAsk,
	errorKindOf,
	originOf,
	outcomeOf,
	readAsk,
	readEvent,
	readMessageInfo,
	readPart,
	sessionOf,
	spendOf,
} from "../../../src/adapters/opencode/event-read.js";

function parts(...list: Record<string, unknown>[]) {
	return list.map(readPart).filter((part) => part !== null);
}

describe("reading OpenCode's events", () => {
	it("finds the session wherever the event keeps it", () => {
		const event = (type: string, properties: Record<string, unknown>) => readEvent({ id: "e", type, properties });
		expect(sessionOf(event("session.idle", { sessionID: "s1" }) as never)).toBe("s1");
		expect(sessionOf(event("message.updated", { info: { sessionID: "s2" } }) as never)).toBe("s2");
		expect(sessionOf(event("session.created", { info: { id: "s3" } }) as never)).toBe("s3");
		expect(sessionOf(event("message.part.updated", { part: { sessionID: "s4" } }) as never)).toBe("s4");
		expect(readEvent({ properties: {} })).toBeNull();
	});

	it("counts real spend: cache reads are not spend, reasoning is output", () => {
		expect(spendOf({ input: 600, output: 50, reasoning: 7, cache: { read: 400, write: 30 } })).toEqual({
			input: 600,
			output: 57,
			cacheWrite: 30,
		});
		expect(spendOf(undefined)).toEqual({ input: 0, output: 0, cacheWrite: 0 });
		expect(spendOf({ input: -3, output: "x" })).toEqual({ input: 0, output: 0, cacheWrite: 0 });
	});

	it.each([
		[{ finish: "stop", error: null }, "end"],
		[{ finish: "length", error: null }, "length"],
		[{ finish: "tool-calls", error: null }, "unknown"],
		[{ finish: null, error: null }, "unknown"],
		[{ finish: "content-filter", error: null }, "error"],
		[{ finish: null, error: { name: "MessageAbortedError", message: "Aborted" } }, "aborted"],
		[{ finish: null, error: { name: "ContextOverflowError", message: "" } }, "context-overflow"],
		[
			{ finish: null, error: { name: "APIError", message: "maximum context length is 200000 tokens" } },
			"context-overflow",
		],
		[{ finish: null, error: { name: "APIError", message: "Bad request" } }, "error"],
		[{ finish: null, error: { name: "MessageOutputLengthError", message: "" } }, "length"],
	])("reads %j as the turn outcome %s", (last, outcome) => {
		expect(outcomeOf(last)).toBe(outcome);
	});

	it("tells the user's abort, an overflow and a model API failure apart from other errors", () => {
		expect(errorKindOf({ name: "AbortError", message: "" })).toBe("abort");
		expect(errorKindOf({ name: "ProviderAuthError", message: "bad key" })).toBe("api");
		expect(errorKindOf({ name: "UnknownError", message: 'Command not found: "x"' })).toBe("other");
	});

	it("reads assistant and user messages, and nothing else", () => {
		expect(
			readMessageInfo({
				id: "m",
				sessionID: "s",
				role: "assistant",
				mode: "build",
				finish: "stop",
				tokens: { input: 1, output: 2 },
				time: { created: 1, completed: 2 },
			}),
		).toMatchObject({
			role: "assistant",
			agent: "build",
			finish: "stop",
			completed: true,
			spend: { input: 1, output: 2 },
		});
		expect(
			readMessageInfo({ id: "m", sessionID: "s", role: "user", agent: "plan", model: { providerID: "p" } }),
		).toEqual({
			role: "user",
			id: "m",
			sessionId: "s",
			agent: "plan",
			model: null,
		});
		expect(readMessageInfo({ id: "m", sessionID: "s", role: "system" })).toBeNull();
	});
});

describe("who wrote a prompt", () => {
	it("knows boulder's nudge and answer by their mark", () => {
		expect(
			originOf(parts({ type: "text", text: "x", synthetic: true, metadata: { boulder: { kind: "nudge", key: "k" } } })),
		).toEqual({
			kind: "nudge",
			key: "k",
		});
		expect(
			originOf(parts({ type: "text", text: "x", ignored: true, metadata: { boulder: { kind: "answer" } } })),
		).toEqual({
			kind: "answer",
		});
	});

	it("takes OpenCode's compaction continue and synthetic-only prompts for the system's", () => {
		expect(
			originOf(parts({ type: "text", text: "Continue", synthetic: true, metadata: { compaction_continue: true } })),
		).toEqual({
			kind: "system",
		});
		expect(
			originOf(parts({ type: "text", text: "a", synthetic: true }, { type: "text", text: "b", synthetic: true })),
		).toEqual({
			kind: "system",
		});
	});

	it("takes anything a person could have typed for the user's, even with synthetic parts beside it", () => {
		expect(originOf(parts({ type: "text", text: "Do it." }))).toEqual({ kind: "user" });
		expect(
			originOf(parts({ type: "text", text: "Do it." }, { type: "text", text: "file contents", synthetic: true })),
		).toEqual({
			kind: "user",
		});
		expect(originOf(parts({ type: "file", url: "file:///a.png" }))).toEqual({ kind: "user" });
		expect(originOf(parts({ type: "text", text: "x", metadata: { boulder: { kind: "other" } } }))).toEqual({
			kind: "user",
		});
	});
});

describe("questions and permissions", () => {
	it("reads what is asked and what answers it", () => {
		const event = (type: string, properties: Record<string, unknown>) =>
			readEvent({ id: "e", type, properties }) as NonNullable<ReturnType<typeof readEvent>>;
		expect(
			readAsk(event("question.asked", { id: "q1", sessionID: "s", questions: [{ question: "Which one?" }] })),
		).toEqual({
			id: "q1",
			kind: "question",
			detail: "Which one?",
		});
		expect(readAsk(event("permission.asked", { id: "p1", sessionID: "s", permission: "bash" }))).toMatchObject({
			kind: "permission",
			detail: "bash",
		});
		expect(answeredAsk(event("question.rejected", { sessionID: "s", requestID: "q1" }))).toBe("q1");
		expect(answeredAsk(event("permission.replied", { sessionID: "s", permissionID: "p1", response: "once" }))).toBe(
			"p1",
		);
		expect(answeredAsk(event("session.idle", { sessionID: "s" }))).toBeNull();
	});
});
