/**
 * One Claude Code hook invocation, end to end (`../shared/command-hook.ts`
 * with Claude Code's dialect). Shared by the bundled hook program and
 * `boulder hook claude-code <Event>`.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject; see `runCommandHook`. The caller exits 0.
 */
import type { Engine } from "../../engine/engine.js";
import { type CommandHookDialect, runCommandHook } from "../shared/command-hook.js";
import type { HookStreams } from "../types.js";
import { handleHook, sessionRefOf } from "./events.js";
import { HARNESS, type HookInput, parseHookInput } from "./hook-input.js";
import { readTurn } from "./transcript.js";

export type { HookStreams } from "../types.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: (cwd: string, env: NodeJS.ProcessEnv) => Promise<{ engine: Engine; warnings: string[] }>;
	readTurn?: typeof readTurn;
}

export async function runClaudeCodeHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<void> {
	const dialect: CommandHookDialect<HookInput> = {
		harness: HARNESS,
		parse: parseHookInput,
		projectFolder,
		stopEvent: "Stop",
		sessionRef: sessionRefOf,
		handle: (input, engine) => handleHook(input, { engine, readTurn: options.readTurn ?? readTurn }),
	};
	await runCommandHook(argv, streams, dialect, options.open);
}

/**
 * The project the session works in: Claude Code's `CLAUDE_PROJECT_DIR` (where
 * the session started, stable while the agent `cd`s about), else the input's
 * `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.CLAUDE_PROJECT_DIR || inputCwd || streams.cwd;
}
