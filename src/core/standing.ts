/**
 * Where a session stands, in one word: what the dashboard's cards and header
 * count (every session exactly once), decided from its continuation state
 * alone so any reader of the state (the dashboard, a status) says the same.
 * Pure.
 */
import type { ContinuationState } from "./turns.js";

export type Standing = "problem" | "off" | "waiting" | "verify-failed" | "held" | "rolling" | "done" | "idle";

export interface StandingInput {
	/** The state as read; null when there is none or it could not be read. */
	state: ContinuationState | null;
	/** The state file exists but could not be read. */
	unreadable: boolean;
	/** Continuation is stopped for the whole worktree. */
	worktreeStopped: boolean;
}

/** Whether the session waits for its user: a question or permission asked, an interrupt, or the agent asking. */
export function waitsForUser(state: ContinuationState): boolean {
	return (
		state.observed.pendingInput !== null || state.abortBlock !== null || state.lastDecision?.reason === "awaiting-user"
	);
}

/**
 * Its state file's problem first, then the switches, a person's turn, a turn
 * under way, and the last decision.
 */
export function sessionStanding({ state, unreadable, worktreeStopped }: StandingInput): Standing {
	if (unreadable) return "problem";
	if (!state) return "idle";
	if (state.disabled || worktreeStopped) return "off";
	if (waitsForUser(state)) return "waiting";
	if (state.turn && state.turn.outcome === null) return "rolling";
	const last = state.lastDecision;
	if (!last) return "idle";
	if (last.kind === "inject") return last.reason === "verify-failed" ? "verify-failed" : "rolling";
	if (last.kind === "complete") return "done";
	if (last.reason.startsWith("budget-") || last.reason === "stagnation" || last.reason === "harness-cap") return "held";
	return "idle";
}

/** Every standing, in the order the header and `boulder status --all --json` name them. */
export const STANDING_ORDER: readonly Standing[] = [
	"rolling",
	"waiting",
	"verify-failed",
	"held",
	"problem",
	"off",
	"done",
	"idle",
];

/** The states a person resolves: their cards come first and make the "needs me" list. */
export const NEEDS_PERSON: ReadonlySet<Standing> = new Set(["problem", "waiting", "verify-failed", "held"]);

/** One worktree as the counts see it: how many problems its card shows, its switch, and each session's standing. */
export interface WorktreeStandings {
	/** Its own (state, config, decision log), its works' plans' and its sessions' state files'. */
	problems: number;
	stopped: boolean;
	vanished: boolean;
	sessions: readonly Standing[];
}

/**
 * The dashboard's header and `boulder status --all --json`'s `counts`: every
 * session in exactly one standing, and the worktrees by what they need.
 */
export interface StandingCounts {
	worktrees: number;
	/** Worktrees with at least one problem. */
	withProblem: number;
	/** Worktrees turned off as a whole (`boulder stop`), vanished ones aside. */
	stopped: number;
	/** Worktrees in the index whose folder is gone. */
	vanished: number;
	/** Worktrees with something for a person to do: a problem, or a session waiting, failed or held. */
	needYou: number;
	sessions: number;
	standing: Record<Standing, number>;
}

export function countStandings(worktrees: readonly WorktreeStandings[]): StandingCounts {
	const standing = Object.fromEntries(STANDING_ORDER.map((entry) => [entry, 0])) as Record<Standing, number>;
	let sessions = 0;
	let withProblem = 0;
	let stopped = 0;
	let vanished = 0;
	let needYou = 0;
	for (const worktree of worktrees) {
		if (worktree.vanished) {
			vanished++;
			continue;
		}
		for (const session of worktree.sessions) standing[session]++;
		sessions += worktree.sessions.length;
		if (worktree.problems > 0) withProblem++;
		if (worktree.stopped) stopped++;
		if (worktree.problems > 0 || worktree.sessions.some((session) => NEEDS_PERSON.has(session))) needYou++;
	}
	return { worktrees: worktrees.length, withProblem, stopped, vanished, needYou, sessions, standing };
}
