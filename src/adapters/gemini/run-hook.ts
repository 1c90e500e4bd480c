/**
 * One Gemini CLI hook invocation, end to end (`shared/run-command-hook.ts`):
 * Gemini CLI's dialect of the command-hook runner. Served by the bundled hook
 * program (`boulder-hook.cjs gemini <Event>`) and `boulder hook gemini <Event>`.
 *
 * Contract: never throws and never prints anything that continues the agent
 * unless the engine chose to inject; the caller exits with the code it returns (0).
 */
import { type OpenEngine, runCommandHook } from "../shared/run-command-hook.js";
import type { HookStreams } from "../types.js";
import { handleHook } from "./events.js";
import { HARNESS, parseHookInput } from "./hook-input.js";
import { readTurn } from "./transcript.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenEngine;
	readTurn?: (file: string) => ReturnType<typeof readTurn>;
}

export async function runGeminiHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<number> {
	const read = options.readTurn ?? ((file: string) => readTurn(file));
	return runCommandHook(
		argv,
		streams,
		{
			harness: HARNESS,
			parse: parseHookInput,
			projectFolder,
			handle: (input, engine) => handleHook(input, { engine, readTurn: read }),
			stopEvent: "AfterAgent",
		},
		options.open,
	);
}

/**
 * The project the session works in: Gemini CLI's `GEMINI_PROJECT_DIR` (its
 * working folder, stable while the agent `cd`s about), else the input's
 * `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.GEMINI_PROJECT_DIR || inputCwd || streams.cwd;
}
