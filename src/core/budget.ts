/**
 * What an episode may spend before boulder lets the agent stop: an allowance
 * that follows the work. Every episode starts with a base (automatic turns,
 * real tokens, wall-clock time); every item the agent really completes in it
 * earns more of each; a ceiling, when set, caps the total whatever the
 * progress. Spend that buys nothing is stopped by stagnation long before the
 * allowance runs out; the allowance is a backstop against slow spend, and the
 * ceiling is the user's hard limit.
 *
 * Contract: pure; `earned` is the episode's count of real progress (items
 * completed or closed beyond the best seen), kept by the policy.
 */
import type { Config } from "./config.js";

export type BudgetKind = "autoTurns" | "tokens" | "wallClockMs";

export const BUDGET_KINDS: readonly BudgetKind[] = ["autoTurns", "tokens", "wallClockMs"];

export interface Allowance {
	/** What the episode may spend of each, now. */
	limit: Record<BudgetKind, number>;
	/** Which limits are the ceiling's (the user's hard cap) rather than the earned allowance. */
	atCeiling: Record<BudgetKind, boolean>;
}

export function allowanceOf(budgets: Config["budgets"], earned: number): Allowance {
	const limit = {} as Record<BudgetKind, number>;
	const atCeiling = {} as Record<BudgetKind, boolean>;
	for (const kind of BUDGET_KINDS) {
		const grown = budgets[kind] + budgets.perItem[kind] * Math.max(0, earned);
		const ceiling = budgets.ceiling[kind];
		limit[kind] = ceiling === null ? grown : Math.min(grown, ceiling);
		atCeiling[kind] = ceiling !== null && ceiling <= grown;
	}
	return { limit, atCeiling };
}

/**
 * Time an episode has run: never less than nothing, whatever the clock did
 * (an episode stamped ahead of `now`, after a step back of the clock or a
 * forged file, has run for no time yet, not for minus ten years).
 */
export function elapsedSince(startedAt: number, now: number): number {
	return Math.max(0, now - startedAt);
}

/** Time left of `limit`: between nothing and the whole limit, whatever the clock did. */
export function timeLeft(limit: number, startedAt: number, now: number): number {
	return Math.min(limit, Math.max(0, limit - elapsedSince(startedAt, now)));
}
