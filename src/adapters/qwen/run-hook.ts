/**
 * One Qwen Code hook invocation, end to end: the shared command-hook flow
 * (`../shared/run-command-hook.ts`) with Qwen Code's dialect. Served by the
 * bundled hook program (`boulder-hook.cjs qwen <Event>`) and `boulder hook
 * qwen <Event>`.
 *
 * Contract: never rejects; see `runCommandHook`. The caller exits with the code it returns (0).
 */
import { type CommandHookDialect, type OpenEngine, runCommandHook } from "../shared/run-command-hook.js";
import type { HookStreams } from "../types.js";
import { effectiveCap } from "./cap.js";
import { handleQwenHook, type QwenHookDeps } from "./events.js";
import { readQwenGoal } from "./goal.js";
import { HARNESS, parseQwenHookInput, type QwenHookInput } from "./hook-input.js";
import { readQwenTurn } from "./transcript.js";

export interface RunQwenHookOptions {
	open?: OpenEngine;
	readTurn?: QwenHookDeps["readTurn"];
	readGoal?: QwenHookDeps["readGoal"];
}

export async function runQwenHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunQwenHookOptions = {},
): Promise<number> {
	const dialect: CommandHookDialect<QwenHookInput> = {
		harness: HARNESS,
		parse: parseQwenHookInput,
		projectFolder,
		stopEvent: "Stop",
		handle: (input, engine) =>
			handleQwenHook(input, {
				engine,
				readTurn: options.readTurn ?? readQwenTurn,
				readGoal: options.readGoal ?? readQwenGoal,
				cap: () => effectiveCap(streams.env, projectFolder(streams, input.cwd)),
			}),
	};
	return runCommandHook(argv, streams, dialect, options.open);
}

/**
 * The project the session works in: Qwen Code's `QWEN_PROJECT_DIR` (where the
 * session started), else the input's `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.QWEN_PROJECT_DIR || inputCwd || streams.cwd;
}
