/**
 * Qwen Code's own goal (`/goal`), which runs turn after turn by itself: boulder
 * must not push the agent beside it, so the Stop hook asks here and the engine
 * stands down (`builtInGoals`). The newest `goal_state` record in the
 * transcript's tail decides (`docs/qwen-notes.md`, "Its own goals").
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord, nonEmptyText } from "../shared/hook-input.js";

const GOAL_TAIL_BYTES = 1024 * 1024;

/** The active goal's objective ("a goal" when it names none), or null. */
export async function readQwenGoal(file: string): Promise<string | null> {
	return qwenGoalOfLines(await readTailLines(file, GOAL_TAIL_BYTES));
}

/** Pure: the active goal from transcript lines, oldest first; null when none is active. */
export function qwenGoalOfLines(lines: readonly string[]): string | null {
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index] ?? "";
		if (!line.includes('"goal_state"')) continue;
		const record = parseLine(line);
		if (record === null || record.subtype !== "goal_state" || !isRecord(record.systemPayload)) continue;
		const snapshot = record.systemPayload.snapshot;
		if (!isRecord(snapshot)) continue;
		const goal = snapshot.goal;
		if (!isRecord(goal) || goal.status !== "active") return null;
		return nonEmptyText(goal.objective)?.trim() ?? "a goal";
	}
	return null;
}

/** The name the `why` line gives the goal. */
export function qwenGoalDriverName(objective: string): string {
	return objective === "a goal" ? "Qwen Code's goal" : `Qwen Code's goal "${objective}"`;
}
