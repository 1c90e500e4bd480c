/**
 * The hub's mapping of OpenCode's events onto engine calls, and the delivery
 * of the engine's answer. Time is manual (`ManualTime`): a nudge, a retry or
 * a give-up happens only when a test advances time past it, so "nothing was
 * sent" is checked after advancing beyond the moment it would have been.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoulderError } from "../../../src/core/errors.js";
import {
	autoStart,
	type Call,
	closeHubs,
	decisionsOf,
	FAST,
	FakeOpenCode,
	MODEL,
	newSession,
	records,
	setUp,
	stateOf,
	type TestHub,
} from "./helpers.js";

/** The session under test. */
let S = "";

/** The default countdown before a nudge is sent. */
const COUNTDOWN = FAST.countdownMs ?? 0;

/** Far beyond every countdown, confirm wait and backoff the tests configure. */
const LONG_AFTER = 60_000;

beforeEach(() => {
	S = newSession();
});

afterEach(closeHubs);

describe("turns from OpenCode's events", () => {
	it("starts a user turn on a real prompt and ends it at idle with the steps' real spend and finish", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		await oc.prompt(S, "Do the list.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S, {
			finish: "tool-calls",
			tokens: { input: 600, output: 50, reasoning: 10, cache: { read: 400, write: 30 } },
		});
		await oc.step(S, { finish: "stop", tokens: { input: 700, output: 20, cache: { read: 500 } } });
		await oc.idle(S);
		await hub.settled();

		const state = await stateOf(ws.store, S);
		expect(state.turn).toMatchObject({ provenance: "user", outcome: "end", tokens: 600 + 50 + 10 + 30 + 700 + 20 });
		expect(state.todos?.map((todo) => todo.status)).toEqual(["in_progress", "pending"]);
		expect(await decisionsOf(ws.store)).toEqual(["event:user-turn", "skip:disabled"]);
	});

	it("takes a repeated user message.updated for the same turn, and an unannounced user message for OpenCode's own", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		const id = await oc.prompt(S, "Do it.");
		await oc.emit("message.updated", {
			sessionID: S,
			info: { id, sessionID: S, role: "user", agent: "build", model: MODEL },
		});
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn).toMatchObject({ seq: 1, provenance: "user" });

		await oc.unannouncedUserMessage(S);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn).toMatchObject({ seq: 2, provenance: "system" });
	});

	it("takes synthetic-only prompts and OpenCode's compaction continue for system turns, never the user's", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		await oc.prompt(S, "A plugin's reminder", { synthetic: true });
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.provenance).toBe("system");
		await oc.prompt(S, "Continue if you have next steps", { synthetic: true, metadata: { compaction_continue: true } });
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.provenance).toBe("system");
		expect(await decisionsOf(ws.store)).not.toContain("event:user-turn");
	});

	it("reads how the turn ended: length, API errors, unknown finishes", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		await oc.turn(S, "One.", [{ finish: "length" }]);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.outcome).toBe("length");
		await oc.turn(S, "Two.", [{ finish: "tool-calls" }]);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.outcome).toBe("unknown");
	});

	it("counts each completed file-changing tool call once as activity; reads and commands do not count", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		await oc.prompt(S, "Edit.");
		await oc.step(S, { finish: "tool-calls", tool: { tool: "edit", callID: "c1" } });
		await oc.step(S, { finish: "tool-calls", tool: { tool: "write", callID: "c2" } });
		await oc.step(S, { finish: "tool-calls", tool: { tool: "bash", callID: "c3" } });
		await oc.step(S, { finish: "tool-calls", tool: { tool: "read", callID: "c4" } });
		await oc.step(S, { finish: "stop" });
		await oc.idle(S);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.activity).toBe(2);
	});

	it("reads the list from OpenCode at the first idle when no todo.updated was seen", async () => {
		const { hub, ws, oc, api } = setUp({ config: { enabled: false } });
		api.todoLists.set(S, [{ content: "Left over", status: "pending", priority: "high" }]);
		await oc.turn(S, "Go on.");
		await hub.settled();
		expect((await stateOf(ws.store, S)).todos).toEqual([{ content: "Left over", status: "pending", priority: "high" }]);
	});
});

