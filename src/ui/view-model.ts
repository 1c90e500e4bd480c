/**
 * Turns the engine's fleet read model into what the page draws: the words
 * `boulder why` and `boulder status` use, a badge (word and tone) per
 * worktree, work and session, and the episode's budgets as gauges against
 * the limits the worktree's config gives them now. Pure: the time is an
 * argument.
 */

import { allowanceOf } from "../core/budget.js";
import { clipTitle } from "../core/clip.js";
import type { Config } from "../core/config.js";
import type { DecisionRecord } from "../core/decision-record.js";
import { type Standing, sessionStanding } from "../core/standing.js";
import { countTodos, nextOpenTodos, type Todo } from "../core/todos.js";
import type { FleetSession, FleetSnapshot, FleetWork, FleetWorktreeData } from "../engine/fleet.js";
import { lastActive } from "../engine/fleet-worktree.js";
import { formatElapsed } from "../present/format-time.js";
import { progressText, sessionLabel } from "../present/render/progress.js";
import { explain } from "../present/why-text.js";
import { formatCount } from "./client/format-count.js";
import type {
	Badge,
	DashboardView,
	GaugeView,
	NeedView,
	ProgressPoint,
	SessionView,
	TimelineEntry,
	TokenPoint,
	TurnMark,
	WorktreeView,
	WorkView,
} from "./view-types.js";

export { formatCount } from "./client/format-count.js";

/** Points a chart gets at most: the newest, so a long log keeps the view small. */
export const CHART_POINTS = 24;

/** Timeline lines a new page gets; it shows no more than these. */
export const TIMELINE_SENT = 200;

export function dashboardView(snapshot: FleetSnapshot, now: number, version: number): DashboardView {
	return {
		now,
		version,
		indexProblem: snapshot.indexProblem,
		// By path, not by the index's "most recently seen": cards keep their places as sessions come and go.
		worktrees: snapshot.worktrees
			.map((worktree) => worktreeView(worktree, now))
			.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0)),
		timeline: snapshot.timeline.slice(-TIMELINE_SENT).map((record) => timelineEntry(record, now)),
	};
}

export function worktreeView(data: FleetWorktreeData, now: number): WorktreeView {
	const problems = [
		...(data.problem ? [data.problem] : []),
		...(data.configProblem
			? [
					`boulder's config is invalid, so nothing is continued here until it is fixed: ${data.configProblem}; \`boulder doctor\` explains`,
				]
			: []),
		...(data.skippedLines > 0
			? [`${data.skippedLines} line(s) of the decision log could not be read and are skipped`]
			: []),
	];
	const works = data.works.map((work) => workView(work, data, now));
	const names = new Map(works.map((work) => [work.id, work.name]));
	const sessions = data.sessions.map((session) => sessionView(session, data, names, now));
	// A finished work's plan is often removed once done: only a live work's plan is a problem to fix.
	const planProblems = works.filter((work) => isLive(work.status) && work.planProblem !== null);
	const sessionProblems = sessions.filter((session) => session.problem !== null);
	const shown = !data.vanished;
	const needs: NeedView[] = shown
		? [
				...problems.map((why) => ({
					why,
					fix: "Fix it (nothing is lost: the file is left in place)",
					command: "boulder doctor",
				})),
				...planProblems.map((work) => ({
					why: `${work.name}: ${work.planProblem}`,
					fix: "Put the plan back, or abandon the work",
					command: "boulder doctor",
				})),
				...sessions.flatMap((session) => (session.need ? [session.need] : [])),
			]
		: [];
	return {
		root: data.root,
		name: baseName(data.root),
		vanished: data.vanished,
		badge: worktreeBadge(data, sessions, problems.length + planProblems.length + sessionProblems.length),
		stopped: data.stopped,
		problems,
		problemCount: shown ? problems.length + planProblems.length + sessionProblems.length : 0,
		needs,
		works: shown ? works : [],
		sessions: shown ? sessions : [],
	};
}

/** The worktree's word: its most pressing state, so a problem or a held session is never read as `on`. */
function worktreeBadge(data: FleetWorktreeData, sessions: readonly SessionView[], problems: number): Badge {
	const any = (standing: Standing) => sessions.some((session) => session.standing === standing);
	if (data.vanished) return { text: "vanished", tone: "idle" };
	if (problems > 0) return { text: "problem", tone: "problem" };
	if (data.stopped) return { text: "stopped", tone: "stop" };
	if (any("waiting")) return { text: "waits for you", tone: "skip" };
	if (any("verify-failed")) return { text: "verify failed", tone: "problem" };
	if (any("held")) return { text: "held", tone: "stop" };
	if (any("rolling")) return { text: "rolling", tone: "go" };
	if (data.works.some((work) => work.work.status === "active")) return { text: "on", tone: "go" };
	return { text: "idle", tone: "idle" };
}

