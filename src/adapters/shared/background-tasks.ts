/**
 * Stop's `background_tasks` (Claude Code's, and the harnesses that copied
 * it): the tasks a turn left running, whose end the agent may be waiting for.
 */
import { isRecord } from "./hook-input.js";

const FINISHED_TASK = /^(completed|complete|done|failed|error|killed|stopped|cancelled|canceled)$/i;

/** How many are still running (an entry without a status counts as running); null when the field is absent. */
export function runningBackgroundTasks(value: unknown): number | null {
	if (!Array.isArray(value)) return null;
	return value.filter((task) => !(isRecord(task) && typeof task.status === "string" && FINISHED_TASK.test(task.status)))
		.length;
}
