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
