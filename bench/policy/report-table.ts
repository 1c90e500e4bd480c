/** The headline table: one row per policy, the metrics as columns. */
import { num, pct, tokenCount } from "./format.js";
import type { Summary } from "./summary.js";

export const HEADLINE_HEADER = [
	"policy",
	"score",
	"completion",
	"right outcome",
	"violations/run",
	"wasted/run",
	"longest fruitless run",
	"nudges/run",
	"nudge tokens/run",
	"wasted tokens/run",
	"turns to finish",
	"capped runs",
] as const;

export function headlineRows(summaries: readonly Summary[]): string[][] {
	return summaries.map((s) => [
		s.policy,
		num(s.score, 1),
		pct(s.completion),
		pct(s.rightOutcome),
		num(s.violationsPerRun),
		num(s.wastedPerRun),
		String(s.longestWasteRun),
		num(s.nudgesPerRun),
		tokenCount(s.tokensPerRun),
		tokenCount(s.wastedTokensPerRun),
		s.turnsToFinish === null ? "-" : num(s.turnsToFinish, 1),
		String(s.capped),
	]);
}
