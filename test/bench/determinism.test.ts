import { describe, expect, it } from "vitest";
import { CONTESTANTS } from "../../bench/policy/policies/index.js";
import { produce } from "../../bench/policy/produce.js";
import { PROFILES, profileByName } from "../../bench/policy/profiles/index.js";
import { runBench } from "../../bench/policy/run.js";
import { scenarioOf, simulate } from "../../bench/policy/world.js";

const boulder = CONTESTANTS[0];
if (boulder?.name !== "boulder") throw new Error("boulder comes first");

describe("simulator determinism", () => {
	it("plays every profile the same way twice for the same seed", () => {
		for (const profile of PROFILES) {
			const first = simulate({ profile, seed: 5, makePolicy: boulder.make });
			const second = simulate({ profile, seed: 5, makePolicy: boulder.make });
			expect(second).toEqual(first);
		}
	});

	it("plays a profile differently for different seeds", () => {
		const profile = profileByName("long-plan");
		const runs = [1, 2, 3, 4].map((seed) => simulate({ profile, seed, makePolicy: boulder.make }));
		expect(new Set(runs.map((run) => JSON.stringify({ ...run, seed: 0 }))).size).toBe(4);
		expect(new Set(runs.map((run) => run.nudgeTokens)).size).toBeGreaterThan(1);
	});

	it("gives every policy the same scenario for a seed (the policy draws nothing from it)", () => {
		const profile = profileByName("diligent");
		const turns = CONTESTANTS.map(
			(contestant) => simulate({ profile, seed: 8, makePolicy: contestant.make }).turnsToFinish,
		);
		expect(new Set(turns)).toEqual(new Set([1]));
		expect(scenarioOf(profile, 8).params).toEqual(scenarioOf(profile, 8).params);
		expect(scenarioOf(profile, 8).params).not.toEqual(scenarioOf(profile, 9).params);
	});

	it("writes byte-identical reports for the same seeds, and different ones for other seeds", () => {
		// One seed each: the full report is `npm run bench:policy`.
		const a = produce(1, 1);
		const b = produce(1, 1);
		expect(b.markdown).toBe(a.markdown);
		expect(b.svg).toBe(a.svg);
		expect(b.table).toBe(a.table);
		const c = produce(4, 1);
		expect(c.markdown).not.toBe(a.markdown);
	});

	it("runs every contestant on every profile for every seed", () => {
		const results = runBench({ baseSeed: 1, seedCount: 2 });
		expect(results).toHaveLength(CONTESTANTS.length * PROFILES.length * 2);
	});
});
