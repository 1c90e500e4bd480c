/** Claude Code's hook events: the family's Claude-style mapping (`command-hook/claude-style.ts`) with its tools. */
import { type ClaudeStyleDeps, type ClaudeStyleSpec, handleClaudeStyleHook } from "../command-hook/claude-style.js";
import { CLAUDE_TASK_TOOLS } from "../command-hook/todo-write.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import { type CommandHookInput, hookInputParser } from "../shared/hook-input.js";
import type { ReadTurnOptions, TurnReading } from "./transcript.js";

export const HARNESS = "claude-code";

/** `PostCompact` is understood but not installed: PreCompact reports the compaction already (notes). */
export const HOOK_EVENTS = [
	"SessionStart",
	"UserPromptSubmit",
	"PreToolUse",
	"PostToolUse",
	"Stop",
	"SubagentStop",
	"StopFailure",
	"PreCompact",
	"PostCompact",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

export const parseHookInput = hookInputParser(HOOK_EVENTS);

export interface HookDeps extends ClaudeStyleDeps<TurnReading> {
	readTurn(file: string, options: ReadTurnOptions): Promise<TurnReading>;
}

export const CLAUDE_CODE: ClaudeStyleSpec = {
	harness: HARNESS,
	title: "Claude Code",
	tools: { todoWrite: "TodoWrite", tasks: CLAUDE_TASK_TOOLS, subagents: ["Agent", "Task"] },
	goalName: "Claude Code's /goal",
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleClaudeStyleHook(input, CLAUDE_CODE, deps);
}