function workView(fleet: FleetWork, data: FleetWorktreeData, now: number): WorkView {
	const { work } = fleet;
	const live = work.status === "active" || work.status === "paused";
	return {
		id: work.id,
		name: clipTitle(work.name),
		status: work.status,
		active: fleet.active,
		planPath: work.planPath,
		planFile: joinPath(data.root, work.planPath),
		progress: fleet.progress,
		progressText: fleet.progress ? progressText(fleet.progress) : "progress unknown",
		startedAt: work.startedAt,
		elapsedMs: live ? null : (work.elapsedMs ?? Math.max(0, (work.endedAt ?? work.startedAt) - work.startedAt)),
		next: fleet.next === null ? null : clipTitle(fleet.next),
		// Items are sent when their section is opened (`/api/items`): a big fleet's first view stays small.
		itemCount: fleet.items.length,
		verify: fleet.verify,
		lastVerification: fleet.lastVerification,
		planProblem: fleet.planProblem,
		sessions: work.sessions.map((session) => `${sessionLabel(session)} (${session.how})`),
		history: live ? progressHistory(data.decisions, work.id, fleet.progress, now) : [],
	};
}

/** Items done against time, from the figures each decision about the work logged; the plan as it is now last. */
function progressHistory(
	records: readonly DecisionRecord[],
	work: string,
	progress: FleetWork["progress"],
	now: number,
): ProgressPoint[] {
	const points: ProgressPoint[] = [];
	for (const record of records) {
		const total = record.figures?.total;
		if (record.work !== work || record.kind === "event" || total === undefined || total <= 0) continue;
		points.push({ at: record.at, done: record.figures?.done ?? 0, total, nudge: record.kind === "inject" });
	}
	const kept = points.slice(-CHART_POINTS);
	if (progress && progress.total > 0 && kept.length > 0) {
		kept.push({ at: Math.max(now, kept.at(-1)?.at ?? now), done: progress.done, total: progress.total, nudge: false });
	}
	return kept;
}

function sessionView(
	session: FleetSession,
	data: FleetWorktreeData,
	workNames: ReadonlyMap<string, string>,
	now: number,
): SessionView {
	const config = data.config;
	const state = session.state;
	const episode = state?.episode ?? null;
	const label =
		session.harness && session.sessionId
			? sessionLabel({ harness: session.harness, sessionId: session.sessionId })
			: session.scope;
	const waiting = waitingOf(session);
	const last = session.lastRecord ? timelineEntry(session.lastRecord, now) : null;
	const standing = sessionStanding({
		state: session.state,
		unreadable: session.problem !== null,
		worktreeStopped: data.stopped !== null,
	});
	const records = data.decisions.filter(
		(record) => record.harness === session.harness && record.session === session.sessionId && record.session !== null,
	);
	const work = session.work ? data.works.find((entry) => entry.work.id === session.work) : undefined;
	return {
		scope: session.scope,
		harness: session.harness,
		sessionId: session.sessionId,
		label,
		standing,
		need: needOf(session, standing, waiting, label, work?.lastVerification ?? null),
		workId: session.work,
		workName: session.work ? (workNames.get(session.work) ?? session.work) : null,
		badge: sessionBadge(session, standing),
		stoppedBy: state?.disabled?.by ?? null,
		problem: session.problem,
		gauges: episode && config ? gauges(episode, config, now) : [],
		episodeStartedAt: episode?.startedAt ?? null,
		stagnation: episode && config ? { count: episode.stagnation, limit: config.stagnationLimit } : null,
		waiting,
		transcriptPath: state?.observed.transcriptPath ?? null,
		last,
		lastActive: lastActive(session),
		list: session.work ? null : ownList(state?.todos ?? null),
		turns: records.slice(-CHART_POINTS).map((record) => turnMark(record, now)),
		tokens: config ? tokenPoints(records, config) : [],
	};
}

function turnMark(record: DecisionRecord, now: number): TurnMark {
	const said = explain(record, now);
	const lane: TurnMark["lane"] =
		record.kind === "inject"
			? "continuation"
			: record.kind === "event"
				? record.reason === "user-turn"
					? "user"
					: "system"
				: "decision";
	return { at: record.at, lane, reason: record.reason, headline: said.headline, tone: said.tone };
}

/** The episode's tokens at each decision: the limit then (grown by what was earned) less what was left. */
function tokenPoints(records: readonly DecisionRecord[], config: Config): TokenPoint[] {
	const points: TokenPoint[] = [];
	for (const record of records) {
		const left = record.figures?.tokensLeft;
		if (record.kind === "event" || left === undefined) continue;
		const limit = allowanceOf(config.budgets, record.figures?.earned ?? 0).limit.tokens;
		points.push({ at: record.at, used: Math.max(0, limit - left), limit });
	}
	return points.slice(-CHART_POINTS);
}

const BUDGET_WORDS: Record<string, string> = {
	"budget-turns": "its automatic turns",
	"budget-tokens": "its tokens",
	"budget-time": "its time",
};

