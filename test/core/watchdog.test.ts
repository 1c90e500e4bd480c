import { describe, expect, it } from "vitest";
import type { BackgroundTask } from "../../src/core/turns.js";
import { backgroundWait, limitFor, nextDeadline, overdueTasks, timedFromFirstSight } from "../../src/core/watchdog.js";
import { afterTurn, config, idle, T0, view } from "./builders.js";

const open = view("x..");
const MIN = 60_000;
const watchdog = config({ watchdog: { limitMs: 10 * MIN, perAgent: { Explore: 2 * MIN } } });
const child = { id: "ses_child", agent: "general", startedAt: T0 - 5 * MIN };

describe("the watchdog on subagents and background tasks", () => {
	it("waits for a task within its limit, and asks to decide again when it would run past it", () => {
		const decision = idle(afterTurn(), open, {
			config: watchdog,
			facts: { backgroundTasks: 1, background: [child] },
		});
		expect(decision.reason).toBe("background-busy");
		expect(decision.retryAt).toBe(child.startedAt + 10 * MIN);
		expect(decision.detail).toContain("or run past their time limit");
	});

	it("no longer waits for one past its limit: the nudge names it and its age, and asks to treat it as failed or check on it", () => {
		const decision = idle(afterTurn(), open, {
			config: watchdog,
			facts: { backgroundTasks: 1, background: [child] },
			now: T0 + 6 * MIN,
		});
		expect(decision.kind).toBe("inject");
		expect(decision.detail).toContain("not waiting for ses_child (general) has run 11 min, past its limit of 10 min");
		expect(decision.text).toContain("- ses_child (general): running for 11 min (limit 10 min)");
		expect(decision.text).toContain("Treat it as failed, or check on it");
		expect(decision.kind === "inject" && decision.abort).toBeUndefined();
	});

	it("still waits for the others while one is overdue, naming the one it no longer waits for", () => {
		const fresh = { id: "ses_new", agent: null, startedAt: T0 };
		const decision = idle(afterTurn(), open, {
			config: watchdog,
			facts: { backgroundTasks: 2, background: [child, fresh] },
			now: T0 + 6 * MIN,
		});
		expect(decision.reason).toBe("background-busy");
		expect(decision.detail).toMatch(/^1 background task\(s\) still running \(not waiting for ses_child/);
		expect(decision.retryAt).toBe(T0 + 10 * MIN);
	});

	it("has the adapter abort it when configured and the harness can, and says so", () => {
		const aborting = config({ watchdog: { limitMs: 10 * MIN, abort: true } });
		const facts = { backgroundTasks: 1, background: [child], canAbortChildren: true };
		const decision = idle(afterTurn(), open, { config: aborting, facts, now: T0 + 6 * MIN });
		expect(decision.kind === "inject" && decision.abort).toEqual(["ses_child"]);
		expect(decision.text).toContain("boulder aborted it");
		expect(decision.detail).toContain("aborted ses_child");
		const cannot = idle(afterTurn(), open, {
			config: aborting,
			facts: { ...facts, canAbortChildren: false },
			now: T0 + 6 * MIN,
		});
		expect(cannot.kind === "inject" && cannot.abort).toBeUndefined();
	});

	it("reads per-agent limits case-insensitively, and knows when the next task runs out", () => {
		const limits = watchdog.watchdog;
		expect(limitFor("explore", limits)).toBe(2 * MIN);
		expect(limitFor(null, limits)).toBe(10 * MIN);
		const explore = { id: "e", agent: "explore", startedAt: T0 };
		expect(overdueTasks([explore], limits, T0 + 2 * MIN).map((entry) => entry.task.id)).toEqual(["e"]);
		expect(nextDeadline([explore, child], limits, T0)).toBe(T0 + 2 * MIN);
		expect(nextDeadline([explore], limits, T0 + 3 * MIN)).toBeNull();
	});

	it("waits as before for tasks it knows only by count", () => {
		const decision = idle(afterTurn(), open, { config: watchdog, facts: { backgroundTasks: 1 }, now: T0 + 600 * MIN });
		expect(decision.reason).toBe("background-busy");
		expect(decision.retryAt).toBeNull();
	});

	it("times tasks the harness names without a start from when they were first seen, and forgets those no longer listed", () => {
		const known = [
			{ id: "a1", agent: "Explore", startedAt: T0 - 5 * MIN },
			{ id: "gone", agent: null, startedAt: T0 - MIN },
		];
		const named = [
			{ id: "a1", agent: "Explore" },
			{ id: "b7", agent: null },
		];
		expect(timedFromFirstSight(named, known, T0)).toEqual([
			{ id: "a1", agent: "Explore", startedAt: T0 - 5 * MIN },
			{ id: "b7", agent: null, startedAt: T0 },
		]);
		expect(timedFromFirstSight([], known, T0)).toEqual([]);
	});
});

describe("what a watcher at the deadline waits on", () => {
	/** The state after an idle that let the session wait on `background` (and what that idle decided). */
	function waitedOn(background: BackgroundTask[] = [child], tasks = background.length) {
		const decision = idle(afterTurn(), open, { config: watchdog, facts: { backgroundTasks: tasks, background } });
		const next = { ...decision.next, observed: { ...decision.next.observed, background } };
		return { decision, state: next };
	}

	it("is the first deadline among the watched tasks, named by the time of the decision that let it wait", () => {
		const explore = { id: "ses_explore", agent: "explore", startedAt: T0 - MIN };
		const { state } = waitedOn([child, explore]);

		expect(backgroundWait(state, ["ses_child", "ses_explore"], watchdog.watchdog)).toEqual({
			kind: "waiting",
			since: state.lastDecision?.at,
			deadline: explore.startedAt + 2 * MIN,
		});
		expect(backgroundWait(state, ["ses_child"], watchdog.watchdog)).toMatchObject({
			deadline: child.startedAt + 10 * MIN,
		});
	});

	it("is no wait when the last decision did not let it wait, a turn runs, or no watched task is left to run past its limit", () => {
		const { state } = waitedOn();
		const running = { ...state, turn: state.turn ? { ...state.turn, outcome: null } : null };
		const decided = {
			...state,
			lastDecision: state.lastDecision ? { ...state.lastDecision, reason: "continue" } : null,
		};
		const newer = { ...state, turn: state.turn ? { ...state.turn, seq: state.turn.seq + 1 } : null };

		const at = state.lastDecision?.at;

		expect(backgroundWait(state, ["ses_child"], watchdog.watchdog).kind).toBe("waiting");
		expect(backgroundWait(running, ["ses_child"], watchdog.watchdog)).toEqual({ kind: "running" });
		expect(backgroundWait(newer, ["ses_child"], watchdog.watchdog)).toEqual({ kind: "running" });
		expect(backgroundWait(decided, ["ses_child"], watchdog.watchdog)).toEqual({ kind: "decided", at });
		expect(backgroundWait(state, ["ses_other"], watchdog.watchdog)).toEqual({ kind: "decided", at });
		// Overdue already when the session was let wait (on something else): no deadline of its own is left.
		const late = { ...child, startedAt: T0 - 20 * MIN };
		const shell = { id: "b1", agent: null, startedAt: T0 };
		expect(backgroundWait(waitedOn([late, shell]).state, ["ses_child"], watchdog.watchdog).kind).toBe("decided");
	});
});
