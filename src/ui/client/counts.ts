/**
 * The header's counts: every session card in exactly one state, and the
 * worktrees by what they need. Pure and shared: the server counts the first
 * screen with it, the page recounts after every update, and another page
 * (the fleet's) can count its cards the same way.
 */
import type { Standing, WorktreeView } from "../view-types.js";

export interface HeaderCounts {
	worktrees: number;
	/** Worktrees with at least one problem on their card (their own, a plan's or a session's). */
	withProblem: number;
	stopped: number;
	vanished: number;
	/** Worktrees with something for a person to do. */
	needYou: number;
	sessions: number;
	standing: Record<Standing, number>;
}

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

/** The states a person resolves: their cards come first and make the "needs me" list. */
export const NEEDS_PERSON: ReadonlySet<Standing> = new Set(["problem", "waiting", "verify-failed", "held"]);

export function headerCounts(worktrees: readonly WorktreeView[]): HeaderCounts {
	const standing = Object.fromEntries(STANDINGS.map((entry) => [entry.standing, 0])) as Record<Standing, number>;
	let sessions = 0;
	for (const worktree of worktrees) {
		for (const session of worktree.sessions) {
			standing[session.standing]++;
			sessions++;
		}
	}
	return {
		worktrees: worktrees.length,
		withProblem: worktrees.filter((worktree) => worktree.problemCount > 0).length,
		stopped: worktrees.filter((worktree) => !worktree.vanished && worktree.stopped !== null).length,
		vanished: worktrees.filter((worktree) => worktree.vanished).length,
		needYou: worktrees.filter(needsPerson).length,
		sessions,
		standing,
	};
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
