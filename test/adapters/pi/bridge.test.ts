/**
 * The pi bridge driven the way pi 1.6.0 calls the extension (the order of
 * events seen in docs/pi-notes.md), over the real engine and a memory store.
 */
import { describe, expect, it, vi } from "vitest";
import { type AssistantReport, cameBackHow, PiBridge, type PiView } from "../../../src/adapters/pi/bridge.js";
import type { WorkspaceSource } from "../../../src/adapters/shared/workspace.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import type { DecisionRecord } from "../../../src/core/decision-record.js";
import { DEFAULT_CONFIG } from "../../../src/core/default-config.js";
import { scopeKey } from "../../../src/core/scope-key.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const SESSION = "s-1";
const plans = { read: async () => null };

function setUp(config: ConfigInput = {}) {
	const store = new MemoryStore("/w");
	const keeper = new Engine({ store, config: DEFAULT_CONFIG, plans });
	const state = { broken: null as Error | null };
	const workspace: WorkspaceSource = {
		bookkeeping: async () => keeper,
		deciding: async () => {
			if (state.broken) throw state.broken;
			return new Engine({ store, config: Config.parse({ ...config }), plans });
		},
	};
	const bridge = new PiBridge({ workspace });
	const notices: string[] = [];
	const started: string[] = [];
	const pi = { idle: true };
	const view: PiView = {
		sessionId: SESSION,
		notify: (text) => notices.push(text),
		idle: () => pi.idle,
		startRun: (text) => started.push(text),
	};
	const records = async (): Promise<DecisionRecord[]> => store.readDecisions({ limit: 1000 });
	const scope = async () => {
		const read = await store.readScope(scopeKey({ kind: "session", harness: "pi", sessionId: SESSION }) as string);
		if (read.kind !== "ok") throw new Error("no state");
		return read.value;
	};
	return { bridge, view, notices, started, pi, records, scope, state };
}

function said(text: string, stopReason = "stop", spend = { input: 70, output: 7, cacheWrite: 0 }): AssistantReport {
	return { stopReason, errorMessage: null, text, spend };
}

const open2 = {
	todos: [
		{ content: "Item A", status: "in_progress" },
		{ content: "Item B", status: "pending" },
	],
};
const done2 = {
	todos: [
		{ content: "Item A", status: "completed" },
		{ content: "Item B", status: "completed" },
	],
};

/** One user turn in which the agent writes `list` and then says `text`; returns the continuation, if any. */
async function userTurn(t: ReturnType<typeof setUp>, list: unknown, text: string) {
	await t.bridge.input(t.view, "interactive");
	await t.bridge.agentStart(t.view);
	await t.bridge.writeTodos(t.view, list);
	t.bridge.assistantMessage(said(text));
	return t.bridge.beforeSettle(t.view, "completed", false);
}

