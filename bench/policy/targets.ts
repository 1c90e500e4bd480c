/**
 * The targets for boulder, checked against the results: completion on
 * finishable work, zero violations, waste on stuck work within the stagnation
 * limit, no worse than any other policy on any metric, and a better score.
 * A miss is reported with where it happened; nothing here bends to hide one.
 */
import { type RunResult, VIOLATION_KINDS } from "./run-result.js";
import { type Summary, summarize } from "./summary.js";

export interface TargetCheck {
	target: string;
	met: boolean;
	/** Where it was missed, or the figures that meet it. */
	detail: string;
}

interface Metric {
	name: string;
	better: "higher" | "lower";
	value: (summary: Summary) => number | null;
	format?: (value: number) => string;
}

const METRICS: readonly Metric[] = [
	{ name: "completion", better: "higher", value: (s) => s.completion },
	{ name: "right outcome", better: "higher", value: (s) => s.rightOutcome },
	{ name: "violations per run", better: "lower", value: (s) => s.violationsPerRun },
	{ name: "wasted nudges per run", better: "lower", value: (s) => s.wastedPerRun },
	{ name: "longest fruitless run", better: "lower", value: (s) => s.longestWasteRun },
	{
		name: "tokens in wasted nudges per run",
		better: "lower",
		value: (s) => s.wastedTokensPerRun,
		format: (value) => String(Math.round(value)),
	},
];

const EPSILON = 1e-9;

export function checkTargets(results: readonly RunResult[], subject: string, stagnationLimit: number): TargetCheck[] {
	const mine = results.filter((run) => run.policy === subject);
	const others = [...new Set(results.map((run) => run.policy))].filter((policy) => policy !== subject);
	const profiles = [...new Set(mine.map((run) => run.profile))];
	const byProfile = (profile: string) => mine.filter((run) => run.profile === profile);

	const incomplete = profiles
		.map((profile) => byProfile(profile).filter((run) => run.finishExpected))
		.filter((runs) => runs.some((run) => !run.completed))
		.map(
			(runs) =>
				`${runs[0]?.profile} ${pct(runs.filter((run) => run.completed).length / runs.length)}${stoppedBy(runs.filter((run) => !run.completed))}`,
		);

	const violated = VIOLATION_KINDS.flatMap((kind) => {
		const where = profiles.filter((profile) => byProfile(profile).some((run) => run.violations[kind] > 0));
		return where.map((profile) => {
			const runs = byProfile(profile);
			const hit = runs.filter((run) => run.violations[kind] > 0).length;
			return `${kind} in ${profile} (${hit} of ${runs.length} runs)`;
		});
	});

	const stuck = profiles
		.map((profile) => byProfile(profile))
		.filter((runs) => runs[0]?.stop === "stuck" || runs[0]?.stop === "blocked");
	const overLimit = stuck
		.map((runs) => ({ profile: runs[0]?.profile, most: Math.max(...runs.map((run) => run.wasted)), runs }))
		.filter((entry) => entry.most > stagnationLimit)
		.map(
			(entry) =>
				`${entry.profile}: up to ${entry.most} (${entry.runs.filter((run) => run.wasted > stagnationLimit).length} of ${entry.runs.length} runs over)`,
		);

	const summary = summarize(subject, mine);
	const worse: string[] = [];
	for (const other of others) {
		const theirs = summarize(
			other,
			results.filter((run) => run.policy === other),
		);
		for (const metric of METRICS) {
			const a = metric.value(summary);
			const b = metric.value(theirs);
			if (a === null || b === null) continue;
			const behind = metric.better === "higher" ? a < b - EPSILON : a > b + EPSILON;
			const show = metric.format ?? fmt;
			if (behind) worse.push(`${metric.name} vs ${other} (${show(a)} against ${show(b)})`);
		}
		const paired = pairedFinished(results, subject, other);
		if (paired.count > 0 && paired.turns[0] > paired.turns[1] + EPSILON) {
			worse.push(
				`turns to finish vs ${other} on the ${paired.count} runs both finished (${fmt(paired.turns[0])} against ${fmt(paired.turns[1])})`,
			);
		}
		if (paired.count > 0 && paired.tokens[0] > paired.tokens[1] + EPSILON) {
			worse.push(
				`nudge tokens vs ${other} on the ${paired.count} runs both finished (${Math.round(paired.tokens[0])} against ${Math.round(paired.tokens[1])})`,
			);
		}
	}

	const bestOther = others
		.map((other) =>
			summarize(
				other,
				results.filter((run) => run.policy === other),
			),
		)
		.reduce((best, s) => (s.score > best.score ? s : best));

	return [
		{
			target: "100% completion on finishable profiles",
			met: incomplete.length === 0,
			detail:
				incomplete.length === 0 ? `completion ${pct(summary.completion)}` : `below 100%: ${incomplete.join("; ")}`,
		},
		{
			target: "zero violations of every kind",
			met: violated.length === 0,
			detail: violated.length === 0 ? "none" : violated.join("; "),
		},
		{
			target: `wasted nudges on stuck and blocked profiles within the stagnation limit (${stagnationLimit})`,
			met: overLimit.length === 0,
			detail: overLimit.length === 0 ? "within the limit in every run" : overLimit.join("; "),
		},
		{
			target: "at least as good as every other policy on every metric",
			met: worse.length === 0,
			detail: worse.length === 0 ? "on every metric" : `behind on: ${worse.join("; ")}`,
		},
		{
			target: "strictly better overall score",
			met: summary.score > bestOther.score,
			detail: `${fmt(summary.score)} against ${fmt(bestOther.score)} (${bestOther.policy}, the best of the others)`,
		},
	];
}

function pairedFinished(
	results: readonly RunResult[],
	a: string,
	b: string,
): { count: number; turns: [number, number]; tokens: [number, number] } {
	const key = (run: RunResult) => `${run.profile}#${run.seed}`;
	const theirs = new Map(results.filter((run) => run.policy === b && run.completed).map((run) => [key(run), run]));
	const pairs = results
		.filter((run) => run.policy === a && run.completed && run.finishExpected)
		.map((run) => [run, theirs.get(key(run))] as const)
		.filter((pair): pair is readonly [RunResult, RunResult] => pair[1] !== undefined);
	const mean = (pick: (run: RunResult) => number, side: 0 | 1) =>
		pairs.reduce((sum, pair) => sum + pick(pair[side]), 0) / Math.max(1, pairs.length);
	return {
		count: pairs.length,
		turns: [mean((run) => run.turnsToFinish ?? 0, 0), mean((run) => run.turnsToFinish ?? 0, 1)],
		tokens: [mean((run) => run.nudgeTokens, 0), mean((run) => run.nudgeTokens, 1)],
	};
}

/** Why the unfinished runs ended: " (stopped by stagnation in 19 runs, …)", or nothing when no skip says. */
function stoppedBy(unfinished: readonly RunResult[]): string {
	const counts = new Map<string, number>();
	for (const run of unfinished) {
		const reason = run.capped ? "the bench's ceiling" : run.stoppedBy;
		if (reason) counts.set(reason, (counts.get(reason) ?? 0) + 1);
	}
	if (counts.size === 0) return "";
	const parts = [...counts].map(([reason, count]) => `${reason} in ${count} run${count === 1 ? "" : "s"}`);
	return ` (stopped by ${parts.join(", ")})`;
}

function pct(value: number): string {
	return `${(value * 100).toFixed(0)}%`;
}

function fmt(value: number): string {
	return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
