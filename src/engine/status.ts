/**
 * Reads what `boulder status` and the dashboard show: per worktree, its works
 * with their progress (from the plan files), elapsed time, bound sessions,
 * next item and the last decision that concerned them. Data only; rendering
 * is the face's job.
 *
 * It must stay fast across many worktrees: each worktree costs one works-file
 * read, one bounded read of the decision log's newest lines, one read per
 * scope state (each session's standing, `core/standing.ts`, is counted the
 * way the dashboard's header counts it), and per plan a stat, plus a read and a parse only
 * when the plan changed since the worktree's plan-summary cache was written
 * (`state/plan-summaries.ts`). Worktrees are read a few at a time.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { DecisionRecord } from "../core/decision-record.js";
import { isBoulderError } from "../core/errors.js";
import { changesStanding } from "../core/event-reasons.js";
import { parsePlan } from "../core/plan-parser.js";
import { type PlanProgress, type PlanSummary, summarizePlan } from "../core/plan-summary.js";
import type { ForeignWork } from "../core/policy.js";
import { scopeKey, sessionOfScopeKey } from "../core/scope-key.js";
import {
	countStandings,
	type Standing,
	type StandingCounts,
	sessionStanding,
	type WorktreeStandings,
} from "../core/standing.js";
import { canonicalText, countTodos, nextOpenTodos, type Todo } from "../core/todos.js";
import type { ContinuationState } from "../core/turns.js";
import { FileStore } from "../state/file-store.js";
import type { PlanSummaries } from "../state/plan-summaries.js";
import type { Read, StateProblem, Store } from "../state/store.js";
import type { Work, WorkStatus, WorkVerification } from "../state/works.js";
import { readWorktreeList, type WorktreeIndexOptions } from "../state/worktree-index.js";
import { loadConfig } from "./config-loader.js";
import type { PlanSource } from "./engine-types.js";
import { filePlans } from "./plan-files.js";
import { foreignOf } from "./work-context.js";
import { findProject, projectStore } from "./worktree.js";

/** How many of the newest log lines are searched for each work's last decision. */
export const DECISIONS_SCANNED = 500;

export type { PlanProgress } from "../core/plan-summary.js";
export type { Standing, StandingCounts } from "../core/standing.js";

export interface SessionStatus {
	harness: string;
	sessionId: string;
	how: "direct" | "appended";
	/** Set when continuation was turned off for this session alone. */
	stoppedBy: string | null;
}

export interface WorkStatusView {
	id: string;
	name: string;
	status: WorkStatus;
	/** The worktree's active work (the one a new session binds to). */
	active: boolean;
	planPath: string;
	startedAt: number;
	endedAt: number | null;
	/** Until the end for finished works; until `now` for live ones (paused time included). */
	elapsedMs: number;
	/** null when the plan could not be read; `planProblem` says why. */
	progress: PlanProgress | null;
	next: string | null;
	planProblem: string | null;
	sessions: SessionStatus[];
	lastDecision: DecisionRecord | null;
	lastVerification: WorkVerification | null;
	/** Orchestrate mode: the bound session delegates the items to subagents. */
	orchestrate?: boolean;
	/** Per plan item (by its title), the subagent session that worked on it, in plan order. */
	subagents?: { item: string; session: string }[];
	/**
	 * A live work boulder does not act on here (docs/trust.md): it came with
	 * the checkout or a copy, or from a boulder before trust records
	 * (`not-recorded`), or it names another folder (`other-worktree`).
	 */
	foreign?: ForeignWork["why"] | null;
}

/**
 * A session rolling its own todo list (the harness's list, no plan): the
 * default in every harness. Shown beside the works so `status` never says
 * "no works" while sessions are being nudged.
 */
