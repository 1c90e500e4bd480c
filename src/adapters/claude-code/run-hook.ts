/**
 * One Claude Code hook invocation: the shared command-hook run
 * (`shared/command-hook.ts`) in Claude Code's dialect. Shared by the bundled
 * hook program and `boulder hook claude-code <Event>`.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject (see `runCommandHook`). The caller exits 0.
 */
import { type CommandHookDialect, type OpenEngine, runCommandHook } from "../shared/command-hook.js";
import type { HookStreams } from "../types.js";
import { handleHook } from "./events.js";
import { HARNESS, type HookInput, parseHookInput } from "./hook-input.js";
import { configNotice } from "./messages.js";
import { readTurn } from "./transcript.js";

export type { HookStreams } from "../types.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenEngine;
	readTurn?: typeof readTurn;
}

export async function runClaudeCodeHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<void> {
	await runCommandHook(claudeCodeDialect(options), argv, streams, options.open);
}

function claudeCodeDialect(options: RunHookOptions): CommandHookDialect<HookInput> {
	return {
		harness: HARNESS,
		parse: parseHookInput,
		projectFolder,
		refOf: (input) => ({ harness: HARNESS, sessionId: input.sessionId, subagent: input.agentId !== null }),
		handle: (input, engine) => handleHook(input, { engine, readTurn: options.readTurn ?? readTurn }),
		// The user hears about a bad config where they are: once where boulder keeps a log to remember
		// it told them, else at the end of each turn (never on every tool call).
		configNotice: (input, problem, logged) =>
			logged || input.event === "Stop" ? { systemMessage: configNotice(problem) } : null,
	};
}

/**
 * The project the session works in: Claude Code's `CLAUDE_PROJECT_DIR` (where
 * the session started, stable while the agent `cd`s about), else the input's
 * `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.CLAUDE_PROJECT_DIR || inputCwd || streams.cwd;
}
