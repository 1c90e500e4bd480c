/**
 * The watchdog on subagents and background tasks: one that has run past its
 * limit (the default, or its agent type's) no longer holds its parent in
 * `background-busy`. The policy then treats it as not running, and the nudge
 * names it and its age so the parent can treat it as failed or check on it.
 * Pure: the tasks, the limits and `now` are arguments.
 */
import type { Config } from "./config.js";
import type { BackgroundTask, ContinuationState } from "./turns.js";

export interface OverdueTask {
	task: BackgroundTask;
	ageMs: number;
	limitMs: number;
}

export function limitFor(agent: string | null, watchdog: Config["watchdog"]): number {
	const wanted = agent?.trim().toLowerCase();
	if (wanted) {
		for (const [name, limit] of Object.entries(watchdog.perAgent)) if (name.toLowerCase() === wanted) return limit;
	}
	return watchdog.limitMs;
}

/** A running task the harness names but does not time (Claude Code's Stop lists no start). */
export interface NamedTask {
	id: string;
	agent: string | null;
}

/**
 * The named tasks, each timed from the first time it was seen running: the
 * start kept for an id already known, `now` for a new one. A task no longer
 * listed is dropped, so an id seen again later starts afresh. The age is at
 * most the task's real age, so the watchdog never calls a task overdue early.
 */
export function timedFromFirstSight(
	named: readonly NamedTask[],
	known: readonly BackgroundTask[],
	now: number,
): BackgroundTask[] {
	return named.map((task) => ({
		id: task.id,
		agent: task.agent,
		startedAt: known.find((seen) => seen.id === task.id)?.startedAt ?? now,
	}));
}

/** The tasks past their limit at `now`, oldest first. */
export function overdueTasks(
	tasks: readonly BackgroundTask[],
	watchdog: Config["watchdog"],
	now: number,
): OverdueTask[] {
	return tasks
		.map((task) => ({ task, ageMs: Math.max(0, now - task.startedAt), limitMs: limitFor(task.agent, watchdog) }))
		.filter((entry) => entry.ageMs >= entry.limitMs)
		.sort((a, b) => b.ageMs - a.ageMs);
}

/** When the first task still within its limit runs past it: the time to decide again. null when none will. */
export function nextDeadline(
	tasks: readonly BackgroundTask[],
	watchdog: Config["watchdog"],
	now: number,
): number | null {
	const deadlines = tasks
		.map((task) => task.startedAt + limitFor(task.agent, watchdog))
		.filter((deadline) => deadline > now);
	return deadlines.length > 0 ? Math.min(...deadlines) : null;
}

/** A task as people read it: `ses_1 (explore)`. */
export function taskName(task: BackgroundTask): string {
	return task.agent ? `${task.id} (${task.agent})` : task.id;
}

/** An age as people read it: 45 s, 12 min, 2 h 5 min. */
export function ageText(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 120) return `${minutes} min`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The policy's words for the overdue tasks, for a decision's detail. */
export function overdueText(overdue: readonly OverdueTask[]): string {
	return overdue
		.map(
			(entry) => `${taskName(entry.task)} has run ${ageText(entry.ageMs)}, past its limit of ${ageText(entry.limitMs)}`,
		)
		.join("; ");
}

/**
 * What a watcher at the deadline sees, for a harness where no event comes
 * while a parent waits on its background work (Claude Code):
 * - `waiting`: the session's last decision let it wait (`background-busy`)
 *   for the turn that has ended, and one of the `watched` tasks runs past its
 *   limit after that decision. `since` is that decision's time, its identity:
 *   any decision after it means the session has moved on.
 * - `decided`: the turn that ended was decided otherwise (or nothing watched
 *   is left to run past its limit), at `at`.
 * - `running`: a turn runs, or none has ended yet.
 */
export type BackgroundWait =
	| { kind: "waiting"; since: number; deadline: number }
	| { kind: "decided"; at: number }
	| { kind: "running" };

export function backgroundWait(
	state: ContinuationState,
	watched: readonly string[],
	watchdog: Config["watchdog"],
): BackgroundWait {
	const { turn, lastDecision: last } = state;
	if (turn === null || turn.outcome === null || last === null || last.turnSeq !== turn.seq) return { kind: "running" };
	if (last.kind !== "skip" || last.reason !== "background-busy") return { kind: "decided", at: last.at };
	const deadlines = (state.observed.background ?? [])
		.filter((task) => watched.includes(task.id))
		.map((task) => task.startedAt + limitFor(task.agent, watchdog))
		.filter((deadline) => deadline > last.at);
	if (deadlines.length === 0) return { kind: "decided", at: last.at };
	return { kind: "waiting", since: last.at, deadline: Math.min(...deadlines) };
}

/** Said of a decision taken at a task's deadline by the watcher, not at the end of a turn. */
export const AT_DEADLINE = "decided at the deadline of a task the session waited on, with no turn since";
