/**
 * The failures earlier continuation tools documented, pinned as regressions:
 * each test plays the situation that went wrong for them.
 */
import { describe, expect, it } from "vitest";
import { emptyContinuationState, onDelivered, onTurnEnd, onTurnStart } from "../../src/core/turns.js";
import { afterTurn, completeOne, config, idle, playSession, T0, view } from "./builders.js";

function flipFirstOpen(spec: string): string {
	const index = [...spec].findIndex((char) => char === "." || char === ">");
	if (index < 0) return spec;
	const flipped = spec[index] === "." ? ">" : ".";
	return `${spec.slice(0, index)}${flipped}${spec.slice(index + 1)}`;
}

describe("regressions from earlier tools", () => {
	it("does not count status churn as progress (an agent toggling pending/in_progress is stopped)", () => {
		const { decisions } = playSession({ start: "x...", agent: (_, spec) => ({ spec: flipFirstOpen(spec) }) });
		expect(decisions.filter((decision) => decision.kind === "inject")).toHaveLength(3);
		expect(decisions.at(-1)?.reason).toBe("stagnation");
	});

	it("does not loop on status-only edits that reorder or reword the list", () => {
		const { decisions } = playSession({
			start: "x...",
			agent: (turn, spec) => ({ spec: turn % 2 === 0 ? flipFirstOpen(spec) : [...spec].reverse().join("") }),
		});
		expect(decisions.at(-1)?.reason).toBe("stagnation");
		expect(decisions.length).toBeLessThanOrEqual(4);
	});

	it("does not let a newly added item and a status flip pass for progress", () => {
		const { decisions } = playSession({ start: "x..", agent: (_, spec) => ({ spec: `${flipFirstOpen(spec)}.` }) });
		expect(decisions.at(-1)?.reason).toBe("stagnation");
	});

	it("counts a completed item as progress even when the agent also adds new work", () => {
		const { decisions, final } = playSession({
			start: "x...",
			agent: (turn, spec) => ({ spec: turn < 3 ? `${completeOne(spec)}.` : completeOne(spec) }),
		});
		expect(decisions.at(-1)?.kind).toBe("complete");
		expect(final).not.toContain(".");
	});

	it("does not treat a restart kick as a real user turn (the episode and its budget go on)", () => {
		const first = idle(afterTurn(), view("x.."));
		let state = onTurnEnd(onDelivered(first.next, first.key ?? "", T0 + 3000), { outcome: "end" }, T0 + 4000);
		const episodeBefore = state.episode;
		state = onTurnEnd(onTurnStart(state, "restart", T0 + 5000), { outcome: "end" }, T0 + 6000);
		expect(state.episode).toEqual(episodeBefore);
	});

	it("does not treat a subagent-completion reminder (a system turn) as a real user turn", () => {
		let state = afterTurn("user", { outcome: "aborted" });
		state = onTurnEnd(onTurnStart(state, "system", T0 + 5000), { outcome: "end" }, T0 + 6000);
		expect(idle(state, view("x..")).reason).toBe("user-aborted");
	});

	it("measures the token budget in real spend, not in context size", () => {
		// Nothing earned per item here, so the budget is a fixed 30 000 real tokens.
		const budget = config({ budgets: { tokens: 30_000, perItem: { tokens: 0 } } });
		// A user turn on a 150k-token context: cache reads are context, not spend, and the user's turn is not ours.
		const userTurn = onTurnEnd(
			onTurnStart(emptyContinuationState(), "user", T0),
			{ outcome: "end", spend: { input: 1_500, output: 800, cacheWrite: 0 } },
			T0 + 1000,
		);
		expect(idle(userTurn, view("x...."), { config: budget }).kind).toBe("inject");
		const { decisions } = playSession({
			start: "x.........",
			config: budget,
			agent: (_, spec) => ({
				spec: completeOne(spec),
				end: { outcome: "end", spend: { input: 4_000, output: 1_000, cacheWrite: 1_000 } },
			}),
		});
		// 6 000 real tokens per continued turn: the fifth nudge's turn crosses 30 000.
		expect(decisions.filter((decision) => decision.kind === "inject")).toHaveLength(5);
		expect(decisions.at(-1)?.reason).toBe("budget-tokens");
	});

	it("never completes, and never nudges, a plan whose remaining items are all blocked", () => {
		for (const spec of ["~~~", "xx~", "x-~"]) {
			const decision = idle(afterTurn(), { ...view(spec), source: "plan", name: "migration" });
			expect(decision.kind).toBe("skip");
			expect(decision.reason).toBe("no-open-work");
		}
	});

	it("reports completion once, not on every idle after the work is done (an explicit done signal)", () => {
		const done = view("xxx");
		const first = idle(afterTurn(), done);
		expect(first.kind).toBe("complete");
		const later = afterTurn("user", { outcome: "end" }, first.next);
		expect(idle(later, done).kind).toBe("skip");
	});

	it("does not keep nudging after the user aborted, even once the abort window of earlier tools has passed", () => {
		const state = afterTurn("user", { outcome: "aborted" });
		expect(idle(state, view("x.."), { now: T0 + 24 * 3_600_000 }).reason).toBe("user-aborted");
	});

	it("carries a lazy agent that ends its turn after each item to the end", () => {
		const { decisions, final } = playSession({ start: "....", agent: (_, spec) => ({ spec: completeOne(spec) }) });
		expect(final).toBe("xxxx");
		expect(decisions.filter((decision) => decision.kind === "inject")).toHaveLength(4);
		expect(decisions.at(-1)?.kind).toBe("complete");
	});
});