export interface ListSessionStatus {
	harness: string;
	sessionId: string;
	counts: { total: number; open: number; done: number; blocked: number; cancelled: number };
	/** The first open item (in progress first), null when nothing is open. */
	next: string | null;
	/** The whole list as last reported, in the harness's order. */
	items: { content: string; status: Todo["status"] }[];
	/** Set when continuation was turned off for this session alone. */
	stoppedBy: string | null;
	lastDecision: DecisionRecord | null;
	/** When boulder last saw the session do anything: the list newest first by this. */
	lastActive: number;
}

export interface WorktreeStatusView {
	worktree: string;
	/** The worktree-wide switch (`boulder stop`). */
	stopped: { at: number; by: string } | null;
	/** Live works first (active, paused), then finished ones, newest first within each. */
	works: WorkStatusView[];
	/** The newest decision of the worktree, whatever session made it. */
	lastDecision: DecisionRecord | null;
	/** Sessions that roll their own todo list (bound to no live work), most recently active first. */
	sessions: ListSessionStatus[];
	/**
	 * Set when the folder is no project: where its state is kept instead (under
	 * the user's state folder). Absent or null in a project.
	 */
	keptIn?: string | null;
	/** Why the worktree's state could not be read; its works are then unknown. */
	problem: string | null;
	/** Why the worktree's effective config is invalid: nothing is continued there until it is fixed. */
	configProblem: string | null;
	/**
	 * Every session with a state file here (bound to a work, rolling its own
	 * list, or neither), where it stands (`core/standing.ts`): one each, the
	 * dashboard's session cards. Absent from a status written before it.
	 */
	standings?: SessionStanding[];
	/**
	 * The problems the dashboard's card shows: the worktree's own (its state,
	 * its config, unreadable decision-log lines), each live work whose plan
	 * cannot be read (a finished work's plan is often removed once done), each
	 * session whose state file cannot be.
	 */
	problemCount?: number;
	/** Decision-log lines read for this status that could not be parsed. */
	skippedLines?: number;
}

/** One session's standing, as `standings` lists it. */
export interface SessionStanding {
	scope: string;
	harness: string | null;
	sessionId: string | null;
	standing: Standing;
	/** Why its state file cannot be read (standing `problem`); null otherwise. */
	problem: string | null;
	/** Where the harness keeps the session's transcript, when its events said. */
	transcriptPath?: string | null;
}

export interface StatusAll {
	worktrees: WorktreeStatusView[];
	/** Worktrees in the index whose folder no longer exists: skipped. */
	vanished: string[];
	/** Why no worktree is known: the index could not be read (and where it went). */
	indexProblem: string | null;
	/** The dashboard header's counts, from the same function: every session in exactly one standing. */
	counts: StandingCounts;
}

export interface StatusOptions {
	now: number;
	plans?: PlanSource;
	/** Where the user's config is found; when given, a bad config is reported. */
	env?: NodeJS.ProcessEnv;
}

/** What a status says of a bad works file: where it is, and how it comes back. */
function unreadableWorks(problem: StateProblem): string {
	if (problem.movedTo) {
		return `the works file was unreadable (${problem.reason}) and was moved aside to ${problem.movedTo}; rename it back once fixed`;
	}
	return `the works file ${problem.file} is unreadable (${problem.reason}); it is left untouched: fix it by hand, or the next change to the works (\`boulder start\`, \`pause\`, \`resume\`) moves it aside, where it can be fixed and renamed back`;
}

const STATUS_ORDER: Record<WorkStatus, number> = { active: 0, paused: 1, completed: 2, abandoned: 3 };

