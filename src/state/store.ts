/**
 * Contract: the only way anything reads or writes boulder's state. The file
 * implementation keeps everything under the worktree's `.boulder/`, writes
 * atomically and runs every read-modify-write under a cross-process lock; the
 * memory implementation is for tests.
 */
import type { Clock } from "../core/clock.js";
import type { DecisionRecord } from "../core/decision-record.js";
import type { ContinuationState } from "../core/turns.js";
import type { PlanSummaries } from "./plan-summaries.js";
import type { WorksFile } from "./works.js";

export type { Clock } from "../core/clock.js";

/** A state file that could not be used: moved aside untouched, never dropped. */
export interface StateProblem {
	/** The file as it was named when it was found bad. */
	file: string;
	/** Where it was moved, or null if it could not be moved. */
	movedTo: string | null;
	reason: string;
	at: number;
}

export type Read<T> =
	| { kind: "ok"; value: T }
	| { kind: "missing" }
	/** Unparseable, wrong shape, or from a newer version: the scope fails closed. */
	| { kind: "unreadable"; problem: StateProblem };

export interface Update<R, T> {
	result: R;
	/** The new content, or null to leave the file as it is. */
	next: T | null;
}

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
	/** Files moved aside, locks left behind, and anything else `boulder doctor` must report. */
	problems(): Promise<StateProblem[]>;
	/**
	 * The plan-summary cache (`plan-summaries.ts`); empty when there is none.
	 * Only the file store keeps one: without it, a status view parses every plan.
	 */
	readPlanSummaries?(): Promise<PlanSummaries>;
	/** Replaces the cache whole. */
	writePlanSummaries?(plans: PlanSummaries): Promise<void>;
	/** The keys of the scopes that have a state file (a bad one included), for a view that asks about many. */
	scopeKeys?(): Promise<Set<string>>;
}

export const systemClock: Clock = { now: () => Date.now() };
