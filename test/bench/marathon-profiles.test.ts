/**
 * The long-session profiles (steady-100, steady-expensive, slow-burner): the
 * same scenario for the same seed, parameters in their ranges, and agents
 * that do what the profiles say, watched through the events a plugin sees
 * while the oracle drives them to the end.
 */
import { describe, expect, it } from "vitest";
import type { HarnessEvent, Policy, Spend, TurnSource } from "../../bench/policy/model.js";
import { boulderPolicy } from "../../bench/policy/policies/boulder.js";
import { oraclePolicy } from "../../bench/policy/policies/oracle.js";
import type { Profile } from "../../bench/policy/profile.js";
import { slowBurner, steady100, steadyExpensive } from "../../bench/policy/profiles/marathon.js";
import type { RunResult } from "../../bench/policy/run-result.js";
import { scenarioOf, simulate } from "../../bench/policy/world.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { SEEDS } from "./seeds.js";

const MARATHON = [steady100, steadyExpensive, slowBurner];

interface TurnSeen {
	source: TurnSource;
	/** Items shown completed when the turn ended, and when it started. */
	doneBefore: number;
	doneAfter: number;
	edits: number;
	commands: number;
	spend: Spend;
	context: number;
}

/** Plays `profile` under the oracle and returns the run with the main session's turns as a plugin saw them. */
function watch(profile: Profile, seed: number): { run: RunResult; turns: TurnSeen[] } {
	const turns: TurnSeen[] = [];
	let done = 0;
	let current: Omit<TurnSeen, "doneAfter" | "spend" | "context"> | null = null;
	const see = (event: HarnessEvent) => {
		if (!("session" in event) || event.session !== "main") return;
		if (event.type === "turn-start") current = { source: event.source, doneBefore: done, edits: 0, commands: 0 };
		if (event.type === "todos") done = event.todos.filter((todo) => todo.status === "completed").length;
		if (event.type === "activity" && current) current[event.tool === "edit" ? "edits" : "commands"]++;
		if (event.type === "turn-end" && current) {
			turns.push({ ...current, doneAfter: done, spend: event.spend, context: event.lastCallTokens });
			current = null;
		}
	};
	const run = simulate({
		profile,
		seed,
		makePolicy: (truth): Policy => {
			const oracle = oraclePolicy(truth);
			return {
				...oracle,
				observe(event) {
					see(event);
					return oracle.observe(event);
				},
			};
		},
	});
	return { run, turns };
}

const total = (spend: Spend) => spend.input + spend.output + spend.cacheWrite;

describe("the long-session profiles draw their scenario from the seed alone", () => {
	for (const profile of MARATHON) {
		it(`${profile.name}: the same run for the same seed, other parameters for other seeds`, () => {
			const make = () => boulderPolicy();
			expect(simulate({ profile, seed: 3, makePolicy: make })).toEqual(
				simulate({ profile, seed: 3, makePolicy: make }),
			);
			const { items, harness, user, params } = scenarioOf(profile, 3);
			expect(scenarioOf(profile, 3)).toMatchObject({ items, harness, user, params });
			const drawn = new Set(SEEDS.map((seed) => JSON.stringify(scenarioOf(profile, seed).params)));
			expect(drawn.size).toBeGreaterThan(SEEDS.length / 2);
		});
	}
});

describe("parameters stay in the profiles' ranges", () => {
	it("steady-100: 100 to 120 items, each one turn of work, on a cached provider", () => {
		for (const seed of SEEDS) {
			const { items, harness, params } = scenarioOf(steady100, seed);
			expect(items.length).toBeGreaterThanOrEqual(100);
			expect(items.length).toBeLessThanOrEqual(120);
			expect(params.items).toBe(items.length);
			expect(items.every((item) => item.effort === 1 && !item.outside)).toBe(true);
			expect(harness.promptCache).toBe(true);
		}
	});

	it("steady-expensive: 60 to 100 items, each one turn of work, on a provider without prompt-cache reads", () => {
		for (const seed of SEEDS) {
			const { items, harness, params } = scenarioOf(steadyExpensive, seed);
			expect(items.length).toBeGreaterThanOrEqual(60);
			expect(items.length).toBeLessThanOrEqual(100);
			expect(params.items).toBe(items.length);
			expect(items.every((item) => item.effort === 1 && !item.outside)).toBe(true);
			expect(harness.promptCache).toBe(false);
			expect(harness.contextStart).toBeGreaterThanOrEqual(40_000);
			expect(harness.contextStart).toBeLessThanOrEqual(120_000);
		}
	});

	it("slow-burner: 4 to 7 items, the first one turn of work, every later one 5 to 9", () => {
		for (const seed of SEEDS) {
			const { items, params } = scenarioOf(slowBurner, seed);
			expect(items.length).toBeGreaterThanOrEqual(4);
			expect(items.length).toBeLessThanOrEqual(7);
			const [first, ...rest] = items.map((item) => item.effort);
			expect(first).toBe(1);
			for (const effort of rest) {
				expect(effort).toBeGreaterThanOrEqual(5);
				expect(effort).toBeLessThanOrEqual(9);
			}
			expect(params.efforts).toBe(items.map((item) => item.effort).join(""));
		}
	});
});

