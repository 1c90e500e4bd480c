/**
 * Codex's dialect of the command-hook family (`command-hook/dialect.ts`): its
 * events and registrations, no project-folder variable (the input's `cwd`,
 * from which the engine finds the project), its event mapping (`events.ts`)
 * and its rollout reader. Run by the bundled hook program
 * (`boulder-hook.cjs codex <Event>`) and `boulder hook codex <Event>`.
 */
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { type OpenEngine, runnerOf } from "../command-hook/runtime.js";
import { handleHook } from "./events.js";
import { readCodexGoal } from "./goal.js";
import { REGISTRATIONS } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS, type HookInput, parseHookInput } from "./hook-input.js";
import { readRolloutTurn } from "./rollout.js";

export interface RunHookOptions {
	open?: OpenEngine;
	readTurn?: typeof readRolloutTurn;
	readGoal?: typeof readCodexGoal;
}

export function codexDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	const readTurn = options.readTurn ?? readRolloutTurn;
	const readGoal = options.readGoal ?? readCodexGoal;
	return {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: null,
		parse: parseHookInput,
		handle: (input, engine) => handleHook(input, { engine, readTurn, readGoal }),
		stopEvent: "Stop",
	};
}

export const dialect = codexDialect();

export const runCodexHook = runnerOf<RunHookOptions, HookInput>(codexDialect);
