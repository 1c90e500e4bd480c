/**
 * Claude Code's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its events and registrations, `CLAUDE_PROJECT_DIR`, its event mapping
 * (`events.ts`), its transcript reader and `/goal` reader. Run by the bundled
 * hook program (`dist/hook/claude-code-main.cjs`) and `boulder hook claude-code <Event>`.
 *
 * `Watchdog` is the second Stop registration (`asyncRewake`): it reads the
 * same input as Stop, and when the turn left background subagents running,
 * watches them until one runs past its limit or the session moves on
 * (`engine/watch-ops.ts`). Every other Stop it ends at once.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject; the caller exits with the code it returns (2 only
 * when the watcher wakes the agent).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { systemClock } from "../../engine/clock.js";
import { WATCH_POLL_MS, WATCH_SETTLE_MS, watchBackground } from "../../engine/watch-ops.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { watchdogMs } from "../command-hook/registrations.js";
import { type OpenEngine, readInput, runCommandHook, runnerOf } from "../command-hook/runtime.js";
import { watchableSubagents } from "../shared/background-tasks.js";
import { NOTHING } from "../shared/hook-answer.js";
import type { HookStreams } from "../types.js";
import { handleHook, sessionRefOf } from "./events.js";
import { activeGoal } from "./goal.js";
import { REGISTRATIONS, WATCHDOG_HOOK } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS, type HookInput, parseHookInput } from "./hook-input.js";
import { readTurn } from "./transcript.js";

export type { HookStreams } from "../types.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenEngine;
	readTurn?: typeof readTurn;
	/** The watcher's timing; tests pass shorter ones. */
	watch?: { sleep?: (ms: number) => Promise<void>; pollMs?: number; settleMs?: number; lifetimeMs?: number };
}

/** The watcher ends itself this long before the process's own watchdog would. */
const WATCH_MARGIN_MS = 10_000;

/** Claude Code's dialect; tests pass their own readers and timings. */
export function claudeCodeDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	const read = options.readTurn ?? readTurn;
	return {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: "CLAUDE_PROJECT_DIR",
		parse: parseHookInput,
		handle: (input, engine) => handleHook(input, { engine, readTurn: read, readGoal: activeGoal }),
		stopEvent: "Stop",
		words: { [WATCHDOG_HOOK]: (streams) => watchAfterStop(streams, options) },
	};
}

export const dialect = claudeCodeDialect();

export const runClaudeCodeHook = runnerOf<RunHookOptions, HookInput>(claudeCodeDialect);

/**
 * The watcher. A Stop that left no subagent running (nearly every one) ends
 * here without opening anything; input problems are the Stop hook's to
 * report, which reads the same input.
 */
async function watchAfterStop(streams: HookStreams, options: RunHookOptions): Promise<number> {
	let text: string;
	try {
		text = await readInput(streams.stdin);
	} catch {
		return 0;
	}
	const parsed = parseHookInput(text, "Stop");
	if (!parsed.ok || parsed.input.agentId !== null) return 0;
	const watched = watchableSubagents(parsed.input.fields.background_tasks);
	if (watched.length === 0) return 0;
	const timing = options.watch ?? {};
	const watch = {
		clock: systemClock,
		sleep: timing.sleep ?? ((ms: number) => sleep(ms)),
		pollMs: timing.pollMs ?? WATCH_POLL_MS,
		settleMs: timing.settleMs ?? WATCH_SETTLE_MS,
		lifetimeMs: timing.lifetimeMs ?? watchdogMs(REGISTRATIONS, WATCHDOG_HOOK) - WATCH_MARGIN_MS,
	};
	return runCommandHook(
		["Stop"],
		{ ...streams, stdin: [text] },
		{
			...dialect,
			handle: async (input, engine) => {
				const wake = await watchBackground(engine, sessionRefOf(input), watched, watch);
				return wake === null ? NOTHING : { output: null, wake };
			},
			// The Stop hook beside it tells the user about a bad config.
			showsNotices: false,
		},
		options.open,
	);
}
