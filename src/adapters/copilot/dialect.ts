/**
 * Copilot CLI's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its camelCase events and registrations, `COPILOT_PROJECT_DIR`, its event
 * mapping (`events.ts`), its event-log reader and its session database's
 * todos (`session-db.ts`), and its continuation cap. Run by the bundled hook
 * program (`boulder-hook.cjs copilot <event>`) and `boulder hook copilot <event>`.
 */
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { type OpenEngine, runnerOf } from "../command-hook/runtime.js";
import { readAutopilot } from "./autopilot.js";
import { handleHook } from "./events.js";
import { REGISTRATIONS } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS, type HookInput, parseHookInput } from "./hook-input.js";
import { readTodos } from "./todos.js";
import { readBlockChain, readTurn } from "./transcript.js";

export interface RunHookOptions {
	open?: OpenEngine;
	readTurn?: typeof readTurn;
	readTodos?: typeof readTodos;
	readBlockChain?: typeof readBlockChain;
	readAutopilot?: typeof readAutopilot;
}

export function copilotDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	return {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: "COPILOT_PROJECT_DIR",
		parse: parseHookInput,
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
}

export const dialect = copilotDialect();

export const runCopilotHook = runnerOf<RunHookOptions, HookInput>(copilotDialect);
