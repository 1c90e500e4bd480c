/**
 * Claude Code's `/goal`: boulder and the goal must not both push the agent, so the Stop hook asks here whether
 * one is active (the last `goal_status` line of the transcript's tail says `met: false`, and no `/goal clear`
 * came after; notes) and the engine stands down (`builtInGoals`). A Stop reads it in the turn's own scan.
 * Contract: never throws for what the file holds; an unreadable file is reported as an error to the caller,
 * which treats it as no goal.
 */
import { newestInTail, parseLine, type TailWatch } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the transcript's end is read: an active goal was checked at the last Stop, near the end. */
export const GOAL_TAIL_BYTES = 256 * 1024;

const CLEAR = /^\s*(clear|off|stop|cancel)\b/i;
/** What a line that speaks of the goal holds. */
const GOAL_MARKS = ['"goal_status"', '"goal"'];

/** What one record says of the goal: its condition (active), null (none active), undefined (nothing). */
function goalOfRecord(record: Record<string, unknown>): string | null | undefined {
	const attachment = record.attachment;
	if (isRecord(attachment) && attachment.type === "goal_status") {
		if (attachment.met !== false) return null;
		return typeof attachment.condition === "string" && attachment.condition !== "" ? attachment.condition : "a goal";
	}
	const command = record.commandRun;
	if (isRecord(command) && command.command === "goal" && typeof command.args === "string" && CLEAR.test(command.args)) {
		return null;
	}
	return undefined;
}

const GOAL = newestInTail(GOAL_TAIL_BYTES, GOAL_MARKS, goalOfRecord, null);
/** The condition of the goal active in this transcript (in its last `tailBytes`), or null. */
export const activeGoal = GOAL.read;
/** Pure: the active goal's condition from transcript lines, oldest first; null when none is active. */
export const goalOfLines = GOAL.ofLines;

/**
 * A Stop's two readers as one reading: `readGoal` takes the goal from `readTurn`'s last (settled) reading of the
 * same file, and reads the file itself only when that reading did not cover its tail.
 */
export function goalWithTurn<O extends object, T extends { goal?: string | null }>(
	readTurn: (file: string, options: O & { withGoal?: number }) => Promise<T>,
	tailBytes = GOAL_TAIL_BYTES,
): { readTurn: (file: string, options: O) => Promise<T>; readGoal: (file: string) => Promise<string | null> } {
	let last: { file: string; goal: string | null } | null = null;
	return {
		readTurn: async (file, options) => {
			last = null;
			const turn = await readTurn(file, { ...options, withGoal: tailBytes });
			if (turn.goal !== undefined) last = { file, goal: turn.goal };
			return turn;
		},
		readGoal: (file) =>
			last !== null && last.file === file ? Promise.resolve(last.goal) : activeGoal(file, tailBytes),
	};
}

/** The goal read from the turn's scan, newest line first: what `activeGoal` would find, once decided. */
export class GoalWatch implements TailWatch {
	goal: string | null | undefined = undefined;
	constructor(readonly bytes = GOAL_TAIL_BYTES) {}

	take(line: Buffer): boolean {
		if (!GOAL_MARKS.some((mark) => line.includes(mark))) return false;
		const record = parseLine(line.toString("utf8"));
		const found = record === null ? undefined : goalOfRecord(record);
		if (found !== undefined) this.goal = found;
		return found !== undefined;
	}

	covered(): void {
		this.goal ??= null;
	}
}