describe("when boulder must not nudge", () => {
	it("blocks after the user aborts (both idle pairs), until the user writes again", async () => {
		const { hub, ws, oc, api, time } = setUp();
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.emit("session.error", {
			sessionID: S,
			error: { name: "MessageAbortedError", data: { message: "Aborted" } },
		});
		await oc.idle(S);
		await oc.emit("message.updated", {
			sessionID: S,
			info: { id: "msg_aborted", sessionID: S, role: "assistant", error: { name: "MessageAbortedError", data: {} } },
		});
		await oc.idle(S);
		await hub.settled();
		await time.advance(LONG_AFTER);
		expect(api.prompts).toHaveLength(0);
		expect(time.pending()).toEqual([]);
		expect(await decisionsOf(ws.store)).toEqual(["event:user-turn", "event:user-aborted", "skip:user-aborted"]);

		await oc.turn(S, "Carry on.");
		await hub.settled();
		await time.advance(COUNTDOWN);
		expect(api.prompts).toHaveLength(1);
	});

	it("waits while a question or a permission request is pending", async () => {
		const { hub, ws, oc, api, time } = setUp();
		await oc.prompt(S, "Build.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.emit("question.asked", { id: "que_1", sessionID: S, questions: [{ question: "Postgres or SQLite?" }] });
		await oc.emit("permission.asked", { id: "per_1", sessionID: S, permission: "bash", patterns: ["rm *"] });
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(LONG_AFTER);
		expect(api.prompts).toHaveLength(0);
		expect(time.pending()).toEqual([]);
		expect((await records(ws.store)).at(-1)).toMatchObject({
			reason: "awaiting-user",
			detail: "a question is waiting for the user: Postgres or SQLite?",
		});

		await oc.emit("question.replied", { sessionID: S, requestID: "que_1", answers: [["Postgres"]] });
		await hub.settled();
		expect((await stateOf(ws.store, S)).observed.pendingInput).toMatchObject({ kind: "permission" });
		await oc.emit("permission.replied", { sessionID: S, requestID: "per_1", reply: "once" });
		await hub.settled();
		expect((await stateOf(ws.store, S)).observed.pendingInput).toBeNull();
	});

	it("never nudges a child session; the parent waits while it runs and is decided again when it stops", async () => {
		const { hub, ws, oc, api, time } = setUp();
		const child = "ses_child";
		await oc.emit("session.created", { sessionID: child, info: { id: child, parentID: S } });
		await oc.prompt(child, "Summarise the notes.", { agent: "general" });
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		expect(await decisionsOf(ws.store, S)).toContain("skip:background-busy");
		expect(api.prompts).toHaveLength(0);

		await oc.step(child, { agent: "general" });
		await oc.idle(child);
		await hub.settled();
		expect(api.prompts).toHaveLength(0);
		await time.advance(COUNTDOWN);
		expect(api.prompts).toHaveLength(1);
		expect(api.prompts[0]?.sessionId).toBe(S);
		expect((await records(ws.store)).filter((r) => r.session === child).map((r) => r.reason)).toEqual(["not-eligible"]);
	});

	it("keeps a child a child when an update leaves its parent out", async () => {
		const { hub, ws, oc, api } = setUp();
		await oc.emit("session.created", { sessionID: "ses_kid", info: { id: "ses_kid", parentID: S } });
		await oc.emit("session.updated", { sessionID: "ses_kid", info: { id: "ses_kid", title: "renamed" } });
		await oc.prompt("ses_kid", "Work.");
		await oc.todos("ses_kid", ["pending"]);
		await oc.step("ses_kid");
		await oc.idle("ses_kid");
		await hub.settled();
		expect(api.prompts).toHaveLength(0);
		expect((await records(ws.store)).map((r) => `${r.session}:${r.reason}`)).toEqual(["ses_kid:not-eligible"]);
	});

	it("asks OpenCode whether a session is a child when no event said so", async () => {
		const { hub, ws, oc, api } = setUp();
		api.parents.set("ses_orphan", S);
		await oc.turn("ses_orphan", "Work.");
		await hub.settled();
		expect((await records(ws.store)).map((r) => `${r.session}:${r.reason}`)).toEqual(["ses_orphan:not-eligible"]);
	});

	it("does not continue a skip-listed agent (plan)", async () => {
		const { hub, ws, oc, api } = setUp();
		await oc.prompt(S, "Plan it.", { agent: "plan" });
		await oc.todos(S, ["pending"]);
		await oc.step(S, { agent: "plan" });
		await oc.idle(S);
		await hub.settled();
		expect(api.prompts).toHaveLength(0);
		expect(await decisionsOf(ws.store)).toContain("skip:not-eligible");
	});

	it("ends the turn as an API error or a context overflow, as OpenCode reports it", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false } });
		await oc.prompt(S, "One.");
		await oc.emit("session.error", {
			sessionID: S,
			error: { name: "APIError", data: { message: "Bad request", statusCode: 400, isRetryable: false } },
		});
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.outcome).toBe("error");
		await oc.prompt(S, "Two.");
		await oc.emit("session.error", {
			sessionID: S,
			error: { name: "ContextOverflowError", data: { message: "too long" } },
		});
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.outcome).toBe("context-overflow");
		expect(await decisionsOf(ws.store)).toEqual(expect.arrayContaining(["event:api-error", "event:context-overflow"]));
	});
});

