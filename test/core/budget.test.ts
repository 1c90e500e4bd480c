import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowanceOf } from "../../src/core/budget.js";
import { completeOne, config, playSession } from "./builders.js";

const SPEND = { input: 60_000, output: 4_000, cacheWrite: 20_000 };

describe("budgets that follow the work", () => {
	it("carries a steady worker through a 120-item list under the default config", () => {
		const { decisions, final } = playSession({
			start: ".".repeat(120),
			maxIdles: 500,
			agent: (_, spec) => ({ spec: completeOne(spec), end: { outcome: "end", spend: SPEND } }),
		});
		expect(final).toBe("x".repeat(120));
		expect(decisions.filter((decision) => decision.kind === "inject")).toHaveLength(120);
		expect(decisions.at(-1)?.kind).toBe("complete");
	});

	it("carries a steady worker whose turns cost 300 k real tokens each (no cache reads) through 100 items", () => {
		const { final } = playSession({
			start: ".".repeat(100),
			maxIdles: 500,
			agent: (_, spec) => ({
				spec: completeOne(spec),
				end: { outcome: "end", spend: { input: 280_000, output: 10_000, cacheWrite: 10_000 } },
			}),
		});
		expect(final).toBe("x".repeat(100));
	});

	it("still stops the same worker at the ceiling the user set", () => {
		const ceiling = config({ budgets: { ceiling: { autoTurns: 30 } } });
		const { decisions, final } = playSession({
			start: ".".repeat(100),
			config: ceiling,
			maxIdles: 500,
			agent: (_, spec) => ({ spec: completeOne(spec) }),
		});
		expect(decisions.filter((decision) => decision.kind === "inject")).toHaveLength(30);
		expect(decisions.at(-1)?.reason).toBe("budget-turns");
		expect(decisions.at(-1)?.detail).toContain("ceiling of 30 automatic turns");
		expect(final.split("").filter((char) => char === ".")).toHaveLength(70);
	});

	it("stops a worker that does nothing after three nudges, whatever it earned before", () => {
		const { decisions } = playSession({
			start: ".".repeat(50),
			maxIdles: 500,
			agent: (turn, spec) => ({ spec: turn < 20 ? completeOne(spec) : spec }),
		});
		const injects = decisions.filter((decision) => decision.kind === "inject");
		expect(injects).toHaveLength(23);
		expect(decisions.at(-1)?.reason).toBe("stagnation");
	});

	it("never allows more than the ceiling, and never less than the base, whatever was earned (property)", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 1000 }),
				fc.integer({ min: 0, max: 100 }),
				fc.option(fc.integer({ min: 1, max: 5000 })),
				fc.integer({ min: 0, max: 10_000 }),
				(base, perItem, ceiling, earned) => {
					const budgets = config({
						budgets: { autoTurns: base, perItem: { autoTurns: perItem }, ceiling: { autoTurns: ceiling } },
					}).budgets;
					const { limit, atCeiling } = allowanceOf(budgets, earned);
					expect(limit.autoTurns).toBe(Math.min(base + perItem * earned, ceiling ?? Number.POSITIVE_INFINITY));
					expect(atCeiling.autoTurns).toBe(ceiling !== null && ceiling <= base + perItem * earned);
				},
			),
		);
	});
});
