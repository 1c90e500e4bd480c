/**
 * Contract: the only way anything reads or writes boulder's state. The file
 * implementation keeps everything under the worktree's `.boulder/`, writes
 * atomically and runs every read-modify-write under a cross-process lock; the
 * memory implementation is for tests.
 */
import type { Clock } from "../core/clock.js";
import type { DecisionRecord } from "../core/decision-record.js";
import type { ParsedPlan } from "../core/plan-parser.js";
import type { ContinuationState } from "../core/turns.js";
import type { PlanSummaries } from "./plan-summaries.js";
import type { Tallied } from "./scope-tally.js";
import type { Read, StateProblem, Update } from "./state-words.js";
import type { TrustGrant, TrustView } from "./trust.js";
import type { ClaimResult } from "./verify-claims.js";
import type { WorksFile } from "./works.js";

export type { Clock } from "../core/clock.js";
export type { Read, StateProblem, Update } from "./state-words.js";

/** Which decisions to read: all of them unless narrowed. */
export interface ReadDecisionsQuery {
	/** Keep only the newest N (after filtering). */
	limit?: number;
	/** Keep only records of this harness session. */
	session?: string;
	/**
	 * Told each record kept, newest first; true stops the reading there (the
	 * caller has what it looks for, and older lines are never parsed).
	 */
	enough?: (record: DecisionRecord) => boolean;
}

export interface Store {
	/** The worktree this store belongs to. */
	readonly worktree: string;
	readScope(scopeKey: string): Promise<Read<ContinuationState>>;
	updateScope<R>(scopeKey: string, fn: (current: Read<ContinuationState>) => Update<R, ContinuationState>): Promise<R>;
	/**
	 * Appends `mark` to the scope's tally and returns its place (from 1) and
	 * the `window` marks ending with it, oldest first: kept beside the
	 * scope's record without its lock or a rewrite, for what happens too
	 * often to rewrite the record each time (todo hygiene's file changes).
	 * Callers at once each get a place of their own, and each sees the marks
	 * before its own. A store that keeps nothing returns place 0 and no marks.
	 */
	tally(scopeKey: string, mark: string, window: number): Promise<Tallied>;
	readWorks(): Promise<Read<WorksFile>>;
	updateWorks<R>(fn: (current: Read<WorksFile>) => Update<R, WorksFile>): Promise<R>;
	/**
	 * The works file as it is, for a command that only looks (`status`, `plans`,
	 * the dashboard): unlike `readWorks`, a bad file is reported and left where
	 * it is, and nothing is logged. The next update moves it aside.
	 */
	peekWorks?(): Promise<Read<WorksFile>>;
	appendDecision(record: DecisionRecord): Promise<void>;
	/** Newest last; `limit` keeps the newest N. Unreadable lines are skipped and counted. */
	readDecisions(options?: ReadDecisionsQuery): Promise<DecisionRecord[]>;
	/**
	 * This user's trust in the works here (`trust.ts`), kept outside the
	 * worktree; null from a store that trusts everything it holds (the
	 * memory store's default, for tests of other layers).
	 */
	readTrust(): Promise<TrustView>;
	/** Records works the user started or approved and verify lists they approved (`boulder start`, `boulder trust`). */
	grantTrust(grant: TrustGrant): Promise<void>;
	/**
	 * Claims the right to run the work's verify commands until `until`:
	 * refused while another live claim holds it (`verify-claims.ts`), so two
	 * Stops never run two verifies of one work at once.
	 */
	claimVerify(workId: string, until: number): Promise<ClaimResult>;
	/** Names the process group of the verify command this process runs now (null: none). */
	noteVerifyGroup(workId: string, group: number | null): Promise<void>;
	/** Drops this process's claim. */
	releaseVerify(workId: string): Promise<void>;
	/** Files moved aside, locks left behind, and anything else `boulder doctor` must report. */
	problems(): Promise<StateProblem[]>;
	/**
	 * The plan-summary cache (`plan-summaries.ts`); empty when there is none.
	 * Only the file store keeps one: without it, a status view parses every plan.
	 */
	readPlanSummaries?(): Promise<PlanSummaries>;
	/** Replaces the cache whole. */
	writePlanSummaries?(plans: PlanSummaries): Promise<void>;
	/**
	 * The plan-parse cache (`plan-parse-cache.ts`): the kept parse of the plan
	 * at `planPath` when it was made from exactly `text`, else null. Only the
	 * file store keeps one: without it, every read of a plan parses it.
	 */
	readPlanParse?(planPath: string, text: string): Promise<ParsedPlan | null>;
	/** Keeps the parse of `text` (one without errors) for the next read. */
	writePlanParse?(planPath: string, text: string, plan: ParsedPlan): Promise<void>;
	/** The keys of the scopes that have a state file (a bad one included), for a view that asks about many. */
	scopeKeys?(): Promise<Set<string>>;
}

/**
 * The real time, never going back within one process: after a step back of
 * the system clock (NTP, a VM restored) it runs on from where it was at the
 * monotonic clock's pace until the wall clock catches up; a step forward
 * (or a suspend, which the monotonic clock does not count) is taken as it is.
 */
export function steadyClock(wallClock: () => number = Date.now, monotonic: () => number = monotonicMs): Clock {
	let wallAt = wallClock();
	let monoAt = monotonic();
	return {
		now() {
			const wall = wallClock();
			const mono = monotonic();
			const steady = wallAt + (mono - monoAt);
			if (wall >= steady) {
				wallAt = wall;
				monoAt = mono;
				return wall;
			}
			return Math.floor(steady);
		},
	};
}

export const systemClock: Clock = steadyClock();

/** Milliseconds on a monotonic clock; `performance.now()` would load perf_hooks, a cost every hook pays at start-up. */
function monotonicMs(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}
