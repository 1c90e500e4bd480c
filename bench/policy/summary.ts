/**
 * Per-policy figures over a set of runs, and the one overall score.
 *
 * Score = 100 × completion − 10 × violations per run − 2 × wasted nudges per run.
 * Completion is the share of runs with finishable work that ended with that
 * work really done. A violation (a nudge the user would call a bug) costs five
 * times a wasted nudge (one that only burnt tokens), following the design's
 * stance: losing a nudge is acceptable, an unwanted nudge is a bug, a loop is
 * a severe bug (and a loop piles up wasted nudges up to the ceiling).
 */
import { type RunResult, VIOLATION_KINDS, type ViolationKind, violationTotal } from "./run-result.js";

export const SCORE_WEIGHTS = { completion: 100, violation: 10, wasted: 2 } as const;

export interface Summary {
	policy: string;
	runs: number;
	finishRuns: number;
	/** Share of runs with finishable work that finished it (0..1). */
	completion: number;
	/** Share of runs that ended the right way for their profile (0..1). */
	rightOutcome: number;
	nudgesPerRun: number;
	wastedPerRun: number;
	/** The longest run of fruitless nudges in a row, over all runs. */
	longestWasteRun: number;
	violationsPerRun: number;
	violations: Record<ViolationKind, number>;
	tokensPerRun: number;
	wastedTokensPerRun: number;
	/** Mean main-session turns until the work was done, over the runs that finished it. */
	turnsToFinish: number | null;
	capped: number;
	score: number;
}

export function summarize(policy: string, runs: readonly RunResult[]): Summary {
	const count = Math.max(1, runs.length);
	const finishRuns = runs.filter((run) => run.finishExpected);
	const finished = finishRuns.filter((run) => run.completed);
	const mean = (pick: (run: RunResult) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / count;
	const violations = Object.fromEntries(
		VIOLATION_KINDS.map((kind) => [kind, runs.reduce((sum, run) => sum + run.violations[kind], 0)]),
	) as Record<ViolationKind, number>;
	const completion = finishRuns.length === 0 ? 1 : finished.length / finishRuns.length;
	const violationsPerRun = mean(violationTotal);
	const wastedPerRun = mean((run) => run.wasted);
	const turns = finished.map((run) => run.turnsToFinish ?? 0);
	return {
		policy,
		runs: runs.length,
		finishRuns: finishRuns.length,
		completion,
		rightOutcome: runs.filter((run) => run.rightOutcome).length / count,
		nudgesPerRun: mean((run) => run.nudges),
		wastedPerRun,
		longestWasteRun: runs.reduce((most, run) => Math.max(most, run.longestWasteRun), 0),
		violationsPerRun,
		violations,
		tokensPerRun: mean((run) => run.nudgeTokens),
		wastedTokensPerRun: mean((run) => run.wastedTokens),
		turnsToFinish: turns.length === 0 ? null : turns.reduce((sum, value) => sum + value, 0) / turns.length,
		capped: runs.filter((run) => run.capped).length,
		score: score(completion, violationsPerRun, wastedPerRun),
	};
}

export function score(completion: number, violationsPerRun: number, wastedPerRun: number): number {
	return (
		SCORE_WEIGHTS.completion * completion -
		SCORE_WEIGHTS.violation * violationsPerRun -
		SCORE_WEIGHTS.wasted * wastedPerRun
	);
}

/** One summary per policy, in the order the policies first appear. */
export function summarizeAll(results: readonly RunResult[]): Summary[] {
	const policies = [...new Set(results.map((run) => run.policy))];
	return policies.map((policy) =>
		summarize(
			policy,
			results.filter((run) => run.policy === policy),
		),
	);
}
