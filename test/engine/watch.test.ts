/**
 * The watcher at the deadline (`engine/watch-ops.ts`) over the real file
 * store: a parent left waiting on a background subagent is woken once that
 * subagent runs past its limit, and only if nothing happened since.
 */
import { describe, expect, it } from "vitest";
import type { Todo } from "../../src/core/todos.js";
import { AT_DEADLINE, type NamedTask } from "../../src/core/watchdog.js";
import type { Engine } from "../../src/engine/engine.js";
import { watchBackground } from "../../src/engine/watch-ops.js";
import { clock, fileEngine, main, tempWorktree, tick } from "./helpers.js";

const LIMIT_MS = 60_000;
const CONFIG = { watchdog: { limitMs: LIMIT_MS } };

const LIST: Todo[] = [
	{ content: "Parse the input", status: "in_progress" },
	{ content: "Release", status: "pending" },
];

/** A user turn that made a list and delegated into the background, then its end: the parent waits. */
async function waitingParent(engine: Engine, tasks: NamedTask[] = [{ id: "a1", agent: "general-purpose" }]) {
	await engine.turnStarted(main, "user");
	await engine.todosChanged(main, LIST);
	tick(5_000);
	return engine.turnEndedAndIdle(
		main,
		{ outcome: "end" },
		{ backgroundTasks: tasks.length, named: tasks },
		{ deliverNow: true },
	);
}

/** Sleeps by moving the clock, running `at(ms since the watcher started)` hooks on the way. */
function sleeper(events: Record<number, () => Promise<void>> = {}) {
	const start = clock.now();
	const slept: number[] = [];
	return {
		slept,
		async sleep(ms: number) {
			slept.push(ms);
			const from = clock.now() - start;
			tick(ms);
			for (const [at, event] of Object.entries(events)) {
				if (Number(at) > from && Number(at) <= clock.now() - start) await event();
			}
		},
	};
}

const TIMING = { pollMs: 1_000, settleMs: 5_000, lifetimeMs: 4 * 60 * 60_000 };

