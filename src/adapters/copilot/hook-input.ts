/**
 * Reads the JSON Copilot CLI writes on a hook's stdin. Its fields are
 * camelCase (`sessionId`, `transcriptPath`, `stopReason`), except agentStop's
 * Claude-compatible `stop_hook_active`, and the input does not name its
 * event: the event is the command's argument. Inside a subagent every event
 * carries `agentId` (its `sessionId` is then the subagent's own) and
 * `parentAgentId`.
 *
 * Read by the shared reader (`shared/hook-input.ts`) with Copilot's keys:
 * nothing is trusted, reading never throws, and what cannot be used is a
 * `problem` the caller records before letting the agent stop.
 */
import {
	type CommandHookInput,
	type InputKeys,
	type ParsedCommandHookInput,
	parseCommandHookInput,
} from "../shared/hook-input.js";

/** The harness name boulder's state and log use for Copilot CLI sessions. */
export const HARNESS = "copilot";

export const HOOK_EVENTS = [
	"sessionStart",
	"userPromptSubmitted",
	"agentStop",
	"subagentStop",
	"errorOccurred",
	"preCompact",
	"sessionEnd",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

/** Copilot's camelCase keys; its input names no event. */
const KEYS: InputKeys = {
	sessionId: "sessionId",
	transcriptPath: "transcriptPath",
	agentId: "agentId",
	agentType: "agentType",
	event: null,
};

export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS, KEYS);
}
