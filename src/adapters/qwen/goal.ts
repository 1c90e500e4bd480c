/**
 * Qwen Code's own goal (`/goal`), which runs turn after turn by itself: boulder
 * must not push the agent beside it, so the Stop hook asks here and the engine
 * stands down (`builtInGoals`). The newest `goal_state` record in the
 * transcript's tail decides (`docs/qwen-notes.md`, "Its own goals").
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { newestInTail } from "../command-hook/turn-reader.js";
import { isRecord, nonEmptyText } from "../shared/hook-input.js";

const GOAL = newestInTail(1024 * 1024, ['"goal_state"'], goalOfRecord, null);
/** The active goal's objective ("a goal" when it names none), or null. */
export const readQwenGoal = GOAL.read;
/** Pure: the active goal from transcript lines, oldest first; null when none is active. */
export const qwenGoalOfLines = GOAL.ofLines;

/** What one record says of the goal: its objective (active), null (none active), undefined (nothing). */
function goalOfRecord(record: Record<string, unknown>): string | null | undefined {
	if (record.subtype !== "goal_state" || !isRecord(record.systemPayload)) return undefined;
	const snapshot = record.systemPayload.snapshot;
	if (!isRecord(snapshot)) return undefined;
	const goal = snapshot.goal;
	if (!isRecord(goal) || goal.status !== "active") return null;
	return nonEmptyText(goal.objective)?.trim() ?? "a goal";
}

/** The name the `why` line gives the goal. */
export function qwenGoalDriverName(objective: string): string {
	return objective === "a goal" ? "Qwen Code's goal" : `Qwen Code's goal "${objective}"`;
}
