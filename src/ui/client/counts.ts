/**
 * The header's counts: every session card in exactly one state, and the
 * worktrees by what they need. Pure and shared: the server counts the first
 * screen with it, the page recounts after every update, and another page
 * (the fleet's) can count its cards the same way. The counting itself is
 * `core/standing.ts`'s, which `boulder status --all --json` uses too, so the
 * page and the CLI cannot disagree.
 */
import { countStandings, type StandingCounts } from "../../core/standing.js";

export { STANDINGS, summaryText } from "../../core/standing.js";

import type { WorktreeView } from "../view-types.js";

export { NEEDS_PERSON } from "../../core/standing.js";

/** The same counts as `boulder status --all --json`'s `counts`, by the same function (`core/standing.ts`). */
export type HeaderCounts = StandingCounts;

export function headerCounts(worktrees: readonly WorktreeView[]): HeaderCounts {
	return countStandings(
		worktrees.map((worktree) => ({
			problems: worktree.problemCount,
			stopped: worktree.stopped !== null,
			vanished: worktree.vanished,
			sessions: worktree.sessions.map((session) => session.standing),
		})),
	);
}

export function needsPerson(worktree: WorktreeView): boolean {
	return worktree.needs.length > 0;
}

/** Cards that need a person first, then the rest; each group keeps the server's stable order (by path). */
export function cardOrder(worktrees: readonly WorktreeView[]): WorktreeView[] {
	return [...worktrees.filter(needsPerson), ...worktrees.filter((worktree) => !needsPerson(worktree))];
}
