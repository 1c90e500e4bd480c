/**
 * One Claude Code hook invocation, end to end (`shared/command-hook.ts`):
 * Claude Code's dialect of the command-hook runner. Shared by the bundled
 * hook program and `boulder hook claude-code <Event>`.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject; the caller exits 0.
 */
import { type HookDialect, type OpenWorkspace, runCommandHook } from "../shared/command-hook.js";
import type { HookStreams } from "../types.js";
import { handleHook, sessionRefOf } from "./events.js";
import { HARNESS, type HookInput, parseHookInput } from "./hook-input.js";
import { configNotice } from "./messages.js";
import { readTurn } from "./transcript.js";

export type { HookStreams } from "../types.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenWorkspace;
	readTurn?: typeof readTurn;
}

function dialectOf(options: RunHookOptions): HookDialect<HookInput> {
	return {
		harness: HARNESS,
		parse: parseHookInput,
		projectFolder,
		sessionRef: sessionRefOf,
		handle: (input, engine) => handleHook(input, { engine, readTurn: options.readTurn ?? readTurn }),
		idleEvent: "Stop",
		notice: (text) => ({ systemMessage: text }),
		configNotice,
	};
}

export async function runClaudeCodeHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<void> {
	await runCommandHook(dialectOf(options), argv, streams, options.open);
}

/**
 * The project the session works in: Claude Code's `CLAUDE_PROJECT_DIR` (where
 * the session started, stable while the agent `cd`s about), else the input's
 * `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.CLAUDE_PROJECT_DIR || inputCwd || streams.cwd;
}