export async function readWorktreeStatus(store: Store, options: StatusOptions): Promise<WorktreeStatusView> {
	const view: WorktreeStatusView = {
		worktree: store.worktree,
		stopped: null,
		works: [],
		lastDecision: null,
		sessions: [],
		keptIn: store instanceof FileStore && store.external ? store.dir : null,
		problem: null,
		configProblem: options.env ? configProblemOf(store.worktree, options.env) : null,
	};
	// A read command never changes state: a bad works file is reported where it is, not moved aside.
	const works = await (store.peekWorks ? store.peekWorks() : store.readWorks());
	const scopeReads = await readScopes(store);
	if (works.kind === "unreadable") {
		const problem = unreadableWorks(works.problem);
		return withStandings({ ...view, problem }, scopeReads, 0);
	}
	const file = works.kind === "ok" ? works.value : null;
	const lists = listSessions(scopeReads, file ? Object.values(file.works) : []);
	// Newest first, reading stops once every work and list session has its last decision: older lines are never parsed.
	const unseen = new Set(file ? Object.keys(file.works) : []);
	const unseenSessions = new Set(lists.map((list) => sessionKey(list.harness, list.sessionId)));
	let newest = false;
	const read = store instanceof FileStore ? store.readDecisionLog.bind(store) : decisionsOnly(store);
	const { records: decisions, skipped } = await read({
		limit: DECISIONS_SCANNED,
		enough: (record) => {
			if (standing(record)) newest = true;
			if (record.work && standing(record)) unseen.delete(record.work);
			if (record.harness && record.session && standing(record)) {
				unseenSessions.delete(sessionKey(record.harness, record.session));
			}
			return newest && unseen.size === 0 && unseenSessions.size === 0;
		},
	});
	const sessions = withLastDecisions(lists, decisions);
	if (!file) return withStandings({ ...view, lastDecision: lastOf(decisions), sessions }, scopeReads, skipped);
	const lastByWork = new Map<string, DecisionRecord>();
	for (const record of decisions) if (record.work && standing(record)) lastByWork.set(record.work, record);
	const plans = options.plans ?? filePlans;
	const summaries = await openSummaries(store, plans);
	const scopes = scopeReads ? new Set(scopeReads.keys()) : null;
	const live = Object.values(file.works).some((work) => work.status === "active" || work.status === "paused");
	const trust = live ? await store.readTrust() : null;
	const rows = await Promise.all(
		Object.values(file.works).map((work) =>
			workStatus(store, work, {
				now: options.now,
				plans,
				summaries,
				scopes,
				scopeReads,
				active: file.activeWorkId === work.id,
				lastDecision: lastByWork.get(work.id) ?? null,
				trust,
			}),
		),
	);
	await keepSummaries(store, summaries);
	rows.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.startedAt - a.startedAt);
	return withStandings(
		{ ...view, stopped: file.stopped, works: rows, lastDecision: lastOf(decisions), sessions },
		scopeReads,
		skipped,
	);
}

/** Every scope's state as read, by key; null when the store cannot list its scopes. */
type ScopeReads = ReadonlyMap<string, Read<ContinuationState>> | null;

async function readScopes(store: Store): Promise<ScopeReads> {
	if (!store.scopeKeys) return null;
	const keys = [...(await store.scopeKeys())].sort();
	const reads = await Promise.all(keys.map(async (key) => [key, await readScope(store, key)] as const));
	return new Map(reads);
}

/** A scope that cannot even be opened is unreadable, as the dashboard counts it (`engine/fleet-worktree.ts`). */
async function readScope(store: Store, key: string): Promise<Read<ContinuationState>> {
	try {
		return await store.readScope(key);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { kind: "unreadable", problem: { file: key, movedTo: null, reason, at: 0 } };
	}
}

function decisionsOnly(store: Store) {
	return async (query: Parameters<Store["readDecisions"]>[0]) => ({
		records: await store.readDecisions(query),
		skipped: 0,
	});
}

/**
 * The view with each session's standing and the count of the problems its
 * card shows, decided as the dashboard decides them (`core/standing.ts`).
 */
