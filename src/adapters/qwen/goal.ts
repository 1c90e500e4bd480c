/**
 * Qwen Code's own goal mode (0.24: `/goal OBJECTIVE`, also under `qwen -p`),
 * read from the session's transcript. An active goal runs turn after turn on
 * its own (a `goal_runtime` prompt, "Continue working on the active Goal"),
 * until its verifier accepts the model's completion, a window (turns, tokens,
 * time) runs out, or it pauses itself (Esc; three turns with nothing to
 * judge). boulder and the goal must not both push the agent, so the Stop hook
 * asks here whether a goal is active, and the engine stands down
 * (`builtInGoals`).
 *
 * What the transcript shows (seen, 0.24.4): every change of the goal is a
 * record `{type: "system", subtype: "goal_state", systemPayload: {cause,
 * snapshot: {goal: {objective, status, ...}}}}` (`cause` `create`,
 * `turn_finished`, `pause`, ...). The newest such record decides: the goal is
 * active while its status is `active`. A snapshot without a goal (a cleared
 * one; its exact shape is unverified) is none.
 *
 * Only the tail of the file is read (`GOAL_TAIL_BYTES`): an active goal writes
 * a record at the end of each of its turns.
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the transcript's end is read. */
export const GOAL_TAIL_BYTES = 1024 * 1024;

/** The active goal's objective ("a goal" when it names none), or null. */
export async function readQwenGoal(file: string, tailBytes = GOAL_TAIL_BYTES): Promise<string | null> {
	// Only a regular file, opened without blocking: a FIFO in its place is a problem, never a wait.
	return qwenGoalOfLines(await readTailLines(file, tailBytes));
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
		return typeof goal.objective === "string" && goal.objective.trim() !== "" ? goal.objective.trim() : "a goal";
	}
	return null;
}

/** The name the `why` line gives the goal. */
export function qwenGoalDriverName(objective: string): string {
	return objective === "a goal" ? "Qwen Code's goal" : `Qwen Code's goal "${objective}"`;
}