/** What a session needs from a person, and the one thing that resolves it. */
function needOf(
	session: FleetSession,
	standing: Standing,
	waiting: string | null,
	label: string,
	verification: FleetWork["lastVerification"],
): NeedView | null {
	const why = `--session ${session.sessionId ?? session.scope}`;
	switch (standing) {
		case "problem":
			return {
				why: `${label}: ${session.problem}`,
				fix: "Fix or remove the state file (the session starts afresh)",
				command: "boulder doctor",
			};
		case "waiting":
			return {
				why: `${label} ${waiting}`,
				fix: `Answer it in the ${session.harness ?? "harness"} session`,
				command: null,
			};
		case "verify-failed": {
			const command = verification?.command ?? null;
			const exit = verification?.exitCode ?? null;
			return {
				why: `${label}: the verify ${command ? `\`${command}\` ` : ""}failed${exit !== null ? ` (exit ${exit})` : ""}; the failure was sent back to the agent`,
				fix: command ? "Run the check yourself to see it" : "See why in the decision log",
				command: command ?? `boulder why ${why}`,
			};
		}
		case "held": {
			const reason = session.state?.lastDecision?.reason ?? "";
			const what =
				reason === "stagnation"
					? "the last nudges brought no progress"
					: `the episode spent ${BUDGET_WORDS[reason] ?? "its budget"}`;
			return {
				why: `${label} is held: ${what}`,
				fix: "Write to it in its session: your next message starts a new episode",
				command: `boulder why ${why}`,
			};
		}
		default:
			return null;
	}
}

/** A session's own todo list as a card shows it: the same rows as a plan's items, without criteria. */
function ownList(todos: readonly Todo[] | null): SessionView["list"] {
	if (!todos || todos.length === 0) return null;
	const counts = countTodos(todos);
	return {
		progressText: `${counts.open} open, ${progressText({ ...counts, done: counts.completed })}`,
		open: counts.open,
		next: nextOpenTodos(todos, 1)[0]?.content ?? null,
		items: todos.map((todo) => ({ title: todo.content, status: todo.status, section: null, criteria: [] })),
	};
}

function gauges(
	episode: NonNullable<FleetSession["state"]>["episode"] & object,
	config: Config,
	now: number,
): GaugeView[] {
	const { limit } = allowanceOf(config.budgets, episode.earned);
	const wall = Math.max(0, now - episode.startedAt);
	return [
		{
			label: "auto turns",
			used: episode.autoTurns,
			limit: limit.autoTurns,
			usedText: String(episode.autoTurns),
			limitText: String(limit.autoTurns),
		},
		{
			label: "real tokens",
			used: episode.tokens,
			limit: limit.tokens,
			usedText: formatCount(episode.tokens),
			limitText: formatCount(limit.tokens),
		},
		{
			label: "wall clock",
			used: wall,
			limit: limit.wallClockMs,
			usedText: formatElapsed(wall),
			limitText: formatElapsed(limit.wallClockMs),
		},
	];
}

/** Why the session waits for its user, in the words `boulder why` uses; null when it does not. */
function waitingOf(session: FleetSession): string | null {
	const state = session.state;
	if (!state) return null;
	const pending = state.observed.pendingInput;
	if (pending) {
		const what = { question: "a question", permission: "a permission request", wait: "your answer" }[pending.kind];
		return `waits for you: ${what}${pending.detail ? ` (${pending.detail})` : ""}`;
	}
	if (state.abortBlock) {
		return state.abortBlock.how === "interrupt"
			? "you interrupted the agent; waiting for your next message"
			: "the run was interrupted; waiting for your next message";
	}
	if (state.lastDecision?.reason === "awaiting-user") return "the agent asked you something and waits";
	return null;
}

function sessionBadge(session: FleetSession, standing: Standing): Badge {
	const turn = session.state?.turn;
	switch (standing) {
		case "problem":
			return { text: "problem", tone: "problem" };
		case "off":
			return { text: "stopped", tone: "stop" };
		case "waiting":
			return { text: "waits for you", tone: "skip" };
		case "verify-failed":
			return { text: "verify failed", tone: "problem" };
		case "held":
			return { text: "held", tone: "stop" };
		case "rolling":
			return {
				text: turn && turn.outcome === null && turn.provenance !== "continuation" ? "working" : "rolling",
				tone: "go",
			};
		case "done":
			return { text: "done", tone: "done" };
		default:
			return { text: session.state ? "idle" : "unknown", tone: "idle" };
	}
}

export function timelineEntry(record: DecisionRecord, now: number): TimelineEntry {
	const said = explain(record, now);
	return {
		at: record.at,
		worktree: record.worktree,
		worktreeName: baseName(record.worktree),
		harness: record.harness,
		session: record.session,
		sessionLabel:
			record.harness && record.session ? sessionLabel({ harness: record.harness, sessionId: record.session }) : null,
		work: record.work,
		kind: record.kind,
		reason: record.reason,
		headline: said.headline,
		text: said.text,
		tone: said.tone,
	};
}

function isLive(status: WorkView["status"]): boolean {
	return status === "active" || status === "paused";
}

function joinPath(root: string, file: string): string {
	if (file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file)) return file;
	return `${root.replace(/[\\/]+$/, "")}${root.includes("\\") && !root.includes("/") ? "\\" : "/"}${file}`;
}

function baseName(root: string): string {
	const parts = root.split(/[\\/]/).filter(Boolean);
	return parts.at(-1) ?? root;
}