function withStandings(view: WorktreeStatusView, scopeReads: ScopeReads, skipped: number): WorktreeStatusView {
	const standings: SessionStanding[] = [];
	for (const [scope, read] of scopeReads ?? []) {
		const state = read.kind === "ok" ? read.value : null;
		const decoded = sessionOfScopeKey(scope);
		standings.push({
			scope,
			harness: state?.observed.harness ?? decoded?.harness ?? null,
			sessionId: state?.observed.sessionId ?? decoded?.sessionId ?? null,
			standing: sessionStanding({
				state,
				unreadable: read.kind === "unreadable",
				worktreeStopped: view.stopped !== null,
			}),
			problem: read.kind === "unreadable" ? read.problem.reason : null,
			transcriptPath: state?.observed.transcriptPath ?? null,
		});
	}
	const problemCount =
		(view.problem ? 1 : 0) +
		(view.configProblem ? 1 : 0) +
		(skipped > 0 ? 1 : 0) +
		view.works.filter((work) => (work.status === "active" || work.status === "paused") && work.planProblem !== null)
			.length +
		standings.filter((entry) => entry.standing === "problem").length;
	return { ...view, standings, problemCount, skippedLines: skipped };
}

/** The worktree as the counts see it. */
export function worktreeStandings(view: WorktreeStatusView): WorktreeStandings {
	return {
		problems: view.problemCount ?? 0,
		stopped: view.stopped !== null,
		vanished: false,
		sessions: (view.standings ?? []).map((entry) => entry.standing),
	};
}

/** The counts of a status: its worktrees, and those of the index whose folder is gone. */
export function statusCounts(worktrees: readonly WorktreeStatusView[], vanished: readonly string[]): StandingCounts {
	return countStandings([
		...worktrees.map(worktreeStandings),
		...vanished.map(() => ({ problems: 0, stopped: false, vanished: true, sessions: [] })),
	]);
}

function sessionKey(harness: string, sessionId: string): string {
	return `${harness}\u0000${sessionId}`;
}

/**
 * The sessions with a todo list of their own, read from their scope states:
 * every session scope with a list, unless the session is bound to a live
 * work (it rolls the plan, and shows under it).
 */
function listSessions(scopeReads: ScopeReads, works: readonly Work[]): ListSessionStatus[] {
	if (!scopeReads) return [];
	const bound = new Set(
		works
			.filter((work) => work.status === "active" || work.status === "paused")
			.flatMap((work) => work.sessions.map((session) => sessionKey(session.harness, session.sessionId))),
	);
	const found: ListSessionStatus[] = [];
	for (const [key, read] of scopeReads) {
		const decoded = sessionOfScopeKey(key);
		if (!decoded) continue;
		if (read.kind !== "ok") continue;
		const state = read.value;
		const todos = state.todos ?? [];
		const harness = state.observed.harness ?? decoded.harness;
		const sessionId = state.observed.sessionId ?? decoded.sessionId;
		if (todos.length === 0 || bound.has(sessionKey(harness, sessionId))) continue;
		const counts = countTodos(todos);
		const next = nextOpenTodos(todos, 1)[0]?.content ?? null;
		found.push({
			harness,
			sessionId,
			counts: {
				total: counts.total,
				open: counts.open,
				done: counts.completed,
				blocked: counts.blocked,
				cancelled: counts.cancelled,
			},
			next,
			items: todos.map((todo) => ({ content: todo.content, status: todo.status })),
			stoppedBy: state.disabled?.by ?? null,
			lastDecision: null,
			lastActive: Math.max(state.turn?.endedAt ?? 0, state.turn?.startedAt ?? 0, state.lastDecision?.at ?? 0),
		});
	}
	return found;
}

function withLastDecisions(lists: ListSessionStatus[], decisions: readonly DecisionRecord[]): ListSessionStatus[] {
	const last = new Map<string, DecisionRecord>();
	for (const record of decisions) {
		if (record.harness && record.session && standing(record))
			last.set(sessionKey(record.harness, record.session), record);
	}
	return lists
		.map((list) => {
			const record = last.get(sessionKey(list.harness, list.sessionId)) ?? null;
			return { ...list, lastDecision: record, lastActive: Math.max(list.lastActive, record?.at ?? 0) };
		})
		.sort((a, b) => b.lastActive - a.lastActive || a.sessionId.localeCompare(b.sessionId));
}

/**
 * Every worktree in the user-level index. A worktree whose state cannot be
 * read is listed with its problem; one whose folder is gone is named in
 * `vanished` and skipped.
 */
