/**
 * The fleet view's read model (pure): what the fleet-wide view shows of a
 * worktree, made from its status snapshot when the shipper stores it, so a
 * read of the whole fleet is one small row per worktree rather than every
 * snapshot whole. The words are the local status's (`states` are the fleet's
 * grouping of them); `states` and `harnesses` are kept as columns so the
 * database filters by them.
 */
import type { DecisionRecord } from "../core/decision-record.js";
import type { WorktreeStatusView } from "../engine/status.js";
import { type FleetState, sessionState, workState } from "./fleet-state.js";

/** Decision details longer than this are cut in the summary (the record itself keeps all). */
export const DETAIL_CHARS = 240;

export interface LastDecision {
	at: number;
	kind: string;
	reason: string;
	detail: string;
}

/** What the fleet tallied from a work's or a session's decision rows (`boulder_tallies`). */
export interface Tally {
	decisions: number;
	nudges: number;
	/** The newest by sequence, whatever order the rows arrived in. */
	last: LastDecision & { seq: number };
}

export interface WorkSummary {
	id: string;
	name: string;
	status: string;
	state: FleetState;
	progress: { total: number; done: number; open: number } | null;
	next: string | null;
	planProblem: string | null;
	verify: { passed: boolean } | null;
	sessions: { harness: string; sessionId: string; stoppedBy: string | null }[];
	last: LastDecision | null;
	tally?: Tally;
}

export interface SessionSummary {
	harness: string;
	sessionId: string;
	state: FleetState;
	counts: { total: number; open: number; done: number };
	next: string | null;
	stoppedBy: string | null;
	last: LastDecision | null;
	lastActive: number;
	tally?: Tally;
}

export interface WorktreeSummary {
	stopped: { at: number; by: string } | null;
	problem: string | null;
	configProblem: string | null;
	works: WorkSummary[];
	sessions: SessionSummary[];
}

export function lastOf(decision: DecisionRecord | null): LastDecision | null {
	if (!decision) return null;
	return { at: decision.at, kind: decision.kind, reason: decision.reason, detail: cut(decision.detail) };
}

function cut(text: string): string {
	return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text;
}

/** The tally's subject for a work or a list session: the key `boulder_tallies` uses. */
export function workSubject(id: string): string {
	return `work:${id}`;
}
export function sessionSubject(harness: string, sessionId: string): string {
	return `session:${harness}:${sessionId}`;
}

export function summarize(view: WorktreeStatusView): WorktreeSummary {
	return {
		stopped: view.stopped,
		problem: view.problem,
		configProblem: view.configProblem,
		works: view.works.map((work) => ({
			id: work.id,
			name: work.name,
			status: work.status,
			state: workState(work, view),
			progress: work.progress
				? { total: work.progress.total, done: work.progress.done, open: work.progress.open }
				: null,
			next: work.next,
			planProblem: work.planProblem,
			verify: work.lastVerification ? { passed: work.lastVerification.passed } : null,
			sessions: work.sessions.map((s) => ({ harness: s.harness, sessionId: s.sessionId, stoppedBy: s.stoppedBy })),
			last: lastOf(work.lastDecision),
		})),
		sessions: view.sessions.map((session) => ({
			harness: session.harness,
			sessionId: session.sessionId,
			state: sessionState(session, view),
			counts: { total: session.counts.total, open: session.counts.open, done: session.counts.done },
			next: session.next,
			stoppedBy: session.stoppedBy,
			last: lastOf(session.lastDecision),
			lastActive: session.lastActive,
		})),
	};
}

/** The columns the database filters by: every state and harness in the worktree. */
export function summaryColumns(summary: WorktreeSummary): { states: FleetState[]; harnesses: string[] } {
	const states = new Set<FleetState>();
	const harnesses = new Set<string>();
	for (const work of summary.works) {
		states.add(work.state);
		for (const session of work.sessions) harnesses.add(session.harness);
	}
	for (const session of summary.sessions) {
		states.add(session.state);
		harnesses.add(session.harness);
	}
	return { states: [...states].sort(), harnesses: [...harnesses].sort() };
}

export interface SummaryFilter {
	state?: FleetState;
	harness?: string;
}

/** The summary with only the works and sessions the filter keeps; null when a filter was given and none is left. */
export function filterSummary(summary: WorktreeSummary, filter: SummaryFilter): WorktreeSummary | null {
	const works = summary.works.filter(
		(work) =>
			(filter.state === undefined || work.state === filter.state) &&
			(filter.harness === undefined || work.sessions.some((session) => session.harness === filter.harness)),
	);
	const sessions = summary.sessions.filter(
		(session) =>
			(filter.state === undefined || session.state === filter.state) &&
			(filter.harness === undefined || session.harness === filter.harness),
	);
	if ((filter.state !== undefined || filter.harness !== undefined) && works.length === 0 && sessions.length === 0) {
		return null;
	}
	return { ...summary, works, sessions };
}

/** Puts each work's and session's tally (by subject) beside it. */
export function withTallies(summary: WorktreeSummary, tallies: Record<string, Tally> | null): WorktreeSummary {
	if (!tallies) return summary;
	return {
		...summary,
		works: summary.works.map((work) => {
			const tally = tallies[workSubject(work.id)];
			return tally ? { ...work, tally } : work;
		}),
		sessions: summary.sessions.map((session) => {
			const tally = tallies[sessionSubject(session.harness, session.sessionId)];
			return tally ? { ...session, tally } : session;
		}),
	};
}
