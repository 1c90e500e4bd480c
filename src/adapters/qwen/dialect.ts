/**
 * Qwen Code's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its events and registrations, `QWEN_PROJECT_DIR`, its event mapping
 * (`events.ts`), its transcript reader and its continuation cap (`cap.ts`).
 * Run by the bundled hook program (`boulder-hook.cjs qwen <Event>`) and
 * `boulder hook qwen <Event>`.
 */
import { type CommandHookDialect, projectFolderOf } from "../command-hook/dialect.js";
import { type OpenEngine, runnerOf } from "../command-hook/runtime.js";
import { effectiveCap } from "./cap.js";
import { handleQwenHook, type QwenHookDeps } from "./events.js";
import { readQwenGoal } from "./goal.js";
import { REGISTRATIONS } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS, parseQwenHookInput, type QwenHookInput } from "./hook-input.js";
import { readQwenTurn } from "./transcript.js";

export interface RunQwenHookOptions {
	open?: OpenEngine;
	readTurn?: QwenHookDeps["readTurn"];
	readGoal?: QwenHookDeps["readGoal"];
}

export function qwenDialect(options: RunQwenHookOptions = {}): CommandHookDialect<QwenHookInput> {
	const self: CommandHookDialect<QwenHookInput> = {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: "QWEN_PROJECT_DIR",
		parse: parseQwenHookInput,
		stopEvent: "Stop",
		handle: (input, engine, streams) =>
			handleQwenHook(input, {
				engine,
				readTurn: options.readTurn ?? readQwenTurn,
				readGoal: options.readGoal ?? readQwenGoal,
				cap: () => effectiveCap(streams.env, projectFolderOf(self, streams, input.cwd)),
			}),
	};
	return self;
}

export const dialect = qwenDialect();

export const runQwenHook = runnerOf<RunQwenHookOptions, QwenHookInput>(qwenDialect);