export async function readStatusAll(
	options: StatusOptions & { index?: WorktreeIndexOptions; concurrency?: number },
): Promise<StatusAll> {
	const { entries, problem } = await readWorktreeList(options.index ?? {});
	const present: string[] = [];
	const vanished: string[] = [];
	for (const entry of entries) ((await folderExists(entry.root)) ? present : vanished).push(entry.root);
	const worktrees = await mapLimited(present, options.concurrency ?? 8, async (root) => {
		try {
			const env = options.index?.env ?? options.env ?? process.env;
			return await readWorktreeStatus(projectStore(findProject(root), env as NodeJS.ProcessEnv), options);
		} catch (error) {
			return {
				worktree: root,
				stopped: null,
				works: [],
				lastDecision: null,
				sessions: [],
				problem: error instanceof Error ? error.message : String(error),
				configProblem: null,
				standings: [],
				problemCount: 1,
			};
		}
	});
	return {
		worktrees,
		vanished,
		indexProblem: problem ? indexProblemText(problem) : null,
		counts: statusCounts(worktrees, vanished),
	};
}

export function indexProblemText(problem: StateProblem): string {
	const what = problem.movedTo
		? `was moved aside to ${problem.movedTo}; it is rebuilt as boulder is used in each worktree again`
		: "was left in place";
	return `the worktree index ${problem.file} could not be read (${problem.reason}) and ${what}`;
}

async function workStatus(
	store: Store,
	work: Work,
	context: {
		now: number;
		plans: PlanSource;
		summaries: SummaryCache | null;
		scopes: ReadonlySet<string> | null;
		scopeReads: ScopeReads;
		active: boolean;
		lastDecision: DecisionRecord | null;
		/** The trust record, read once for the worktree's live works; null when none is live. */
		trust: Awaited<ReturnType<Store["readTrust"]>> | null;
	},
): Promise<WorkStatusView> {
	const live = work.status === "active" || work.status === "paused";
	const plan = await readProgress(context.plans, work, context.summaries);
	const sessions = await Promise.all(
		work.sessions.map(async (session) => ({
			harness: session.harness,
			sessionId: session.sessionId,
			how: session.how,
			stoppedBy: live ? await sessionStoppedBy(store, context.scopes, session, context.scopeReads) : null,
		})),
	);
	return {
		id: work.id,
		name: work.name,
		status: work.status,
		active: context.active,
		planPath: work.planPath,
		startedAt: work.startedAt,
		endedAt: work.endedAt,
		elapsedMs: elapsedOf(work, context.now),
		progress: plan.progress,
		next: plan.next,
		planProblem: plan.problem,
		sessions,
		lastDecision: context.lastDecision,
		lastVerification: work.lastVerification,
		orchestrate: work.mode === "orchestrate" || plan.orchestrate,
		subagents: subagentsInOrder(work.subagentSessions, plan.titles ?? []),
		foreign: live && context.trust ? (foreignOf(store, context.trust, work)?.why ?? null) : null,
	};
}

/** The subagent sessions per item, in the plan's order; items no longer in the plan last. */
function subagentsInOrder(
	sessions: Readonly<Record<string, string>>,
	titles: readonly string[],
): { item: string; session: string }[] {
	const entries = Object.entries(sessions);
	if (entries.length === 0) return [];
	const order = new Map(titles.map((title, index) => [canonicalText(title), index]));
	return entries
		.map(([item, session]) => ({ item, session }))
		.sort((a, b) => (order.get(a.item) ?? titles.length) - (order.get(b.item) ?? titles.length));
}

/** A plan's summary, or why it could not be read. */
type PlanRead = PlanSummary | (Pick<PlanSummary, "orchestrate" | "titles"> & PlanUnread);
type PlanUnread = { progress: null; next: null; problem: string };

/**
 * One status read's use of the worktree's plan-summary cache: the summaries
 * kept by the last read, and those to keep for the next (only the plans of
 * the works read this time, each with the stamp it was read at).
 */
