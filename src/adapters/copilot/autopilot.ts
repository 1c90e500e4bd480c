/**
 * Copilot CLI's own continuation loop, autopilot (`--autopilot`, `--mode
 * autopilot`, `/autopilot`, Shift+Tab), read from the session's event log.
 * In autopilot Copilot answers an agent that stops without calling its
 * `task_complete` tool with a prompt of its own ("You have not yet marked the
 * task as complete ..."), up to `--max-autopilot-continues` (no cap unless
 * set). boulder and autopilot must not both push the agent, so agentStop asks
 * here whether autopilot is on, and the engine stands down (`builtInGoals`).
 *
 * What the event log shows (seen, 1.0.102): `session.mode_changed {newMode}`
 * when the mode changes, and every `user.message` carries the mode it was
 * sent in (`agentMode: "autopilot"`); autopilot's own prompts are
 * `user.message`s with `source: "autopilot"`, `isAutopilotContinuation:
 * true`, written after the userPromptSubmitted hook for them has run. The
 * newest of these lines says the mode.
 *
 * Seen too: beside autopilot, boulder took each of autopilot's prompts for
 * the user's, began a new episode, and the two loops kept each other going
 * past `--max-autopilot-continues` until the run was killed.
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no autopilot.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the log's end is read: the last user message is in the current turn. */
export const AUTOPILOT_TAIL_BYTES = 1024 * 1024;

/** The name the `why` line gives it. */
export const AUTOPILOT_DRIVER = "Copilot's autopilot";

/**
 * The start of the prompt autopilot sends an agent that stopped without
 * `task_complete` (1.0.102). It reaches userPromptSubmitted as a prompt; it
 * is Copilot's, not the user's.
 */
export const AUTOPILOT_PROMPT_START = "You have not yet marked the task as complete using the task_complete tool";

/** Whether the session's event log says autopilot is on. */
export async function readAutopilot(file: string, tailBytes = AUTOPILOT_TAIL_BYTES): Promise<boolean> {
	// Only a regular file, opened without blocking: a FIFO in its place is a problem, never a wait.
	return autopilotOfLines(await readTailLines(file, tailBytes));
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

/** Whether a prompt is autopilot's own continuation. */
export function isAutopilotPrompt(prompt: string): boolean {
	return prompt.trimStart().startsWith(AUTOPILOT_PROMPT_START);
}