describe("the steady worker", () => {
	it("ticks exactly one item per turn, whoever prompts it (the user, a nudge, the harness after compacting)", () => {
		const sources = new Set<TurnSource>();
		for (const seed of SEEDS.slice(0, 5)) {
			const { run, turns } = watch(steady100, seed);
			const items = scenarioOf(steady100, seed).items.length;
			expect(run.completed).toBe(true);
			expect(run.turnsToFinish).toBe(items);
			const working = turns.slice(0, items);
			expect(working.map((turn) => turn.doneAfter - turn.doneBefore)).toEqual(working.map(() => 1));
			for (const turn of working) sources.add(turn.source);
		}
		expect(sources).toEqual(new Set(["user", "nudge", "compaction"]));
	});

	it("bills hundreds of thousands of tokens in every working turn when the provider reads nothing from a cache", () => {
		for (const seed of SEEDS) {
			const { run, turns } = watch(steadyExpensive, seed);
			const items = scenarioOf(steadyExpensive, seed).items.length;
			expect(run.completed).toBe(true);
			const working = turns.slice(0, items);
			expect(working.map((turn) => turn.doneAfter - turn.doneBefore)).toEqual(working.map(() => 1));
			for (const turn of working) {
				expect(turn.spend.cacheWrite).toBe(0);
				expect(total(turn.spend)).toBeGreaterThanOrEqual(100_000);
				expect(total(turn.spend)).toBeLessThan(1_000_000);
			}
		}
	});

	it("grows the context the same with or without the prompt cache: the cache changes what a turn bills, nothing else", () => {
		const cached: Profile = {
			...steadyExpensive,
			setup(rng) {
				const scenario = steadyExpensive.setup(rng);
				scenario.harness.promptCache = true;
				return scenario;
			},
		};
		for (const seed of SEEDS.slice(0, 3)) {
			const billed = watch(steadyExpensive, seed).turns;
			const own = watch(cached, seed).turns;
			expect(own.map((turn) => turn.context)).toEqual(billed.map((turn) => turn.context));
			expect(own.map((turn) => turn.doneAfter)).toEqual(billed.map((turn) => turn.doneAfter));
			for (const [index, turn] of own.entries()) {
				expect(total(turn.spend)).toBeLessThan(20_000);
				expect(total(billed[index]?.spend ?? turn.spend)).toBeGreaterThan(total(turn.spend));
			}
		}
	});
});

describe("the slow burner", () => {
	it("ticks one item, then works 4 to 8 turns on the next (edits and test runs, nothing ticked) before ticking it", () => {
		for (const seed of SEEDS) {
			const { run, turns } = watch(slowBurner, seed);
			const efforts = scenarioOf(slowBurner, seed).items.map((item) => item.effort);
			expect(run.completed).toBe(true);
			expect(run.turnsToFinish).toBe(efforts.reduce((sum, effort) => sum + effort, 0));
			let turn = 0;
			for (const effort of efforts) {
				const stretch = turns.slice(turn, turn + effort - 1);
				expect(stretch.every((seen) => seen.doneAfter === seen.doneBefore)).toBe(true);
				expect(stretch.every((seen) => seen.edits > 0 && seen.commands > 0)).toBe(true);
				expect(turns[turn + effort - 1]?.doneAfter).toBe((turns[turn + effort - 1]?.doneBefore ?? 0) + 1);
				turn += effort;
			}
		}
	});

	it("counts a nudge into a stretch as work, not waste: the oracle finishes every run without a wasted nudge", () => {
		for (const seed of SEEDS) expect(watch(slowBurner, seed).run.wasted).toBe(0);
	});
});

describe("how boulder ends the long sessions it does not finish (and the gap in profiles.test.ts)", () => {
	const runs = (profile: Profile) =>
		SEEDS.map((seed) => simulate({ profile, seed, makePolicy: () => boulderPolicy() }));

	it("finishes a 100-item list one item per turn in every run", () => {
		expect(runs(steady100).filter((run) => !run.completed)).toEqual([]);
	});

	it("stops the slow burner on stagnation, in a stretch of work longer than its activity grace and stagnation limit allow", () => {
		const bound = DEFAULT_CONFIG.activityGrace + DEFAULT_CONFIG.stagnationLimit;
		const unfinished = runs(slowBurner).filter((run) => !run.completed);
		expect(unfinished.length).toBeGreaterThan(0);
		for (const run of unfinished) {
			expect(run.stoppedBy).toBe("stagnation");
			expect(run.nudges).toBeGreaterThanOrEqual(bound);
			expect(run.wasted).toBe(0);
		}
	});

	it("finishes a list of expensive turns on a provider without cache reads in every run, within the token ceiling", () => {
		const finished = runs(steadyExpensive);
		expect(finished.filter((run) => !run.completed)).toEqual([]);
		for (const run of finished) {
			expect(run.nudgeTokens).toBeLessThan(DEFAULT_CONFIG.budgets.ceiling.tokens ?? Number.POSITIVE_INFINITY);
		}
	});
});
