/**
 * Whether Copilot CLI's own continuation loop, autopilot, is on, read from the
 * session's event log: boulder and autopilot must not both push the agent, so
 * agentStop asks here and the engine stands down (`builtInGoals`). What the
 * log shows is in `docs/copilot-notes.md` ("Its own `--autopilot`").
 *
 * Contract: never throws for what the file holds; an unreadable file rejects,
 * and the caller treats it as no autopilot.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the log's end is read: the last user message is in the current turn. */
const TAIL_BYTES = 1024 * 1024;

/** The name the `why` line gives it. */
export const AUTOPILOT_DRIVER = "Copilot's autopilot";

/** How autopilot's prompt to an agent that stopped without `task_complete` begins: Copilot's, not the user's. */
export const AUTOPILOT_PROMPT_START = "You have not yet marked the task as complete using the task_complete tool";

export async function readAutopilot(file: string): Promise<boolean> {
	return autopilotOfLines(await readTailLines(file, TAIL_BYTES));
}

/** Pure: whether the newest line that says the mode says autopilot; lines oldest first. */
export function autopilotOfLines(lines: readonly string[]): boolean {
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index] ?? "";
		if (!line.includes('"user.message"') && !line.includes('"session.mode_changed"')) continue;
		const record = parseLine(line);
		if (record === null || !isRecord(record.data)) continue;
		const data = record.data;
		if (record.type === "session.mode_changed" && typeof data.newMode === "string") {
			return data.newMode === "autopilot";
		}
		if (record.type === "user.message") {
			if (data.isAutopilotContinuation === true || data.source === "autopilot") return true;
			if (typeof data.agentMode === "string") return data.agentMode === "autopilot";
		}
	}
	return false;
}

export function isAutopilotPrompt(prompt: string): boolean {
	return prompt.trimStart().startsWith(AUTOPILOT_PROMPT_START);
}
