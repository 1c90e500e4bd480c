import { describe, expect, it } from "vitest";
import { type OpencodeClient, sdkApi, withTimeout } from "../../../src/adapters/opencode/api.js";
import { ManualTime } from "./manual-time.js";

type Call = { options: Record<string, unknown> };

/** A stand-in for the SDK client: each method answers with `reply(name, options)`. */
function client(reply: (name: string, options: Record<string, unknown>) => Promise<unknown>, calls: Call[] = []) {
	const method = (name: string) => (options: Record<string, unknown>) => {
		calls.push({ options: { ...options, name } });
		return reply(name, options);
	};
	return {
		session: {
			promptAsync: method("promptAsync"),
			prompt: method("prompt"),
			get: method("get"),
			messages: method("messages"),
			todo: method("todo"),
		},
		tui: { showToast: method("showToast") },
	} as unknown as OpencodeClient;
}

const ok = (data: unknown, status = 200) => Promise.resolve({ data, response: { status } });

describe("the SDK behind a deadline", () => {
	it("sends the prompt with its parts, agent and model, and an abort signal", async () => {
		const calls: Call[] = [];
		const api = sdkApi(client(() => ok(undefined, 204), calls));
		await api.promptAsync("s1", [{ type: "text", text: "go" }], {
			agent: "build",
			model: { providerID: "p", modelID: "m" },
		});
		expect(calls[0]?.options).toMatchObject({
			name: "promptAsync",
			path: { id: "s1" },
			body: { parts: [{ type: "text", text: "go" }], agent: "build", model: { providerID: "p", modelID: "m" } },
			signal: expect.any(AbortSignal),
		});
		await api.appendNoReply("s1", [{ type: "text", text: "answer", ignored: true }], { agent: null, model: null });
		expect(calls[1]?.options).toMatchObject({ name: "prompt", body: { noReply: true } });
		expect(calls[1]?.options.body).not.toHaveProperty("agent");
	});

	it("rejects a call that hangs once its deadline passes, and aborts its request", async () => {
		let signal: AbortSignal | undefined;
		const time = new ManualTime();
		const api = sdkApi(
			client((_, options) => {
				signal = options.signal as AbortSignal;
				return new Promise(() => undefined);
			}),
			{ promptMs: 30, readMs: 30 },
			time,
		);
		const outcome = api.todos("s1").then(
			() => "resolved",
			(error: unknown) => error,
		);
		await time.advance(29);
		expect(signal?.aborted).toBe(false);
		await time.advance(1);
		expect(await outcome).toMatchObject({ message: "reading the todo list timed out after 30 ms" });
		expect(signal?.aborted).toBe(true);
	});

	it("turns an error answer or an HTTP failure into a rejection that says what failed", async () => {
		const failing = sdkApi(
			client(() => Promise.resolve({ error: { name: "NotFoundError", data: { message: "no session" } } })),
		);
		await expect(failing.parentOf("s1")).rejects.toThrow(/reading the session failed: no session/);
		const http = sdkApi(client(() => ok(undefined, 500)));
		await expect(http.promptAsync("s1", [], { agent: null, model: null })).rejects.toThrow(/HTTP 500/);
	});

	it("reads a session's parent, its messages and its list", async () => {
		const api = sdkApi(
			client((name) => {
				if (name === "get") return ok({ id: "child", parentID: "root" });
				if (name === "messages") return ok([{ info: {}, parts: [] }]);
				return ok([{ content: "a", status: "pending" }]);
			}),
		);
		expect(await api.parentOf("child")).toBe("root");
		expect(await api.messages("child", 5)).toHaveLength(1);
		expect(await api.todos("child")).toEqual([{ content: "a", status: "pending" }]);
	});

	it("passes a settled promise through, keeps its rejection, and leaves no timer behind", async () => {
		const time = new ManualTime();
		await expect(withTimeout(Promise.resolve(3), 10, "x", { scheduler: time })).resolves.toBe(3);
		await expect(withTimeout(Promise.reject(new Error("no")), 10, "x", { scheduler: time })).rejects.toThrow("no");
		expect(time.pending()).toEqual([]);
	});
});

describe("what the SDK is sent", () => {
	const hostile = "Fix \u001b]0;pwned\u0007 it \u001b[2J now";

	it("has the control characters of every prompt part and toast escaped", async () => {
		const calls: Call[] = [];
		const api = sdkApi(client(() => ok(undefined, 204), calls));
		const route = { agent: null, model: null };
		await api.promptAsync(
			"s1",
			[{ type: "text", text: hostile, synthetic: true, metadata: { boulder: { key: "k" } } }],
			route,
		);
		await api.appendNoReply("s1", [{ type: "text", text: hostile }], route);
		await api.toast(hostile, "warning");

		const sent = JSON.stringify(calls.map((call) => ({ ...call.options, signal: undefined })));
		// JSON spells a control character as \u00XX: none is left to spell.
		expect(sent).not.toMatch(/\\u00[01][0-9a-f]|\\u007f/);
		expect(calls[0]?.options).toMatchObject({
			body: {
				parts: [
					{ text: "Fix \\x1b]0;pwned\\x07 it \\x1b[2J now", synthetic: true, metadata: { boulder: { key: "k" } } },
				],
			},
		});
		expect(calls[2]?.options).toMatchObject({ body: { message: "Fix \\x1b]0;pwned\\x07 it \\x1b[2J now" } });
	});
});
