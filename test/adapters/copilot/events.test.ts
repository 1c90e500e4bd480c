/**
 * Copilot CLI's events through the real engine (memory store, a clock the
 * test moves), with the event log and the session database faked at the
 * adapter's boundary. The sequences are the ones Copilot 1.0.102 was seen
 * to fire: agentStop blocked → userPromptSubmitted with the block's reason →
 * agentStop, and so on.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { readTodos } from "../../../src/adapters/copilot/events.js";
import { type HookDeps, type HookInput, handleHook, parseHookInput } from "../../../src/adapters/copilot/events.js";
import type { TurnReading } from "../../../src/adapters/copilot/transcript.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import type { Todo } from "../../../src/core/todos.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const SESSION = "c1474fda-b218-442f-9434-b782c4985992";
const LOG = `/copilot/session-state/${SESSION}/events.jsonl`;
const clock = {
	t: Date.UTC(2026, 11, 1, 12, 0, 0),
	now() {
		return this.t;
	},
};

let engine: Engine;
let store: MemoryStore;
let todos: Todo[] | null;
let turn: Partial<TurnReading>;
let todoPaths: string[];
/** agentStop blocks in a row before the current turn, as the event log would show them. */
let chain: number;

function setUp(config: ConfigInput = {}): void {
	store = new MemoryStore("/w", { clock });
	engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
	todos = null;
	turn = {};
	todoPaths = [];
	chain = 0;
}

beforeEach(() => setUp());

function reading(): TurnReading {
	return {
		spend: { input: 100, output: 20, cacheWrite: 0 },
		calls: 1,
		activity: 0,
		abort: null,
		pendingQuestion: null,
		stopBlocks: [],
		lastAssistantText: "Done for now.",
		foundStart: true,
		ownRecordSeen: true,
		startMarker: `turn-${clock.t}`,
		partialLastLine: false,
		skippedLines: 0,
		limit: null,
		...turn,
	};
}

const deps = (): HookDeps => ({
	engine,
	readTurn: async () => reading(),
	readBlockChain: async () => chain,
	readTodos: (async (database: string) => {
		todoPaths.push(database);
		return todos === null ? null : { todos, warnings: [] };
	}) as typeof readTodos,
});

/** The agentStop wait on the test's clock: each pause moves the clock on, no time passes. */
const onTestClock: NonNullable<HookDeps["wait"]> = {
	now: () => clock.t,
	sleep: async (ms) => {
		clock.t += ms;
	},
};

function input(event: string, fields: Record<string, unknown> = {}): HookInput {
	const parsed = parseHookInput(
		JSON.stringify({ sessionId: SESSION, timestamp: clock.t, cwd: "/w", ...fields }),
		event,
	);
	if (!parsed.ok) throw new Error(parsed.problem);
	return parsed.input;
}

/** What Copilot does with the answer: print it, then the hook reports the delivery. */
async function send(event: string, fields: Record<string, unknown> = {}) {
	clock.t += 1000;
	const answer = await handleHook(input(event, fields), deps());
	await answer.written?.();
	return answer;
}

const stop = () => send("agentStop", { transcriptPath: LOG, stopReason: "end_turn", stop_hook_active: false });

function items(statuses: Todo["status"][]): Todo[] {
	return statuses.map((status, index) => ({ id: `item-${index + 1}`, content: `Item ${index + 1}`, status }));
}

/** Plays Copilot: every block's reason comes back as a userPromptSubmitted, then the agent stops again. */
async function stalledRun(maxStops: number): Promise<number> {
	let blocks = 0;
	for (let index = 0; index < maxStops; index++) {
		const answer = await stop();
		const reason = answer.output?.reason;
		if (answer.output?.decision !== "block" || typeof reason !== "string") break;
		blocks++;
		chain++;
		turn = { stopBlocks: [reason] };
		await send("userPromptSubmitted", { prompt: reason, transcriptPath: LOG });
		turn = {};
	}
	return blocks;
}

