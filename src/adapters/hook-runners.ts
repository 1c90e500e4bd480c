/**
 * The command-hook harnesses the bundled hook program serves, by name: one
 * program (`dist/hook/boulder-hook.cjs <harness> <event>`, and Claude Code's
 * own `dist/hook/claude-code.cjs <event>`) for every harness that runs a
 * command per event, so each pays the same start-up and shares one code cache.
 * Adding a command-hook harness is one line here.
 *
 * Contract: imports only the adapters' hook code (what the bundle needs), never
 * their installers or the CLI; every `run` never rejects.
 */
import { watchdogMs as claudeCodeWatchdogMs } from "./claude-code/hook-config.js";
import { runClaudeCodeHook } from "./claude-code/run-hook.js";
import { watchdogMs as codexWatchdogMs } from "./codex/hook-config.js";
import { runCodexHook } from "./codex/run-hook.js";
import { watchdogMs as copilotWatchdogMs } from "./copilot/hook-config.js";
import { runCopilotHook } from "./copilot/run-hook.js";
import { watchdogMs as droidWatchdogMs, runDroidHook } from "./droid/dialect.js";
import { watchdogMs as geminiWatchdogMs } from "./gemini/hook-config.js";
import { runGeminiHook } from "./gemini/run-hook.js";
import { watchdogMs as qwenWatchdogMs } from "./qwen/hook-config.js";
import { runQwenHook } from "./qwen/run-hook.js";
import type { HookStreams } from "./types.js";

export interface HookRunner {
	/** `argv` starts with the event. Contract: never rejects; resolves to the exit code. */
	run(argv: readonly string[], streams: HookStreams): Promise<number>;
	/** How long the process may run for `event` before it lets the agent stop, a little under the harness's own timeout. */
	watchdogMs(event: string | undefined): number;
}

export const HOOK_RUNNERS: Readonly<Record<string, HookRunner>> = {
	"claude-code": { run: runClaudeCodeHook, watchdogMs: claudeCodeWatchdogMs },
	codex: { run: runCodexHook, watchdogMs: codexWatchdogMs },
	qwen: { run: runQwenHook, watchdogMs: qwenWatchdogMs },
	gemini: { run: runGeminiHook, watchdogMs: geminiWatchdogMs },
	copilot: { run: runCopilotHook, watchdogMs: copilotWatchdogMs },
	droid: { run: runDroidHook, watchdogMs: droidWatchdogMs },
};

/**
 * The harness an argument list is for: `<harness> <event> …`, or, as Claude
 * Code's hooks run it, `<event> …` alone (no harness's name is an event's).
 */
export function hookTarget(argv: readonly string[]): { runner: HookRunner; argv: readonly string[] } {
	const first = argv[0];
	const named = first !== undefined && Object.hasOwn(HOOK_RUNNERS, first) ? HOOK_RUNNERS[first] : undefined;
	if (named) return { runner: named, argv: argv.slice(1) };
	return { runner: HOOK_RUNNERS["claude-code"] as HookRunner, argv };
}
