import { describe, expect, it } from "vitest";
import {
	backoffDelay,
	ContinuationState,
	emptyContinuationState,
	onActivity,
	onDelivered,
	onDeliveryFailed,
	onRestart,
	onTurnEnd,
	onTurnStart,
	onUserAbort,
	spendTotal,
} from "../../src/core/turns.js";
import { afterTurn, idle, T0, view } from "./builders.js";

describe("turn bookkeeping", () => {
	it("numbers turns and never reuses a number", () => {
		let state = emptyContinuationState();
		state = onTurnStart(state, "user", T0);
		state = onTurnEnd(state, { outcome: "end" }, T0 + 1);
		state = onTurnStart(state, "system", T0 + 2);
		expect(state.turn?.seq).toBe(2);
		expect(state.seq).toBe(2);
	});

	it("counts real spend only: input + output + cache writes", () => {
		expect(spendTotal({ input: 10, output: 20, cacheWrite: 30 })).toBe(60);
		const state = onTurnEnd(
			onTurnStart(emptyContinuationState(), "user", T0),
			{
				outcome: "end",
				spend: { input: 10, output: 20, cacheWrite: 30 },
			},
			T0 + 1,
		);
		expect(state.turn?.tokens).toBe(60);
	});

	it("adds the spend of continued turns to the episode, not the user's own turns", () => {
		const nudge = idle(afterTurn(), view("x.."));
		let state = onDelivered(nudge.next, nudge.key ?? "", T0 + 3000);
		state = onTurnEnd(state, { outcome: "end", spend: { input: 100, output: 50, cacheWrite: 0 } }, T0 + 4000);
		expect(state.episode?.tokens).toBe(150);
		state = onTurnEnd(
			onTurnStart(state, "user", T0 + 5000),
			{ outcome: "end", spend: { input: 999, output: 1, cacheWrite: 0 } },
			T0 + 6000,
		);
		expect(state.episode).toBeNull();
	});

	it("ignores a second report of the same turn's end (same harness marker)", () => {
		const ended = onTurnEnd(
			onTurnStart(emptyContinuationState(), "user", T0),
			{ outcome: "end", marker: "m1" },
			T0 + 1,
		);
		const next = onTurnStart(ended, "continuation", T0 + 2);
		expect(onTurnEnd(next, { outcome: "end", marker: "m1" }, T0 + 3)).toBe(next);
		expect(onTurnEnd(next, { outcome: "end", marker: "m2" }, T0 + 3).turn?.outcome).toBe("end");
	});

	it("records a turn end without a seen start as a system turn, never as the user's", () => {
		const state = onTurnEnd(emptyContinuationState(), { outcome: "end" }, T0);
		expect(state.turn?.provenance).toBe("system");
		expect(state.turn?.outcome).toBe("end");
	});

	it("arms the durable abort block on an aborted turn and lifts it only on a real user turn", () => {
		let state = afterTurn("user", { outcome: "aborted" });
		expect(state.abortBlock).not.toBeNull();
		for (const provenance of ["continuation", "system", "restart"] as const) {
			state = onTurnEnd(onTurnStart(state, provenance, T0), { outcome: "end" }, T0 + 1);
			expect(state.abortBlock).not.toBeNull();
		}
		state = onTurnStart(state, "user", T0 + 2);
		expect(state.abortBlock).toBeNull();
	});

	it("does not take the abort a restart causes for the user's (one shot)", () => {
		let state = onRestart(afterTurn());
		state = onUserAbort(state, "abort", T0 + 1);
		expect(state.abortBlock).toBeNull();
		state = onUserAbort(state, "abort", T0 + 2);
		expect(state.abortBlock).not.toBeNull();
	});

	it("starts the continuation turn when the nudge is delivered, once", () => {
		const nudge = idle(afterTurn(), view("x.."));
		const delivered = onDelivered(nudge.next, nudge.key ?? "", T0 + 3000);
		expect(delivered.turn?.provenance).toBe("continuation");
		expect(delivered.turn?.nudgeKey).toBe(nudge.key);
		expect(onDelivered(delivered, nudge.key ?? "", T0 + 3001)).toBe(delivered);
	});

	it("ignores a delivery report for a key it did not issue", () => {
		const nudge = idle(afterTurn(), view("x.."));
		expect(onDelivered(nudge.next, "someone-else#9.0", T0)).toBe(nudge.next);
		expect(onDeliveryFailed(nudge.next, "someone-else#9.0", T0)).toBe(nudge.next);
	});

	it("counts consecutive failures of one kind for the backoff", () => {
		let state = afterTurn("user", { outcome: "error" });
		state = afterTurn("system", { outcome: "error" }, state);
		expect(state.failures).toMatchObject({ count: 2, kind: "api" });
		state = afterTurn("system", { outcome: "end" }, state);
		expect(state.failures).toBeNull();
	});

	it("doubles the backoff per failure and caps it", () => {
		expect([1, 2, 3, 4].map((n) => backoffDelay(n, 5000, 300_000))).toEqual([5000, 10_000, 20_000, 40_000]);
		expect(backoffDelay(50, 5000, 300_000)).toBe(300_000);
		expect(backoffDelay(0, 5000, 300_000)).toBe(0);
	});

	it("adds activity only to a running turn", () => {
		const running = onTurnStart(emptyContinuationState(), "user", T0);
		expect(onActivity(running, 2).turn?.activity).toBe(2);
		const ended = onTurnEnd(running, { outcome: "end" }, T0 + 1);
		expect(onActivity(ended, 2)).toBe(ended);
	});

	it("round-trips through its schema and rejects a broken state", () => {
		const state = idle(afterTurn(), view("x..")).next;
		expect(ContinuationState.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
		expect(ContinuationState.safeParse({ ...state, seq: -1 }).success).toBe(false);
		expect(ContinuationState.safeParse({ ...state, episode: { id: "e1" } }).success).toBe(false);
	});
});