describe("Copilot CLI's events", () => {
	it("stops a stalled agent at the stagnation limit though Copilot echoes every nudge as a prompt", async () => {
		await send("userPromptSubmitted", { prompt: "Fix both items." });
		todos = items(["pending", "pending"]);
		// Copilot's own cap would stop it after 8 blocks; boulder must stop it after 3 nudges, as in Claude Code.
		expect(await stalledRun(8)).toBe(3);
		const log = await store.readDecisions();
		expect(log.filter((line) => line.reason === "user-turn")).toHaveLength(1);
		expect(log.at(-1)?.reason).toBe("stagnation");
	});

	it("starts afresh on the user's next real prompt", async () => {
		await send("userPromptSubmitted", { prompt: "Fix both items." });
		todos = items(["pending", "pending"]);
		expect(await stalledRun(8)).toBe(3);
		await send("userPromptSubmitted", { prompt: "Please carry on." });
		chain = 0;
		expect(await stalledRun(8)).toBe(3);
	});

	it("counts another hook's echoed block as Copilot's turn, not the user's", async () => {
		await send("userPromptSubmitted", { prompt: "Fix both items." });
		todos = items(["pending", "pending"]);
		await stop();
		turn = { stopBlocks: ["Run the linter before you stop."] };
		await send("userPromptSubmitted", { prompt: "Run the linter before you stop.", transcriptPath: LOG });
		turn = {};
		const log = await store.readDecisions();
		expect(log.filter((line) => line.reason === "user-turn")).toHaveLength(1);
	});

	it("waits for the log to show the block another hook echoed, rather than take it for the user's prompt", async () => {
		await send("userPromptSubmitted", { prompt: "Fix both items." });
		todos = items(["pending", "pending"]);
		await stop();
		let readings = 0;
		const late: HookDeps = {
			...deps(),
			// Copilot has not yet written the block's hook.end, nor this prompt's own hook.start.
			readTurn: async () =>
				++readings === 1
					? { ...reading(), ownRecordSeen: false }
					: { ...reading(), stopBlocks: ["Run the linter before you stop."] },
			wait: onTestClock,
		};
		clock.t += 1000;
		const echoed = input("userPromptSubmitted", { prompt: "Run the linter before you stop.", transcriptPath: LOG });
		await handleHook(echoed, late);

		expect(readings).toBe(2);
		const log = await store.readDecisions();
		expect(log.filter((line) => line.reason === "user-turn")).toHaveLength(1);
	});

	it("carries the agent on while its list makes progress, reading the database beside the event log", async () => {
		await send("userPromptSubmitted", { prompt: "Work the list." });
		todos = items(["pending", "pending", "pending"]);
		const first = await stop();
		expect(first.output).toMatchObject({
			decision: "block",
			reason: expect.stringMatching(/0 of 3 done[\s\S]*Item 1/),
		});
		expect(todoPaths).toEqual([`/copilot/session-state/${SESSION}/session.db`]);
		todos = items(["completed", "completed", "completed"]);
		expect((await stop()).output).toBeNull();
		expect((await store.readDecisions()).at(-1)?.kind).toBe("complete");
	});

	it("does not print a ninth block in a row, which Copilot would not deliver: a harness-cap stop, not a failed delivery", async () => {
		await send("userPromptSubmitted", { prompt: "Work the list." });
		todos = items(Array.from({ length: 12 }, () => "pending"));
		for (let done = 0; done < 8; done++) {
			todos = items(Array.from({ length: 12 }, (_, index) => (index < done ? "completed" : "pending")));
			expect((await stop()).output).toMatchObject({ decision: "block" });
			chain++;
		}
		todos = items(Array.from({ length: 12 }, (_, index) => (index < 8 ? "completed" : "pending")));
		expect((await stop()).output).toBeNull();
		const lines = await store.readDecisions();
		expect(lines.filter((line) => line.reason === "delivery-failed")).toEqual([]);
		// Every nudge logged as sent was printed: 8 lines, 8 received.
		expect(lines.filter((line) => line.reason === "continue")).toHaveLength(8);
		expect(lines.filter((line) => line.reason === "harness-cap")).toEqual([
			expect.objectContaining({
				detail: expect.stringMatching(
					/Copilot CLI lets at most 8 continuation\(s\) in a row through .*4 item\(s\) open; no setting raises it/,
				),
			}),
		]);
		await send("userPromptSubmitted", { prompt: "Carry on." });
		chain = 0;
		expect((await stop()).output).toMatchObject({ decision: "block" });
	});

	it("does not nudge when the continuations in a row cannot be counted: an unreadable log is no free pass past the cap", async () => {
		await send("userPromptSubmitted", { prompt: "Work the list." });
		todos = items(["pending", "pending"]);
		const failing = { ...deps(), readBlockChain: async () => Promise.reject(new Error("EACCES: permission denied")) };
		const answer = await handleHook(input("agentStop", { transcriptPath: LOG, stop_hook_active: false }), failing);
		expect(answer.output).toBeNull();
		const last = (await store.readDecisions()).at(-1);
		expect(last).toMatchObject({ reason: "turn-unsafe", detail: expect.stringMatching(/cannot be counted.*EACCES/) });
	});

	it("never continues a subagent: its agentStop (with agentId) and subagentStop answer nothing", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		todos = items(["pending"]);
		const child = { agentId: "4e60bc45", agentType: "explore", parentAgentId: SESSION };
		await send("userPromptSubmitted", { ...child, sessionId: "4e60bc45", prompt: "look around" });
		const childStop = await handleHook(
			input("agentStop", { ...child, sessionId: "4e60bc45", transcriptPath: LOG, stop_hook_active: true }),
			deps(),
		);
		expect(childStop.output).toBeNull();
		expect((await send("subagentStop", { ...child, transcriptPath: LOG, response: "found it" })).output).toBeNull();
		const skips = (await store.readDecisions()).filter((line) => line.reason === "not-eligible");
		expect(skips).toHaveLength(2);
		expect(todoPaths).toEqual([]);
	});

	it("does not nudge while a question or a plan's approval waits, nor after an abort", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		todos = items(["pending"]);
		turn = { pendingQuestion: "the agent asked the user to approve its plan" };
		expect((await stop()).output).toBeNull();
		await send("userPromptSubmitted", { prompt: "Go on." });
		turn = { abort: { at: clock.t + 500 } };
		expect((await stop()).output).toBeNull();
		expect((await store.readDecisions()).map((line) => line.reason)).toContain("user-aborted");
	});

	it("fails closed when the event log does not show the turn", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		todos = items(["pending"]);
		turn = { foundStart: false };
		expect((await stop()).output).toBeNull();
		expect((await store.readDecisions()).at(-1)?.detail).toContain(`no line of the event log ${LOG} begins`);
		expect((await send("agentStop", { stopReason: "end_turn" })).output).toBeNull();
		expect((await store.readDecisions()).at(-1)?.detail).toContain("Copilot CLI gave no transcriptPath");
	});

	it("waits for Copilot to write this stop to the event log, then fails closed saying so", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		todos = items(["pending"]);
		turn = { ownRecordSeen: false };
		let readings = 0;
		const stamp = clock.t + 1000;
		const asked: unknown[] = [];
		const waiting: HookDeps = {
			...deps(),
			readTurn: async (_file, options) => {
				readings++;
				asked.push(options?.own);
				return reading();
			},
			wait: { ...onTestClock, timeoutMs: 5000 },
		};
		clock.t += 1000;
		const stopInput = input("agentStop", { transcriptPath: LOG, stopReason: "end_turn", stop_hook_active: false });
		const answer = await handleHook(stopInput, waiting);

		expect(answer.output).toBeNull();
		expect(readings).toBeGreaterThan(2);
		expect(asked[0]).toEqual({ hookType: "agentStop", timestamp: stamp });
		const last = (await store.readDecisions()).at(-1);
		expect(last?.reason).toBe("turn-unsafe");
		expect(last?.detail).toContain(`Copilot CLI had not written this agentStop to the event log ${LOG} after 5 s`);
	});

	it("decides on the turn the event log shows once this stop's own line is there", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		todos = items(["pending"]);
		let readings = 0;
		const late: HookDeps = {
			...deps(),
			// The first two readings come before Copilot wrote the turn: the last turn's reading, not ours.
			readTurn: async () => (++readings <= 2 ? { ...reading(), ownRecordSeen: false, startMarker: "old" } : reading()),
			wait: { ...onTestClock, timeoutMs: 5000 },
		};
		clock.t += 1000;
		const stopInput = input("agentStop", { transcriptPath: LOG, stopReason: "end_turn", stop_hook_active: false });
		const answer = await handleHook(stopInput, late);

		expect(readings).toBe(3);
		expect(answer.output).toMatchObject({ decision: "block" });
	});

	it("reads a failed model call as an API error and a full context as an overflow; tool errors are the agent's own", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		await send("errorOccurred", { error: "read ECONNRESET", errorContext: "tool_execution", recoverable: false });
		await send("errorOccurred", { error: "429 rate limited", errorContext: "model_call", recoverable: true });
		await send("errorOccurred", { error: "500 upstream failed", errorContext: "model_call", recoverable: false });
		await send("errorOccurred", {
			error: "prompt is too long: 210000 tokens > 200000 maximum",
			errorContext: "model_call",
			recoverable: false,
		});
		const reasons = (await store.readDecisions()).map((line) => line.reason);
		expect(reasons.filter((reason) => reason === "api-error")).toHaveLength(1);
		expect(reasons).toContain("context-overflow");
	});

	it("records compaction as no user turn", async () => {
		await send("userPromptSubmitted", { prompt: "Do it." });
		await send("preCompact", { trigger: "auto", transcriptPath: LOG });
		const reasons = (await store.readDecisions()).map((line) => line.reason);
		expect(reasons).toEqual(["user-turn", "compaction"]);
	});

	it("tells a resumed session where its list stands as sessionStart's additionalContext, and a new one nothing", async () => {
		await send("userPromptSubmitted", { prompt: "Work the list." });
		todos = items(["completed", "pending", "pending"]);
		await stop();
		const before = (await store.readDecisions()).length;
		expect((await send("sessionStart", { source: "new", initialPrompt: "Hi" })).output).toBeNull();
		const resumed = await send("sessionStart", { source: "resume", initialPrompt: "Where were we?" });
		expect(resumed.output).toEqual({
			additionalContext: expect.stringMatching(/was resumed[\s\S]*1 of 3 done[\s\S]*- Item 2\n- Item 3/),
		});
		const after = (await store.readDecisions()).slice(before).map((line) => `${line.kind}:${line.reason}`);
		expect(after).toEqual(["event:resume-context"]);
	});

	it("says nothing to a resumed subagent", async () => {
		await send("userPromptSubmitted", { prompt: "Work the list." });
		todos = items(["pending", "pending"]);
		await stop();
		const answer = await send("sessionStart", { source: "resume", agentId: "agent-1", parentAgentId: SESSION });
		expect(answer.output).toBeNull();
	});
});
