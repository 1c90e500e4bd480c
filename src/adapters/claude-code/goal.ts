/**
 * Claude Code's own goal mode (`/goal CONDITION`, 2.1.139 and later): a
 * session-scoped prompt-type Stop hook whose judge continues the agent until
 * the condition is met. boulder and the goal must not both push the agent,
 * so the Stop hook asks here whether a goal is active, and the engine stands
 * down (`builtInGoals`).
 *
 * What the transcript shows (seen, 2.1.332): setting a goal writes an
 * `attachment` line `{type: "goal_status", met: false, sentinel: true,
 * condition}`, and every check of the judge another `{type: "goal_status",
 * met, condition, reason}`. The goal is active when the last such line says
 * `met: false`; a `/goal clear` (or `off`, `stop`, `cancel`) after it ends it
 * (read from the command's record; the wording of a cleared goal's own line
 * is unverified). Only the tail of the file is read: a goal that is active
 * has been checked at the last Stop, near its end.
 *
 * The Stop hook reads it in the same pass as the turn (`GoalWatch`, a
 * `TailWatch` of the turn's scan): one reading of the transcript per Stop.
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine, type TailWatch } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the transcript's end is read. */
export const GOAL_TAIL_BYTES = 256 * 1024;

const CLEAR = /^\s*(clear|off|stop|cancel)\b/i;

/** The condition of the goal active in this transcript, or null. */
export async function activeGoal(file: string, tailBytes = GOAL_TAIL_BYTES): Promise<string | null> {
	// Only a regular file, opened without blocking: a FIFO in its place is a problem, never a wait.
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
 * A Stop's two readers of the transcript as one reading: `readTurn` reads
 * the goal's tail too, and `readGoal` takes the goal from the last reading
 * it made of the same file (the settled one, after any re-reads of a late
 * file), reading the file itself only when that reading did not cover its
 * tail (a limit, a reader that does not watch).
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

/**
 * The goal read line by line, newest first, as the turn's scan hands them
 * over: `goal` is what `activeGoal` finds in the same file, once the watch
 * decided or saw its whole window; undefined until then.
 */
export class GoalWatch implements TailWatch {
	goal: string | null | undefined = undefined;
	constructor(readonly bytes = GOAL_TAIL_BYTES) {}

	take(line: Buffer): boolean {
		if (!line.includes('"goal_status"') && !line.includes('"goal"')) return false;
		const found = goalOfLine(line.toString("utf8"));
		if (found === undefined) return false;
		this.goal = found;
		return true;
	}

	covered(): void {
		this.goal ??= null;
	}
}