describe("delivering a nudge", () => {
	it("sends one marked prompt with the last real user message's agent and model, after the countdown", async () => {
		const { hub, ws, oc, api, time } = setUp();
		autoStart(api, oc);
		await oc.prompt(S, "Plan, then build.", { agent: "builder", model: { providerID: "p", modelID: "big" } });
		await oc.todos(S, ["completed", "in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(COUNTDOWN - 1);
		expect(api.prompts).toHaveLength(0);
		await time.advance(1);
		expect(api.prompts).toHaveLength(1);
		expect((await stateOf(ws.store, S)).lastDecision?.delivery).toBe("delivered");

		const call = api.prompts[0] as Call;
		expect(call.route).toEqual({ agent: "builder", model: { providerID: "p", modelID: "big" } });
		expect(call.parts).toEqual([
			{
				type: "text",
				text: expect.stringContaining("1 of 3 done"),
				synthetic: true,
				metadata: { boulder: { kind: "nudge", key: expect.any(String) } },
			},
		]);
		expect(api.toasts[0]?.message).toMatch(/^continuing in 1s — 2 items left/);
		const state = await stateOf(ws.store, S);
		expect(state.turn).toMatchObject({ provenance: "continuation", nudgeKey: state.lastDecision?.key });
		expect(state.episode?.autoTurns).toBe(1);
	});

	it("sends exactly one nudge for paired idle events reaching two plugin instances", async () => {
		const { hub, ws, api, time } = setUp();
		const oc = new FakeOpenCode(hub.hooks(), hub.hooks());
		autoStart(api, oc);
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(LONG_AFTER);
		expect(api.prompts).toHaveLength(1);
		expect((await records(ws.store)).filter((r) => r.kind === "inject")).toHaveLength(1);
		expect(await decisionsOf(ws.store)).toEqual(["event:user-turn", "inject:continue"]);
	});

	it.each([
		["the user writes", (oc: FakeOpenCode) => oc.prompt(S, "Wait, do B first.")],
		[
			"the session goes busy",
			(oc: FakeOpenCode) => oc.emit("session.status", { sessionID: S, status: { type: "busy" } }),
		],
		[
			"the user aborts",
			(oc: FakeOpenCode) =>
				oc.emit("session.error", {
					sessionID: S,
					error: { name: "MessageAbortedError", data: { message: "Aborted" } },
				}),
		],
		["a question is asked", (oc: FakeOpenCode) => oc.emit("question.asked", { id: "q", sessionID: S, questions: [] })],
		[
			"a tool runs",
			(oc: FakeOpenCode) => oc.instances[0]?.["tool.execute.before"]({ tool: "bash", sessionID: S, callID: "c" }),
		],
	])("cancels the countdown when %s, and reports the nudge as not delivered", async (_, interrupt) => {
		const { hub, ws, oc, api, time } = setUp({ config: { countdownMs: 200 } });
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		expect(api.toasts).toHaveLength(1);
		expect(time.pending()).toEqual([200]);
		await time.advance(199);
		await interrupt(oc);
		await hub.settled();
		expect(time.pending()).toEqual([]);
		await time.advance(LONG_AFTER);
		expect(api.prompts).toHaveLength(0);
		const failed = (await records(ws.store)).find((r) => r.reason === "delivery-failed");
		expect(failed?.detail).toMatch(/cancelled before sending/);
	});

	it("counts a prompt OpenCode accepted but that never appeared as not delivered, and backs off", async () => {
		const { hub, ws, oc, api, time } = setUp({ confirmMs: 50 });
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(COUNTDOWN + 49);
		expect(api.prompts).toHaveLength(1);
		expect(await decisionsOf(ws.store)).not.toContain("event:delivery-failed");
		await time.advance(1);
		expect(await decisionsOf(ws.store)).toContain("event:delivery-failed");
		expect(api.prompts).toHaveLength(1);
		expect((await stateOf(ws.store, S)).failures).toMatchObject({ kind: "delivery", count: 1 });
		expect((await records(ws.store)).find((r) => r.reason === "delivery-failed")?.detail).toMatch(
			/did not appear in the session/,
		);
	});

	it("does not retry a rejected prompt blindly: one re-decide when the backoff ends", async () => {
		const { hub, ws, oc, api, time } = setUp();
		api.promptError = new Error("HTTP 500");
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(COUNTDOWN);
		expect(await decisionsOf(ws.store)).toContain("event:delivery-failed");
		api.promptError = null;
		autoStart(api, oc);
		const [retry = 0] = time.pending();
		expect(time.pending()).toHaveLength(1);
		expect(retry).toBeGreaterThan(0);
		await time.advance(retry - 1);
		expect(api.prompts).toHaveLength(0);
		await time.advance(1 + COUNTDOWN);
		expect(api.prompts).toHaveLength(1);
		const reasons = await decisionsOf(ws.store);
		expect(reasons).toEqual([
			"event:user-turn",
			"inject:continue",
			"event:delivery-failed",
			"skip:backoff",
			"inject:continue",
		]);
	});

	it("takes a late nudge that appears after it was given up for a continuation turn", async () => {
		const { hub, ws, oc, api, time } = setUp({ confirmMs: 20 });
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		await time.advance(COUNTDOWN + 20);
		expect(await decisionsOf(ws.store)).toContain("event:delivery-failed");
		await oc.promptFromPlugin(api.prompts[0] as Call);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.provenance).toBe("continuation");
		expect((await decisionsOf(ws.store)).filter((r) => r === "event:user-turn")).toHaveLength(1);
	});
});

describe("never wedging OpenCode", () => {
	it("records a broken config, shows it, lets the agent stop, and keeps the bookkeeping", async () => {
		const { hub, ws, oc, api } = setUp();
		ws.brokenConfig = new BoulderError("config-invalid", "boulder.config.json is not a valid boulder config");
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		expect(api.prompts).toHaveLength(0);
		expect(api.toasts.at(-1)).toMatchObject({
			variant: "error",
			message: expect.stringMatching(/not a valid boulder config/),
		});
		expect((await records(ws.store)).at(-1)).toMatchObject({
			reason: "error",
			detail: expect.stringMatching(/reading boulder's config/),
		});
		expect((await stateOf(ws.store, S)).turn?.outcome).toBe("end");
	});

	it("records a failing store instead of throwing into OpenCode", async () => {
		const { hub, ws, oc } = setUp();
		const original = ws.store.updateScope.bind(ws.store);
		let failing = true;
		ws.store.updateScope = (async (...args: Parameters<typeof original>) => {
			if (failing) {
				failing = false;
				throw new Error("disk full");
			}
			return original(...args);
		}) as typeof ws.store.updateScope;
		await expect(oc.prompt(S, "Do it.")).resolves.toBeTypeOf("string");
		await hub.settled();
		expect((await records(ws.store)).some((r) => r.reason === "error" && /disk full/.test(r.detail))).toBe(true);
	});

	it("ignores events it cannot read", async () => {
		const { hub, oc } = setUp();
		const hooks = oc.instances[0] as NonNullable<(typeof oc.instances)[0]>;
		await expect(hooks.event({ event: null })).resolves.toBeUndefined();
		await expect(hooks.event(null as unknown as { event: unknown })).resolves.toBeUndefined();
		await expect(
			hooks.event({ event: { type: "session.status", properties: { status: 3 } } }),
		).resolves.toBeUndefined();
		await expect(
			hooks.event({ event: { type: "message.updated", properties: { info: "x" } } }),
		).resolves.toBeUndefined();
		await hub.settled();
	});
});

describe("resume context after a restart", () => {
	async function firstPrompt(hub: TestHub["hub"], session: string, text: string): Promise<unknown[]> {
		const message = { id: `msg_${session}_${text.length}`, sessionID: session, role: "user", agent: "build" };
		const parts: unknown[] = [{ id: "prt_0001", sessionID: session, messageID: message.id, type: "text", text }];
		await hub.hooks()["chat.message"]({ sessionID: session, agent: "build" }, { message, parts });
		return parts;
	}

	it("adds the context as a synthetic part to a known session's first prompt in this process, once", async () => {
		const { hub, ws } = setUp();
		const keeper = await ws.source.bookkeeping();
		await keeper.todosChanged({ harness: "opencode", sessionId: S }, [
			{ content: "Write the parser", status: "completed" },
			{ content: "Wire the CLI", status: "pending" },
		]);

		const parts = await firstPrompt(hub, S, "Where were we?");
		expect(parts).toHaveLength(2);
		expect(parts[1]).toMatchObject({
			sessionID: S,
			type: "text",
			synthetic: true,
			metadata: { boulder: { kind: "resume" } },
			text: expect.stringContaining("came back after a restart with work unfinished: 1 of 2 done, 1 open"),
		});
		expect(String((parts[1] as { id: string }).id) > "prt_0001").toBe(true);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn).toMatchObject({ provenance: "user" });
		expect(await decisionsOf(ws.store)).toEqual(["event:resume-context", "event:user-turn"]);

		expect(await firstPrompt(hub, S, "And now?")).toHaveLength(1);
	});

	it("puts the context into a compaction's prompt, so the summary keeps where the work stands", async () => {
		const { hub, ws } = setUp();
		await (await ws.source.bookkeeping()).todosChanged({ harness: "opencode", sessionId: S }, [
			{ content: "Wire the CLI", status: "in_progress" },
		]);
		const output = { context: [] as string[] };
		await hub.hooks()["experimental.session.compacting"]({ sessionID: S }, output);
		expect(output.context).toEqual([expect.stringContaining("had its conversation compacted with work unfinished")]);
		expect(output.context[0]).toContain("- Wire the CLI (in progress)");

		const off = setUp({ config: { enabled: false } });
		await (await off.ws.source.bookkeeping()).todosChanged({ harness: "opencode", sessionId: S }, [
			{ content: "Wire the CLI", status: "in_progress" },
		]);
		const none = { context: [] as string[] };
		await off.hub.hooks()["experimental.session.compacting"]({ sessionID: S }, none);
		expect(none.context).toEqual([]);
	});

	it("says nothing to a session created in this process, nor when boulder is switched off", async () => {
		const fresh = setUp();
		await fresh.oc.emit("session.created", { info: { id: S, parentID: null } });
		await (await fresh.ws.source.bookkeeping()).todosChanged({ harness: "opencode", sessionId: S }, [
			{ content: "Wire the CLI", status: "pending" },
		]);
		expect(await firstPrompt(fresh.hub, S, "Go.")).toHaveLength(1);

		const off = setUp({ config: { enabled: false } });
		await (await off.ws.source.bookkeeping()).todosChanged({ harness: "opencode", sessionId: S }, [
			{ content: "Wire the CLI", status: "pending" },
		]);
		expect(await firstPrompt(off.hub, S, "Go.")).toHaveLength(1);
	});
});
