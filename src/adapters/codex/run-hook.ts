/**
 * One Codex hook invocation, end to end: the shared command-hook flow
 * (`shared/run-command-hook.ts`) with Codex's dialect. Run by the bundled
 * hook program (`boulder-hook.cjs codex <Event>`) and `boulder hook codex <Event>`.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject; the caller exits with the code it returns (0).
 */
import { type OpenEngine, runCommandHook } from "../shared/run-command-hook.js";
import type { HookStreams } from "../types.js";
import { handleHook } from "./events.js";
import { readCodexGoal } from "./goal.js";
import { HARNESS, parseHookInput } from "./hook-input.js";
import { readRolloutTurn } from "./rollout.js";

export interface RunHookOptions {
	open?: OpenEngine;
	readTurn?: typeof readRolloutTurn;
	readGoal?: typeof readCodexGoal;
}

export async function runCodexHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<number> {
	const readTurn = options.readTurn ?? readRolloutTurn;
	const readGoal = options.readGoal ?? readCodexGoal;
	return runCommandHook(
		argv,
		streams,
		{
			harness: HARNESS,
			parse: parseHookInput,
			projectFolder,
			handle: (input, engine) => handleHook(input, { engine, readTurn, readGoal }),
			stopEvent: "Stop",
		},
		options.open,
	);
}

/**
 * The folder the session works in: the input's `cwd` (Codex names no project
 * folder; the engine finds the project from there), else the process's,
 * which Codex sets to the same.
 */
export function projectFolder(streams: Pick<HookStreams, "cwd">, inputCwd: string | null): string {
	return inputCwd || streams.cwd;
}
