/**
 * Stop's `background_tasks` (Claude Code's, and the harnesses that copied
 * it): the tasks a turn left running, whose end the agent may be waiting for.
 */
import type { NamedTask } from "../../core/watchdog.js";
import { isRecord } from "./hook-input.js";

const FINISHED_TASK = /^(completed|complete|done|failed|error|killed|stopped|cancelled|canceled)$/i;

/** How many are still running (an entry without a status counts as running); null when the field is absent. */
export function runningBackgroundTasks(value: unknown): number | null {
	if (!Array.isArray(value)) return null;
	return value.filter(isRunning).length;
}

/**
 * The running ones that carry an id, with their agent type (a subagent's
 * `agent_type`), for the watchdog; null when the field is absent. One without
 * an id is counted by `runningBackgroundTasks` but never timed.
 */
export function namedBackgroundTasks(value: unknown): NamedTask[] | null {
	if (!Array.isArray(value)) return null;
	return value.filter(isRunning).flatMap((task) => {
		if (!isRecord(task) || typeof task.id !== "string" || task.id === "") return [];
		const agent = typeof task.agent_type === "string" && task.agent_type !== "" ? task.agent_type : null;
		return [{ id: task.id, agent }];
	});
}

/**
 * The ids of the running subagents (`type: "subagent"`) a watcher can wait
 * on, or none. While a watcher runs, Claude Code holds back the notification
 * of any background task that finishes, and only a subagent's end is seen
 * (SubagentStop), which ends the watcher. So with anything else running (a
 * background shell) there is no watcher: the shell's end wakes the parent as
 * it would without boulder, and the Stop after it watches what is left.
 */
export function watchableSubagents(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	const running = value.filter(isRunning);
	const subagent = (task: unknown): task is { id: string } =>
		isRecord(task) && task.type === "subagent" && typeof task.id === "string" && task.id !== "";
	return running.every(subagent) ? running.map((task) => task.id) : [];
}

function isRunning(task: unknown): boolean {
	return !(isRecord(task) && typeof task.status === "string" && FINISHED_TASK.test(task.status));
}
