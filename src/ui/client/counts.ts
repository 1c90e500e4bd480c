/**
 * The header's counts: every session card in exactly one state, and the
 * worktrees by what they need. Pure and shared: the server counts the first
 * screen with it, the page recounts after every update, and another page
 * (the fleet's) can count its cards the same way. The counting itself is
 * `core/standing.ts`'s, which `boulder status --all --json` uses too, so the
 * page and the CLI cannot disagree.
 */
import { countStandings, type StandingCounts } from "../../core/standing.js";
import type { Standing, WorktreeView } from "../view-types.js";

export { NEEDS_PERSON } from "../../core/standing.js";

/** The same counts as `boulder status --all --json`'s `counts`, by the same function (`core/standing.ts`). */
export type HeaderCounts = StandingCounts;

/** The states in the order the header names them, with their words. */
export const STANDINGS: readonly { standing: Standing; words: string }[] = [
	{ standing: "rolling", words: "rolling" },
	{ standing: "waiting", words: "waiting for you" },
	{ standing: "verify-failed", words: "verify failed" },
	{ standing: "held", words: "held (no progress or budget spent)" },
	{ standing: "problem", words: "unreadable" },
	{ standing: "off", words: "turned off" },
	{ standing: "done", words: "done" },
	{ standing: "idle", words: "idle" },
];

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

/** The header's line of words, e.g. "3 worktrees · 1 with a problem · 4 sessions: 2 rolling, 1 waiting for you". */
export function summaryText(counts: HeaderCounts): string {
	const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
	const worktreeParts = [
		plural(counts.worktrees, "worktree", "worktrees"),
		`${counts.withProblem} with a problem`,
		`${counts.stopped} stopped`,
		...(counts.vanished > 0 ? [`${counts.vanished} vanished`] : []),
	];
	const sessionParts = STANDINGS.filter((entry) => counts.standing[entry.standing] > 0).map(
		(entry) => `${counts.standing[entry.standing]} ${entry.words}`,
	);
	return `${worktreeParts.join(" · ")} · ${plural(counts.sessions, "session", "sessions")}${sessionParts.length > 0 ? `: ${sessionParts.join(", ")}` : ""}`;
}
