/**
 * Whether Copilot CLI's own continuation loop, autopilot, is on, read from the
 * session's event log: boulder and autopilot must not both push the agent, so
 * agentStop asks here and the engine stands down (`builtInGoals`). What the
 * log shows is in `docs/copilot-notes.md` ("Its own `--autopilot`").
 *
 * Contract: never throws for what the file holds; an unreadable file rejects,
 * and the caller treats it as no autopilot.
 */
import { newestInTail } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** The name the `why` line gives it. */
export const AUTOPILOT_DRIVER = "Copilot's autopilot";

/** How autopilot's prompt to an agent that stopped without `task_complete` begins: Copilot's, not the user's. */
export const AUTOPILOT_PROMPT_START = "You have not yet marked the task as complete using the task_complete tool";

/** Whether autopilot is on, by the newest line saying the mode in the log's last MiB (its current turn). */
const MODE = newestInTail(1024 * 1024, ['"user.message"', '"session.mode_changed"'], autopilotOfRecord, false);
export const readAutopilot = MODE.read;
/** Pure: `readAutopilot` of lines, oldest first. */
export const autopilotOfLines = MODE.ofLines;

function autopilotOfRecord(record: Record<string, unknown>): boolean | undefined {
	const data = record.data;
	if (!isRecord(data)) return undefined;
	if (record.type === "session.mode_changed" && typeof data.newMode === "string") return data.newMode === "autopilot";
	if (record.type !== "user.message") return undefined;
	if (data.isAutopilotContinuation === true || data.source === "autopilot") return true;
	return typeof data.agentMode === "string" ? data.agentMode === "autopilot" : undefined;
}

export function isAutopilotPrompt(prompt: string): boolean {
	return prompt.trimStart().startsWith(AUTOPILOT_PROMPT_START);
}
