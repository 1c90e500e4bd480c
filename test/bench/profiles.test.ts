/**
 * Each profile's right outcome is reachable (the oracle reaches it in every
 * run), the measurements classify violations by ground truth, and boulder is
 * held to the targets. Where boulder misses a target today the test
 * is `it.fails`, naming the gap: it turns red the day the gap closes, so the
 * expectation gets promoted instead of forgotten.
 */
import { describe, expect, it } from "vitest";
import type { Policy } from "../../bench/policy/model.js";
import { CONTESTANTS } from "../../bench/policy/policies/index.js";
import { naivePolicy } from "../../bench/policy/policies/naive.js";
import { oraclePolicy } from "../../bench/policy/policies/oracle.js";
import { PROFILES, profileByName } from "../../bench/policy/profiles/index.js";
import { runBench } from "../../bench/policy/run.js";
import { type RunResult, type ViolationKind, violationTotal } from "../../bench/policy/run-result.js";
import { summarizeAll } from "../../bench/policy/summary.js";
import { simulate } from "../../bench/policy/world.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { SEEDS } from "./seeds.js";

function runs(profileName: string, make: Parameters<typeof simulate>[0]["makePolicy"]): RunResult[] {
	const profile = profileByName(profileName);
	return SEEDS.map((seed) => simulate({ profile, seed, makePolicy: make }));
}

const HARNESS_FAULTS = new Set(["flaky-api", "context-overflow"]);

const boulder = CONTESTANTS.find((contestant) => contestant.name === "boulder");
if (!boulder) throw new Error("boulder is a contestant");
const boulderRuns = (profile: string) => runs(profile, boulder.make);

describe("every profile's right outcome is reachable (oracle)", () => {
	for (const profile of PROFILES) {
		it(`${profile.name}: ${profile.expect.text}`, () => {
			const results = runs(profile.name, (truth) => oraclePolicy(truth));
			expect(results.filter((run) => !run.rightOutcome)).toEqual([]);
			expect(results.every((run) => violationTotal(run) === 0)).toBe(true);
			if (profile.expect.finish) expect(results.every((run) => run.completed)).toBe(true);
			if (profile.expect.stop === "stuck") expect(results.every((run) => run.nudges === 0)).toBe(true);
			// Only a harness that fails the nudged turn itself can make a well-timed nudge fruitless.
			if (!HARNESS_FAULTS.has(profile.name)) expect(results.map((run) => run.wasted)).toEqual(SEEDS.map(() => 0));
		});
	}
});

/** The same policy, deciding only when the harness says the session is idle: it never looks again on a timer. */
function withoutTimers(policy: Policy): Policy {
	return {
		...policy,
		decide(facts) {
			const answer = policy.decide(facts);
			return answer.kind === "skip" ? { kind: "skip", reason: answer.reason } : answer;
		},
	};
}

describe("violations are classified by what really happened", () => {
	const total = (profile: string, kind: ViolationKind) =>
		runs(profile, () => naivePolicy()).reduce((sum, run) => sum + run.violations[kind], 0);

	it("counts a nudge after the user's Esc", () => expect(total("interrupter", "after-abort")).toBeGreaterThan(0));
	it("does not count the abort a restart causes as the user's", () =>
		expect(total("restart-mid-work", "after-abort")).toBe(0));
	it("counts a nudge while a question waits", () =>
		expect(total("question-asker", "question-pending")).toBeGreaterThan(0));
	it("counts a nudge after the stop command", () => expect(total("user-stops", "after-stop")).toBeGreaterThan(0));
	it("counts nudges into subagents and during background work", () => {
		expect(total("background-tasks", "into-subagent")).toBeGreaterThan(0);
		expect(total("background-tasks", "background-busy")).toBeGreaterThan(0);
	});
	it("counts a second nudge for one idle", () => expect(total("duplicate-idles", "duplicate")).toBeGreaterThan(0));
	it("counts an orchestrator that, nudged with a plain continue, changes code itself", () =>
		expect(total("delegating-orchestrator", "orchestrator-edit")).toBeGreaterThan(0));
	it("does not count the orchestrator's edits when the nudge asks it to delegate", () => {
		const edits = runs("delegating-orchestrator", (truth) => oraclePolicy(truth));
		expect(edits.reduce((sum, run) => sum + run.violations["orchestrator-edit"], 0)).toBe(0);
	});
	it("counts a parent left waiting on a wedged subagent, once per run", () => {
		const waiting = runs("wedged-subagent", (truth) => withoutTimers(oraclePolicy(truth)));
		expect(waiting.map((run) => run.violations["parent-waiting"])).toEqual(SEEDS.map(() => 1));
		expect(waiting.every((run) => !run.completed && !run.rightOutcome)).toBe(true);
	});
	it("does not count nudges after a wedged subagent's limit as nudges during background work", () => {
		const released = runs("wedged-subagent", (truth) => oraclePolicy(truth));
		expect(released.every((run) => run.nudges > 0 && run.violations["background-busy"] === 0)).toBe(true);
	});
	it("finishes a delegating orchestrator's plan only when a note asks it to check each subagent's work", () => {
		const trusting = runs("delegating-orchestrator", (truth) => ({
			...oraclePolicy(truth),
			subagentResult: () => false,
		}));
		expect(trusting.filter((run) => run.completed)).toEqual([]);
	});
	it("charges a loop up to the ceiling", () => {
		const looped = runs("looper", () => naivePolicy());
		expect(looped.every((run) => run.capped && run.wasted >= 190)).toBe(true);
	});
});

