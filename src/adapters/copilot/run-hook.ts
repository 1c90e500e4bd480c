/**
 * One Copilot CLI hook invocation: the shared command-hook run
 * (`shared/run-command-hook.ts`) in Copilot's dialect. Served by the bundled hook
 * program (`boulder-hook.cjs copilot <event>`) and `boulder hook copilot <event>`.
 *
 * Contract: never throws and never prints a block unless the engine chose to
 * inject. The caller exits with the code it returns (0).
 */
import { type CommandHookDialect, type OpenEngine, runCommandHook } from "../shared/run-command-hook.js";
import type { HookStreams } from "../types.js";
import { readAutopilot } from "./autopilot.js";
import { handleHook } from "./events.js";
import { HARNESS, type HookInput, parseHookInput } from "./hook-input.js";
import { readTodos } from "./todos.js";
import { readBlockChain, readTurn } from "./transcript.js";

export interface RunHookOptions {
	open?: OpenEngine;
	readTurn?: typeof readTurn;
	readTodos?: typeof readTodos;
	readBlockChain?: typeof readBlockChain;
	readAutopilot?: typeof readAutopilot;
}

export async function runCopilotHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<number> {
	const dialect: CommandHookDialect<HookInput> = {
		harness: HARNESS,
		parse: parseHookInput,
		projectFolder,
		handle: (input, engine) =>
			handleHook(input, {
				engine,
				readTurn: options.readTurn ?? readTurn,
				readTodos: options.readTodos ?? readTodos,
				readBlockChain: options.readBlockChain ?? readBlockChain,
				readAutopilot: options.readAutopilot ?? readAutopilot,
			}),
		stopEvent: "agentStop",
		// agentStop has no channel for a notice: a bad config is told on stderr and in `boulder why`.
		showsNotices: false,
	};
	return runCommandHook(argv, streams, dialect, options.open);
}

/**
 * The project the session works in: Copilot's `COPILOT_PROJECT_DIR` (where
 * the session started), else the input's `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.COPILOT_PROJECT_DIR || inputCwd || streams.cwd;
}