describe("the watcher at the deadline", () => {
	it("wakes the waiting parent when its subagent runs past the limit, with the nudge naming it", async () => {
		const worktree = await tempWorktree();
		const { engine, store } = fileEngine(worktree, CONFIG);
		const waiting = await waitingParent(engine);
		expect(waiting).toMatchObject({ kind: "skip", reason: "background-busy" });
		const { sleep, slept } = sleeper();

		const wake = await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING });

		expect(wake).toContain("a1 (general-purpose)");
		expect(wake).toContain("Release");
		// It slept in steps no longer than the poll, until the deadline (the subagent was first seen at the end of the turn).
		expect(Math.max(...slept)).toBeLessThanOrEqual(TIMING.pollMs);
		const log = await store.readDecisions();
		const last = log[log.length - 1];
		expect(last).toMatchObject({ kind: "inject", reason: "continue" });
		expect(last?.detail).toMatch(/not waiting for a1 \(general-purpose\) has run 60 s, past its limit of 60 s/);
		expect(last?.detail).toContain(AT_DEADLINE);
		// The wake is the delivery: the continuation turn has begun, and a second watcher finds nothing to do.
		expect(await watchBackground(engine, main, ["a1"], { clock, ...sleeper(), ...TIMING })).toBeNull();
		expect(await store.readDecisions()).toHaveLength(log.length);
	});

	it("ends without a wake when the user writes before the deadline", async () => {
		const worktree = await tempWorktree();
		const { engine, store } = fileEngine(worktree, CONFIG);
		await waitingParent(engine);
		const { sleep, slept } = sleeper({ 20000: () => engine.turnStarted(main, "user") });

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();

		// It noticed within a poll, long before the deadline, and decided nothing.
		expect(slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(21_000);
		const log = await store.readDecisions();
		expect(log.filter((record) => record.kind === "inject")).toEqual([]);
	});

	it("ends when the subagent finished and the turn after it decided otherwise", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await waitingParent(engine);
		// The subagent's end woke the parent; its next turn ended with nothing running.
		const { sleep } = sleeper({
			10000: async () => {
				await engine.turnEndedAndIdle(main, { outcome: "end" }, { backgroundTasks: 0, named: [] });
			},
		});

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();
	});

	it("ends within a poll when the subagent it watches has ended, before the parent's next turn", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await waitingParent(engine);
		const { sleep, slept } = sleeper({ 10000: () => engine.backgroundTaskEnded(main, "a1") });

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();
		expect(slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(11_000);
	});

	it("keeps watching through a later wait on the same subagent, and wakes at its deadline", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await waitingParent(engine);
		// Another turn ended while the subagent still ran (a second background task finished, say).
		const { sleep } = sleeper({
			10000: async () => {
				await engine.turnStarted(main, "system");
				await engine.turnEndedAndIdle(
					main,
					{ outcome: "end" },
					{ backgroundTasks: 1, named: [{ id: "a1", agent: "general-purpose" }] },
				);
			},
		});

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toContain("a1");
	});

	it("does not wake for a subagent still within its limit while an overdue one is named", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, { watchdog: { limitMs: LIMIT_MS, perAgent: { explore: 120_000 } } });
		await waitingParent(engine, [
			{ id: "a1", agent: "general-purpose" },
			{ id: "a2", agent: "explore" },
		]);
		const { sleep } = sleeper();

		const wake = await watchBackground(engine, main, ["a1", "a2"], { clock, sleep, ...TIMING });

		// At a1's deadline a2 still runs within its limit: the parent waits on; at a2's, both are overdue.
		expect(wake).toContain("a2 (explore)");
		expect(wake).toContain("a1 (general-purpose)");
	});

	it("lets two watchers of one wait wake the parent once", async () => {
		const worktree = await tempWorktree();
		const first = fileEngine(worktree, CONFIG);
		await waitingParent(first.engine);
		const second = fileEngine(worktree, CONFIG);
		const options = { clock, sleep: async (ms: number) => tick(ms / 2), ...TIMING };

		const wakes = await Promise.all([
			watchBackground(first.engine, main, ["a1"], options),
			watchBackground(second.engine, main, ["a1"], options),
		]);

		expect(wakes.filter((wake) => wake !== null)).toHaveLength(1);
		const injects = (await first.store.readDecisions()).filter((record) => record.kind === "inject");
		expect(injects).toHaveLength(1);
	});

	it("ends at once when the turn's own hook decided not to wait (the list is done)", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await engine.turnStarted(main, "user");
		await engine.todosChanged(
			main,
			LIST.map((todo) => ({ ...todo, status: "completed" as const })),
		);
		const done = await engine.turnEndedAndIdle(
			main,
			{ outcome: "end" },
			{ backgroundTasks: 1, named: [{ id: "a1", agent: null }] },
		);
		expect(done.kind).toBe("complete");
		const { sleep, slept } = sleeper();

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();
		expect(slept).toEqual([]);
	});

	it("gives up when no wait appears once the turn's own hook has had time to decide", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, LIST);
		const { sleep, slept } = sleeper();

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();
		expect(slept.reduce((sum, ms) => sum + ms, 0)).toBe(TIMING.settleMs);
	});

	it("waits for the wait the turn's own hook writes a moment after the watcher starts", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, LIST);
		const { sleep } = sleeper({
			2000: async () => {
				await engine.turnEndedAndIdle(
					main,
					{ outcome: "end" },
					{ backgroundTasks: 1, named: [{ id: "a1", agent: null }] },
				);
			},
		});

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toContain("a1");
	});

	it("leaves a deadline beyond its own life to the next end of a turn", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await waitingParent(engine);
		const { sleep, slept } = sleeper();

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING, lifetimeMs: 30_000 })).toBeNull();
		expect(slept).toEqual([]);
	});

	it("does not watch a task it was not asked to (a background shell)", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree, CONFIG);
		await waitingParent(engine, [{ id: "b1", agent: null }]);
		const { sleep } = sleeper();

		expect(await watchBackground(engine, main, ["a1"], { clock, sleep, ...TIMING })).toBeNull();
	});
});
