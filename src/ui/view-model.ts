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
import { countTodos, nextOpenTodos, type Todo } from "../core/todos.js";
import type { FleetSession, FleetSnapshot, FleetWork, FleetWorktreeData } from "../engine/fleet.js";
import { lastActive } from "../engine/fleet-worktree.js";
import { formatElapsed } from "../present/format-time.js";
import { progressText, sessionLabel } from "../present/render/progress.js";
import { explain } from "../present/why-text.js";
import type {
	Badge,
	DashboardView,
	GaugeView,
	SessionView,
	TimelineEntry,
	WorktreeView,
	WorkView,
} from "./view-types.js";

/** Timeline lines a new page gets; it shows no more than these. */
export const TIMELINE_SENT = 200;

export function dashboardView(snapshot: FleetSnapshot, now: number, version: number): DashboardView {
	return {
		now,
		version,
		indexProblem: snapshot.indexProblem,
		worktrees: snapshot.worktrees.map((worktree) => worktreeView(worktree, now)),
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
	const works = data.works.map((work) => workView(work));
	const names = new Map(works.map((work) => [work.id, work.name]));
	const sessions = data.sessions.map((session) => sessionView(session, data.config, names, now));
	return {
		root: data.root,
		name: baseName(data.root),
		vanished: data.vanished,
		badge: worktreeBadge(data, sessions),
		stopped: data.stopped,
		problems,
		works: data.vanished ? [] : works,
		sessions: data.vanished ? [] : sessions,
	};
}

function worktreeBadge(data: FleetWorktreeData, sessions: readonly SessionView[]): Badge {
	if (data.vanished) return { text: "vanished", tone: "idle" };
	if (data.problem || data.configProblem) return { text: "problem", tone: "problem" };
	if (data.stopped) return { text: "stopped", tone: "stop" };
	if (sessions.some((session) => session.waiting)) return { text: "waits for you", tone: "skip" };
	if (sessions.some((session) => session.badge.text === "rolling")) return { text: "rolling", tone: "go" };
	if (data.works.some((work) => work.work.status === "active")) return { text: "on", tone: "go" };
	return { text: "idle", tone: "idle" };
}

function workView(fleet: FleetWork): WorkView {
	const { work } = fleet;
	const live = work.status === "active" || work.status === "paused";
	return {
		id: work.id,
		name: clipTitle(work.name),
		status: work.status,
		active: fleet.active,
		planPath: work.planPath,
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
	};
}

function sessionView(
	session: FleetSession,
	config: Config | null,
	workNames: ReadonlyMap<string, string>,
	now: number,
): SessionView {
	const state = session.state;
	const episode = state?.episode ?? null;
	const label =
		session.harness && session.sessionId
			? sessionLabel({ harness: session.harness, sessionId: session.sessionId })
			: session.scope;
	const waiting = waitingOf(session);
	const last = session.lastRecord ? timelineEntry(session.lastRecord, now) : null;
	return {
		scope: session.scope,
		harness: session.harness,
		sessionId: session.sessionId,
		label,
		workId: session.work,
		workName: session.work ? (workNames.get(session.work) ?? session.work) : null,
		badge: sessionBadge(session, waiting),
		stoppedBy: state?.disabled?.by ?? null,
		problem: session.problem,
		gauges: episode && config ? gauges(episode, config, now) : [],
		episodeStartedAt: episode?.startedAt ?? null,
		stagnation: episode && config ? { count: episode.stagnation, limit: config.stagnationLimit } : null,
		waiting,
		last,
		lastActive: lastActive(session),
		list: session.work ? null : ownList(state?.todos ?? null),
	};
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

function sessionBadge(session: FleetSession, waiting: string | null): Badge {
	const state = session.state;
	if (session.problem) return { text: "problem", tone: "problem" };
	if (!state) return { text: "unknown", tone: "idle" };
	if (state.disabled) return { text: "stopped", tone: "stop" };
	if (waiting) return { text: "waits for you", tone: "skip" };
	const last = state.lastDecision;
	if (state.turn && state.turn.outcome === null) {
		return { text: state.turn.provenance === "continuation" ? "rolling" : "working", tone: "go" };
	}
	if (!last) return { text: "idle", tone: "idle" };
	if (last.kind === "inject") return { text: "rolling", tone: "go" };
	if (last.kind === "complete") return { text: "done", tone: "done" };
	if (last.reason.startsWith("budget-") || last.reason === "stagnation" || last.reason === "harness-cap")
		return { text: "held", tone: "stop" };
	return { text: "idle", tone: "idle" };
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

/** `1.2M`, `35k`, `980`: token counts as people read them. */
export function formatCount(value: number): string {
	if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
	if (value >= 1_000) return `${trim(value / 1_000)}k`;
	return String(value);
}

function trim(value: number): string {
	return value >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

function baseName(root: string): string {
	const parts = root.split(/[\\/]/).filter(Boolean);
	return parts.at(-1) ?? root;
}
