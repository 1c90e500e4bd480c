/**
 * Gemini CLI's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its events and registrations, `GEMINI_PROJECT_DIR`, its event mapping
 * (`events.ts`, AfterAgent ends the turn) and its transcript reader. Run by
 * the bundled hook program (`boulder-hook.cjs gemini <Event>`) and `boulder
 * hook gemini <Event>`.
 */
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { type OpenEngine, runnerOf } from "../command-hook/runtime.js";
import { handleHook } from "./events.js";
import { REGISTRATIONS } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS, type HookInput, parseHookInput } from "./hook-input.js";
import { readTurn } from "./transcript.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenEngine;
	readTurn?: (file: string) => ReturnType<typeof readTurn>;
}

export function geminiDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	const read = options.readTurn ?? ((file: string) => readTurn(file));
	return {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: "GEMINI_PROJECT_DIR",
		parse: parseHookInput,
		handle: (input, engine) => handleHook(input, { engine, readTurn: read }),
		stopEvent: "AfterAgent",
	};
}

export const dialect = geminiDialect();

export const runGeminiHook = runnerOf<RunHookOptions, HookInput>(geminiDialect);