/**
 * Gaps boulder has today, reported in bench/results/policy.md (the targets name the reason each unfinished run stopped):
 * - slow-burner: stagnation stops it in its first stretch of more than four turns of work without a tick
 *   (activity grace 2, then stagnation 3), although those turns were moving the item; the bound on nudges
 *   without list progress is the design's, so closing the gap means a way to tell a long item from a loop
 *   (marathon-profiles.test.ts pins how it stops).
 */
const COMPLETION_GAPS = new Set<string>(["slow-burner"]);
const VIOLATION_GAPS = new Set<string>();
const WASTE_GAPS = new Set<string>();

describe("boulder against the targets", () => {
	for (const profile of PROFILES.filter((candidate) => candidate.expect.finish)) {
		const test = COMPLETION_GAPS.has(profile.name) ? it.fails : it;
		test(`finishes the work in every run of ${profile.name}`, () => {
			expect(
				boulderRuns(profile.name)
					.filter((run) => !run.completed)
					.map((run) => run.seed),
			).toEqual([]);
		});
	}

	for (const profile of PROFILES) {
		const test = VIOLATION_GAPS.has(profile.name) ? it.fails : it;
		test(`commits no violation of any kind in ${profile.name}`, () => {
			expect(
				boulderRuns(profile.name)
					.filter((run) => violationTotal(run) > 0)
					.map((run) => run.seed),
			).toEqual([]);
		});
	}

	for (const profile of PROFILES.filter((candidate) => ["stuck", "blocked"].includes(candidate.expect.stop))) {
		const test = WASTE_GAPS.has(profile.name) ? it.fails : it;
		test(`wastes no more nudges than the stagnation limit in ${profile.name}`, () => {
			const most = Math.max(...boulderRuns(profile.name).map((run) => run.wasted));
			expect(most).toBeLessThanOrEqual(DEFAULT_CONFIG.stagnationLimit);
		});
	}

	it("stops on its own in every stuck run, with no more than stagnation limit + activity grace nudges", () => {
		for (const name of ["looper", "churner"]) {
			for (const run of boulderRuns(name)) {
				expect(run.capped).toBe(false);
				expect(run.nudges).toBeLessThanOrEqual(DEFAULT_CONFIG.stagnationLimit + DEFAULT_CONFIG.activityGrace);
			}
		}
	});

	it("reminds the silent worker of its list on a tool result once it has changed files past the hygiene threshold", () => {
		const reminded = boulderRuns("silent-worker").filter((run) => run.listReminders > 0);
		expect(reminded.length).toBeGreaterThan(0);
		expect(reminded.every((run) => run.rightOutcome)).toBe(true);
	});

	it("scores strictly better overall than every other policy", () => {
		const summaries = summarizeAll(runBench({ baseSeed: 1, seedCount: SEEDS.length }));
		const [mine, ...others] = summaries;
		expect(mine?.policy).toBe("boulder");
		for (const other of others) expect(mine?.score).toBeGreaterThan(other.score);
	});
});
