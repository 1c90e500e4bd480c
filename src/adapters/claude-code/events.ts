/**
 * Claude Code's hook events: the family's mapping of the Claude Code shape
 * (`command-hook/claude-style.ts`, where the choices are explained) with
 * Claude Code's tools, transcript reader and `/goal`.
 */

import type { SessionRef } from "../../engine/engine.js";
import {
	type ClaudeStyleDeps,
	type ClaudeStyleSpec,
	handleClaudeStyleHook,
	sessionRefOf as refOf,
} from "../command-hook/claude-style.js";
import { CLAUDE_TASK_TOOLS } from "../command-hook/todo-write.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import { HARNESS, type HookInput } from "./hook-input.js";
import { type ReadTurnOptions, type TurnReading, unreadableReason, unseenReason } from "./transcript.js";

export { lookCommandOf, provenanceOf } from "../command-hook/claude-style.js";
export { runningBackgroundTasks } from "../shared/background-tasks.js";
export { answerFor, type HookAnswer } from "../shared/hook-answer.js";

export interface HookDeps extends ClaudeStyleDeps<TurnReading> {
	readTurn(file: string, options: ReadTurnOptions): Promise<TurnReading>;
}

export const CLAUDE_CODE: ClaudeStyleSpec<TurnReading> = {
	harness: HARNESS,
	tools: { todoWrite: "TodoWrite", tasks: CLAUDE_TASK_TOOLS, subagents: ["Agent", "Task"] },
	unseenReason,
	unreadableReason,
	goalName: "Claude Code's /goal",
};

export function sessionRefOf(input: HookInput): SessionRef {
	return refOf(input, HARNESS);
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleClaudeStyleHook(input, CLAUDE_CODE, deps);
}
