/** The report and the chart say what they must, and the target check can say no. */
import { describe, expect, it } from "vitest";
import { tokenCount } from "../../bench/policy/format.js";
import { CONTESTANTS } from "../../bench/policy/policies/index.js";
import { produce } from "../../bench/policy/produce.js";
import { renderSvg } from "../../bench/policy/report-svg.js";
import { noViolations, type RunResult } from "../../bench/policy/run-result.js";
import { SCORE_WEIGHTS, score, summarize } from "../../bench/policy/summary.js";
import { checkTargets } from "../../bench/policy/targets.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";

const { markdown, svg, table } = produce(1, 2);

function run(policy: string, overrides: Partial<RunResult> = {}): RunResult {
	return {
		policy,
		profile: "lazy-stopper",
		seed: 1,
		finishExpected: true,
		stop: "none",
		completed: true,
		rightOutcome: true,
		nudges: 3,
		wasted: 0,
		longestWasteRun: 0,
		violations: noViolations(),
		nudgeTokens: 9_000,
		wastedTokens: 0,
		listReminders: 0,
		turns: 4,
		turnsToFinish: 4,
		capped: false,
		overridden: 0,
		stoppedBy: null,
		...overrides,
	};
}

describe("the Markdown report", () => {
	it("has the table, the targets, the breakdown, the method, the score formula, the config, the seeds and how to reproduce", () => {
		for (const heading of [
			"## Results",
			"## boulder against the targets",
			"## Violations by kind (total over all runs)",
			"## Per profile",
			"## The policies",
			"## Method",
			"## Score",
			"## Config",
			"## Profiles and seeds",
			"## Reproduce",
		]) {
			expect(markdown.split("\n")).toContain(heading);
		}
		expect(markdown).toContain(
			`score = ${SCORE_WEIGHTS.completion} × completion − ${SCORE_WEIGHTS.violation} × violations per run − ${SCORE_WEIGHTS.wasted} × wasted nudges per run`,
		);
		expect(markdown).toContain(JSON.stringify(DEFAULT_CONFIG, null, 2));
		expect(markdown).toContain("npm run bench:policy");
		expect(markdown).toContain("- seed 2: ");
		for (const contestant of CONTESTANTS) expect(markdown).toContain(`| ${contestant.name} |`);
	});

	it("prints one table row per policy", () => {
		for (const contestant of CONTESTANTS) expect(table).toMatch(new RegExp(`^${contestant.name} `, "m"));
	});

	it("prints tokens in thousands, and in millions from a million on", () => {
		expect([0, 39_840, 999_949, 999_950, 33_126_500].map(tokenCount)).toEqual([
			"0.0k",
			"39.8k",
			"999.9k",
			"1.0M",
			"33.1M",
		]);
	});
});

describe("the chart", () => {
	it("draws one labelled point per policy with both axes titled", () => {
		expect(svg.startsWith("<svg ")).toBe(true);
		expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
		expect(svg.match(/<circle /g)).toHaveLength(CONTESTANTS.length);
		for (const contestant of CONTESTANTS) expect(svg).toContain(`>${contestant.name} (score `);
		expect(svg).toContain("Wasted nudges per run");
		expect(svg).toContain("Completion rate on finishable work");
	});

	it("places a policy that completes more higher, and one that wastes more further right", () => {
		const base = summarize("a", [run("a")]);
		const chart = renderSvg({
			summaries: [
				{ ...base, policy: "high", completion: 1, wastedPerRun: 0 },
				{ ...base, policy: "low", completion: 0.2, wastedPerRun: 30 },
			],
			subject: "high",
			profiles: 1,
			seeds: 1,
		});
		const points = [...chart.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
		const [high, low] = points;
		expect(high?.[1]).toBeLessThan(low?.[1] ?? 0);
		expect(high?.[0]).toBeLessThan(low?.[0] ?? 0);
	});
});

describe("the score and the target check", () => {
	it("rewards completion and charges violations more than waste", () => {
		expect(score(1, 0, 0)).toBe(100);
		expect(score(1, 1, 0)).toBeLessThan(score(1, 0, 1));
	});

	it("reports a miss, and where, when boulder falls short", () => {
		const results = [
			run("boulder", { completed: false, turnsToFinish: null, rightOutcome: false, stoppedBy: "stagnation" }),
			run("other"),
			run("boulder", { profile: "looper", stop: "stuck", finishExpected: false, completed: false, wasted: 5 }),
			run("other", { profile: "looper", stop: "stuck", finishExpected: false, completed: false, wasted: 1 }),
		];
		const checks = checkTargets(results, "boulder", 3);
		expect(checks.map((check) => check.met)).toEqual([false, true, false, false, false]);
		expect(checks[0]?.detail).toContain("lazy-stopper 0% (stopped by stagnation in 1 run)");
		expect(checks[2]?.detail).toContain("looper: up to 5");
		expect(checks[3]?.detail).toContain("completion vs other");
	});

	it("says yes when boulder meets them all", () => {
		const checks = checkTargets([run("boulder"), run("other", { wasted: 2 })], "boulder", 3);
		expect(checks.every((check) => check.met)).toBe(true);
	});
});