interface SummaryCache {
	kept: PlanSummaries;
	next: PlanSummaries;
	changed: boolean;
}

async function openSummaries(store: Store, plans: PlanSource): Promise<SummaryCache | null> {
	if (!plans.stamp || !store.readPlanSummaries) return null;
	return { kept: await store.readPlanSummaries(), next: {}, changed: false };
}

async function keepSummaries(store: Store, cache: SummaryCache | null): Promise<void> {
	if (!cache || !store.writePlanSummaries) return;
	const dropped = Object.keys(cache.kept).some((file) => !(file in cache.next));
	if (!cache.changed && !dropped) return;
	try {
		await store.writePlanSummaries(cache.next);
	} catch {
		// A cache that cannot be written (a read-only checkout) costs the next status a parse, nothing more.
	}
}

async function readProgress(plans: PlanSource, work: Work, cache: SummaryCache | null): Promise<PlanRead> {
	const file = path.resolve(work.worktree, work.planPath);
	const stamp = cache ? await plans.stamp?.(work.worktree, work.planPath) : null;
	const kept = cache?.kept[file];
	const needsTitles = Object.keys(work.subagentSessions).length > 0;
	if (cache && stamp && kept?.stamp === stamp && (kept.summary.titles || !needsTitles)) {
		cache.next[file] = kept;
		return kept.summary;
	}
	const unread = { progress: null, next: null, orchestrate: false, titles: [] };
	let text: string | null;
	try {
		text = await plans.read(work.worktree, work.planPath);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { ...unread, problem: `the plan file ${work.planPath} cannot be read: ${message}` };
	}
	if (text === null) return { ...unread, problem: `the plan file ${work.planPath} is missing` };
	const summary = summarizePlan(parsePlan(text, work.planPath));
	if (cache && stamp) {
		const { titles, ...rest } = summary;
		cache.next[file] = { stamp, summary: needsTitles ? summary : rest };
		cache.changed = true;
	}
	return summary;
}

/** Until the end for finished works; until `now` for live ones (paused time included). */
export function elapsedOf(work: Work, now: number): number {
	const live = work.status === "active" || work.status === "paused";
	return live
		? Math.max(0, now - work.startedAt)
		: (work.elapsedMs ?? Math.max(0, (work.endedAt ?? now) - work.startedAt));
}

async function sessionStoppedBy(
	store: Store,
	scopes: ReadonlySet<string> | null,
	session: { harness: string; sessionId: string },
	scopeReads: ScopeReads,
): Promise<string | null> {
	const key = scopeKey({ kind: "session", harness: session.harness, sessionId: session.sessionId });
	if (key === null || (scopes && !scopes.has(key))) return null;
	const read = scopeReads?.get(key) ?? (await store.readScope(key));
	return read.kind === "ok" ? (read.value.disabled?.by ?? null) : null;
}

/**
 * Whether a log line may be status's last word: a decision, or an event that
 * changes where things stand. A note along the way (context given at a
 * resume, a reminder) would read as the session's state and hide the decision
 * that still holds.
 */
function standing(record: DecisionRecord): boolean {
	return record.kind !== "event" || changesStanding(record.reason);
}

function lastOf(records: readonly DecisionRecord[]): DecisionRecord | null {
	return records.findLast(standing) ?? null;
}

/** Synchronous: `--all` looks at every known worktree, and a plain stat is cheaper than a thread-pool trip. */
export async function folderExists(dir: string): Promise<boolean> {
	try {
		return statSync(dir).isDirectory();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
			return false;
		}
		throw error;
	}
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await fn(items[index] as T);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
	return results;
}

/** The config loads, or why it does not (the message names the file, the key and what was expected). */
function configProblemOf(worktree: string, env: NodeJS.ProcessEnv): string | null {
	try {
		loadConfig(worktree, env);
		return null;
	} catch (error) {
		if (isBoulderError(error)) return error.message;
		throw error;
	}
}
