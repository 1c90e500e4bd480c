/** The simulator's pure parts: what counts as progress in a list write, and what the harness does to a turn. */
import { describe, expect, it } from "vitest";
import { type Item, makeItems, type TurnPlan } from "../../bench/policy/agent.js";
import { applyFaults } from "../../bench/policy/harness-faults.js";
import { mergeList } from "../../bench/policy/list-merge.js";
import { Rng } from "../../bench/policy/prng.js";
import { defaultHarness } from "../../bench/policy/profile.js";

function items(): Item[] {
	const list = makeItems(3, new Rng(1));
	const [first, second] = list;
	if (first) first.done = true;
	if (second) second.outside = true;
	return list;
}

const todo = (item: Item, status: Item["status"], content = item.content) => ({ id: item.id, content, status });

describe("list writes", () => {
	it("count ticking work that is really done, and parking a real blocker, as progress", () => {
		const [done, outside, open] = items();
		if (!done || !outside || !open) throw new Error("three items");
		expect(
			mergeList(items(), [todo(done, "completed"), todo(outside, "pending"), todo(open, "pending")]).progress,
		).toBe(true);
		expect(mergeList(items(), [todo(done, "pending"), todo(outside, "blocked"), todo(open, "pending")]).progress).toBe(
			true,
		);
	});

	it("do not count ticking undone work, reordering, rewording or adding as progress", () => {
		const [done, outside, open] = items();
		if (!done || !outside || !open) throw new Error("three items");
		const churn = [
			todo(open, "completed"),
			todo(outside, "in_progress", "reworded"),
			todo(done, "in_progress"),
			{ id: "new", content: "a follow-up", status: "pending" as const },
		];
		const merged = mergeList(items(), churn);
		expect(merged.progress).toBe(false);
		expect(merged.items.map((item) => item.id)).toEqual([open.id, outside.id, done.id, "new"]);
		expect(merged.items[0]?.done).toBe(false);
	});
});

describe("harness faults", () => {
	const plan: TurnPlan = {
		steps: [
			{ at: 1_000, kind: "assistant" },
			{ at: 20_000, kind: "activity", tool: "edit" },
			{ at: 40_000, kind: "work", id: "t1" },
		],
		durationMs: 45_000,
		text: "done",
		asks: false,
	};
	const base = { plan, context: 20_000, turnIndex: 1, now: 0, hugeUsed: false, rng: new Rng(3) };

	it("leaves a turn alone on a healthy harness", () => {
		expect(applyFaults({ ...base, harness: defaultHarness(new Rng(1)) })).toMatchObject({
			outcome: "end",
			durationMs: 45_000,
		});
	});

	it("fails a turn at once when the context is already over the limit", () => {
		const faulted = applyFaults({ ...base, context: 250_000, harness: defaultHarness(new Rng(1)) });
		expect(faulted.outcome).toBe("context-overflow");
		expect(faulted.steps).toEqual([]);
	});

	it("overflows on the huge output's tool call, and fails every turn in an outage", () => {
		const harness = { ...defaultHarness(new Rng(1)), hugeOutput: { turn: 1, tokens: 100_000 } };
		const huge = applyFaults({ ...base, harness });
		expect(huge.outcome).toBe("context-overflow");
		expect(huge.hugeStep).toEqual(plan.steps[1]);
		expect(huge.steps).toHaveLength(2);
		const outage = { ...defaultHarness(new Rng(1)), outage: { start: 0, length: 60_000 } };
		expect(applyFaults({ ...base, harness: outage, now: 30_000 }).outcome).toBe("error");
		expect(applyFaults({ ...base, harness: outage, now: 90_000 }).outcome).toBe("end");
	});
});