describe("the pi bridge", () => {
	it("continues with the engine's nudge while items are open, and counts its delivery when pi starts the run", async () => {
		const t = setUp();
		const next = await userTurn(t, open2, "Started on A.");
		expect(next?.text).toContain("[boulder · automatic continuation");
		expect(t.notices).toEqual(["boulder: continuing — 2 items left (/boulder stop turns it off)"]);

		await t.bridge.agentStart(t.view);
		const state = await t.scope();
		expect(state.turn?.provenance).toBe("continuation");
		expect(state.lastDecision?.delivery).toBe("delivered");

		await t.bridge.writeTodos(t.view, done2);
		t.bridge.assistantMessage(said("All done."));
		expect(await t.bridge.beforeSettle(t.view, "completed", false)).toBeNull();
		await t.bridge.settled(t.view, false);
		expect((await t.records()).map((r) => `${r.kind}:${r.reason}`)).toEqual([
			"event:user-turn",
			"inject:continue",
			"complete:complete",
		]);
	});

	it("counts the real spend of every model call of the turn: input, output and cache writes", async () => {
		const t = setUp();
		await t.bridge.input(t.view, "rpc");
		await t.bridge.agentStart(t.view);
		t.bridge.assistantMessage(said("", "toolUse", { input: 100, output: 10, cacheWrite: 5 }));
		t.bridge.assistantMessage(said("Done.", "stop", { input: 20, output: 3, cacheWrite: 0 }));
		await t.bridge.beforeSettle(t.view, "completed", false);
		expect((await t.scope()).turn).toMatchObject({ outcome: "end", tokens: 138 });
	});

	it("never takes its own continuation, or another extension's prompt, for the user's", async () => {
		const t = setUp();
		await userTurn(t, open2, "Started on A.");
		await t.bridge.agentStart(t.view);
		t.bridge.assistantMessage(said("Still on A."));
		await t.bridge.beforeSettle(t.view, "completed", false);
		await t.bridge.agentStart(t.view);
		await t.bridge.input(t.view, "extension");
		const users = (await t.records()).filter((r) => r.reason === "user-turn");
		expect(users).toHaveLength(1);
		expect((await t.scope()).turn?.provenance).toBe("system");
		expect((await t.scope()).episode?.autoTurns).toBe(2);
	});

	it("holds the user's abort across idles until they write again", async () => {
		const t = setUp();
		await t.bridge.input(t.view, "interactive");
		await t.bridge.agentStart(t.view);
		await t.bridge.writeTodos(t.view, open2);
		t.bridge.assistantMessage(said("", "aborted"));
		expect(await t.bridge.beforeSettle(t.view, "aborted", false)).toBeNull();
		await t.bridge.settled(t.view, true);
		expect((await t.scope()).abortBlock).not.toBeNull();

		await t.bridge.agentStart(t.view);
		t.bridge.assistantMessage(said("Resuming on my own."));
		expect(await t.bridge.beforeSettle(t.view, "completed", false)).toBeNull();
		expect((await t.records()).at(-1)?.reason).toBe("user-aborted");

		expect(await userTurn(t, open2, "On it.")).not.toBeNull();
	});

	it("reports a nudge pi never started (an abort while it settled) as not delivered, and blocks", async () => {
		const t = setUp();
		const next = await userTurn(t, open2, "Started on A.");
		expect(next).not.toBeNull();
		await t.bridge.settled(t.view, true);
		const reasons = (await t.records()).map((r) => r.reason);
		expect(reasons).toContain("delivery-failed");
		expect(reasons.at(-1)).toBe("user-aborted");
		expect((await t.scope()).lastDecision?.delivery).toBe("failed");
	});

	it("does not decide while pi goes on anyway (queued messages, another continuation)", async () => {
		const t = setUp();
		await t.bridge.input(t.view, "interactive");
		await t.bridge.agentStart(t.view);
		await t.bridge.writeTodos(t.view, open2);
		expect(await t.bridge.beforeSettle(t.view, "completed", true)).toBeNull();
		expect((await t.records()).filter((r) => r.kind !== "event")).toEqual([]);
	});

	it("does not nudge while a dialog waits for the user", async () => {
		const t = setUp();
		await t.bridge.input(t.view, "interactive");
		await t.bridge.agentStart(t.view);
		await t.bridge.writeTodos(t.view, open2);
		await t.bridge.promptStarted(t.view, "select", "Which database?");
		t.bridge.assistantMessage(said("Waiting."));
		expect(await t.bridge.beforeSettle(t.view, "completed", false)).toBeNull();
		expect((await t.records()).at(-1)?.reason).toBe("awaiting-user");
		await t.bridge.promptEnded(t.view);
		expect((await t.scope()).observed.pendingInput).toBeNull();
	});

	it("lets the agent stop when it asks the user a question", async () => {
		const t = setUp();
		expect(await userTurn(t, open2, "Should I use Postgres or SQLite? Which do you prefer?")).toBeNull();
		expect((await t.records()).at(-1)?.reason).toBe("awaiting-user");
	});

	it("ends a failed turn as an API error or a context overflow, with its spend", async () => {
		const t = setUp();
		await t.bridge.input(t.view, "interactive");
		await t.bridge.agentStart(t.view);
		await t.bridge.writeTodos(t.view, open2);
		t.bridge.assistantMessage({ ...said("", "error"), errorMessage: "maximum context length is 8192 tokens" });
		expect(await t.bridge.beforeSettle(t.view, "error", false)).toBeNull();
		const reasons = (await t.records()).map((r) => r.reason);
		expect(reasons).toContain("context-overflow");
		expect((await t.scope()).turn).toMatchObject({ outcome: "context-overflow", tokens: 77 });
	});

	it("lets the agent stop, and says why, when the config is broken", async () => {
		const t = setUp();
		t.state.broken = new Error("boulder.config.json: budgets.turns must be a number");
		expect(await userTurn(t, open2, "Started.")).toBeNull();
		expect(t.notices).toEqual(["boulder: not continuing: boulder.config.json: budgets.turns must be a number"]);
		expect((await t.records()).at(-1)).toMatchObject({ reason: "error" });
	});

	it("lets pi settle when the decision takes too long, and never delivers it later", async () => {
		vi.useFakeTimers();
		try {
			const t = setUp();
			let release: () => void = () => undefined;
			const slow = new Promise<void>((resolve) => {
				release = resolve;
			});
			const bridge = new PiBridge({
				decideLimitMs: 1_000,
				workspace: {
					bookkeeping: async () => new Engine({ store: new MemoryStore("/w"), config: DEFAULT_CONFIG, plans }),
					deciding: async () => {
						await slow;
						throw new Error("late");
					},
				},
			});
			const pending = bridge.beforeSettle(t.view, "completed", false);
			await vi.advanceTimersByTimeAsync(1_000);
			expect(await pending).toBeNull();
			release();
			await bridge.settledJobs();
		} finally {
			vi.useRealTimers();
		}
	});

	it("keeps the todo list per session: write, read, clear", async () => {
		const t = setUp();
		expect(await t.bridge.readTodos(t.view)).toBe("The todo list is empty.");
		expect(await t.bridge.writeTodos(t.view, open2)).toBe("Saved 2 items: 2 open, 0 done.");
		expect(await t.bridge.readTodos(t.view)).toBe("- [in_progress] Item A\n- [pending] Item B");
		const other = { ...t.view, sessionId: "s-2" };
		expect(await t.bridge.readTodos(other)).toBe("The todo list is empty.");
		expect(await t.bridge.clearTodos(t.view)).toBe("Cleared the todo list (2 items removed).");
		expect((await t.scope()).todos).toEqual([]);
	});

	it("names the items todo_write could not keep, and keeps the rest", async () => {
		const t = setUp();
		const answer = await t.bridge.writeTodos(t.view, {
			todos: [{ content: "Item A", status: "done" }, { status: "pending" }],
		});
		expect(answer).toMatch(/^Saved 1 item: 0 open, 1 done\.\nNot kept: todo_write\[1\]/);
		expect((await t.records()).at(-1)).toMatchObject({ reason: "error" });
	});

	it("/boulder stop holds; /boulder go, while pi is idle, decides again and starts the run", async () => {
		const t = setUp();
		expect(await t.bridge.command(t.view, "stop")).toMatch(/stopped for this session/);
		expect(await userTurn(t, open2, "Started.")).toBeNull();
		await t.bridge.settled(t.view, false);
		expect((await t.records()).at(-1)?.reason).toBe("disabled");

		expect(await t.bridge.command(t.view, "go")).toMatch(/on again for this session/);
		await t.bridge.settledJobs();
		expect(t.started).toHaveLength(1);
		expect(t.started[0]).toContain("[boulder · automatic continuation");
		await t.bridge.agentStart(t.view);
		expect((await t.scope()).turn?.provenance).toBe("continuation");
	});

	it("tells a session that came back where its list stands, without a turn, a nudge or spent budget", async () => {
		const t = setUp();
		expect(
			await userTurn(t, { todos: [...open2.todos, { content: "Item C", status: "completed" }] }, "Paused."),
		).not.toBeNull();
		await t.bridge.settled(t.view, false);
		const before = await t.scope();
		const count = (await t.records()).length;
		const resumed = await t.bridge.cameBack(t.view, "resume");
		expect(resumed).toMatch(/was resumed[\s\S]*1 of 3 done[\s\S]*- Item A \(in progress\)\n- Item B/);
		expect(await t.bridge.cameBack(t.view, "compact")).toMatch(/had its conversation compacted/);
		const after = (await t.records()).slice(count).map((line) => `${line.kind}:${line.reason}`);
		expect(after).toEqual(["event:resume-context", "event:resume-context"]);
		expect((await t.scope()).episode).toEqual(before.episode);
		expect(t.started).toEqual([]);
	});

	it("says nothing once the user stopped boulder for the session", async () => {
		const t = setUp();
		await userTurn(t, open2, "Paused.");
		await t.bridge.settled(t.view, false);
		await t.bridge.command(t.view, "stop");
		expect(await t.bridge.cameBack(t.view, "resume")).toBeNull();
	});

	it("hears a session come back when pi opens an earlier session, not a new one, a fork or a reload", () => {
		expect(cameBackHow("resume", true)).toBe("resume");
		expect(cameBackHow("startup", true)).toBe("resume");
		expect(cameBackHow("startup", false)).toBeNull();
		for (const reason of ["new", "fork", "reload"]) expect(cameBackHow(reason, true)).toBeNull();
	});
});
