/**
 * Claude Code's `/goal`: boulder and the goal must not both push the agent, so the Stop hook asks here whether
 * one is active (the last `goal_status` line of the transcript's tail says `met: false`, and no `/goal clear`
 * came after; notes) and the engine stands down (`builtInGoals`). A Stop reads it in the turn's own scan.
 * Contract: never throws for what the file holds; an unreadable file is reported as an error to the caller,
 * which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine, type TailWatch } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the transcript's end is read: an active goal was checked at the last Stop, near the end. */
export const GOAL_TAIL_BYTES = 256 * 1024;

const CLEAR = /^\s*(clear|off|stop|cancel)\b/i;

/** The condition of the goal active in this transcript, or null. */
export async function activeGoal(file: string, tailBytes = GOAL_TAIL_BYTES): Promise<string | null> {
	return goalOfLines(await readTailLines(file, tailBytes));
}

/** Pure: the active goal's condition from transcript lines, oldest first; null when none is active. */
export function goalOfLines(lines: readonly string[]): string | null {
	for (let index = lines.length - 1; index >= 0; index--) {
		const found = goalOfLine(lines[index] ?? "");
		if (found !== undefined) return found;
	}
	return null;
}

/** What one line says of the goal: its condition (active), null (none active), undefined (nothing). */
function goalOfLine(line: string): string | null | undefined {
	if (!line.includes('"goal_status"') && !line.includes('"goal"')) return undefined;
	const record = parseLine(line);
	if (record === null) return undefined;
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
		if (!line.includes('"goal_status"') && !line.includes('"goal"')) return false;
		const found = goalOfLine(line.toString("utf8"));
		if (found !== undefined) this.goal = found;
		return found !== undefined;
	}

	covered(): void {
		this.goal ??= null;
	}
}
