/**
 * The words of the engine's API: who is idle, what the adapter saw, and the
 * answer it gets. Contract: adapters and the CLI build and read these; they
 * never build state or log records themselves.
 */
import type { Figures, HarnessCap, PendingInput, Verdict } from "../core/policy.js";
import type { BackgroundTask, TokenSpend } from "../core/turns.js";
import type { NamedTask } from "../core/watchdog.js";

export type { HarnessCap };

/** Who is going idle: a harness session. */
export interface SessionRef {
	harness: string;
	sessionId: string;
	/** A subagent or child session: owns no continuation. */
	subagent?: boolean;
	agent?: string | null;
	/** Where the harness keeps this session's transcript, when its event says: kept on the session's state to show. */
	transcriptPath?: string | null;
}

export interface IdleFacts {
	lastAssistantText?: string | null;
	/** When the harness says so directly; otherwise what was observed is used. */
	backgroundTasks?: number;
	/** The running tasks known by name and start, when the harness says so directly (the watchdog reads them). */
	background?: readonly BackgroundTask[];
	/**
	 * The running tasks by name, when the harness names them without a start
	 * (Claude Code's Stop): the engine times each from the first idle that
	 * listed it and keeps those times in the session's record.
	 */
	named?: readonly NamedTask[];
	/** The adapter can abort a child session past its limit (and does, when `watchdog.abort` is on). */
	canAbortChildren?: boolean;
	pendingInput?: PendingInput | null;
	/** The adapter could not see how the turn went (an unreadable transcript, say): why. No nudge follows. */
	turnUnseen?: string | null;
	/** The harness's own goal mode is active in this session (its name, for `why`): one driver at a time. */
	otherDriver?: string | null;
	/**
	 * The harness's own limit on continuations in a row (Qwen Code's and
	 * Copilot CLI's Stop-hook block caps), as the adapter found it. The policy
	 * owns what follows: a nudge the harness would override is not sent, and
	 * the stop is a `harness-cap` outcome, never a delivery failure.
	 */
	harnessCap?: HarnessCap | null;
}

export type SessionEvent =
	| { type: "abort" }
	| { type: "interrupt" }
	/** `spend`: what the failed turn's model calls cost, when the harness knows it. */
	| { type: "api-error"; message?: string; spend?: TokenSpend }
	| { type: "context-overflow"; spend?: TokenSpend }
	| { type: "compaction" }
	| { type: "deleted" }
	/** The harness is restarting: the abort it causes is not the user's. */
	| { type: "restart" };

/**
 * The decision as the adapter needs it: the verdict (an inject always has its
 * key and text; a skip says whether the user should be told), the figures
 * behind it, and the work it was about.
 */
export type IdleResult = Verdict & { figures: Figures; work: { id: string; name: string } | null };

export interface PlanSource {
	/** The plan's text, or null when the file does not exist. */
	read(worktree: string, planPath: string): Promise<string | null>;
	/**
	 * Names the plan's current version without reading it, for a view that
	 * keeps what it derived from a plan (`boulder status`). Contract: two
	 * equal stamps of a file mean its content is the same; null when that
	 * cannot be promised (the file is missing, is no regular file, or changed
	 * too recently for its times to tell), and the plan is then read.
	 */
	stamp?(worktree: string, planPath: string): Promise<string | null>;
}
