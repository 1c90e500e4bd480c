/**
 * Claude Code's dialect of the command-hook family: its registrations and their commands, shared by the
 * installer, the plugins' `hooks/hooks.json` (a test keeps them in step), `boulder doctor` and the hook bundle;
 * and the watcher (`Watchdog`, a second Stop registration with `asyncRewake`), which wakes the parent when a
 * background subagent runs past its limit (`engine/watch-ops.ts`). Harness facts: `docs/claude-code-notes.md`.
 * Contract: never throws and never prints anything that blocks unless the engine chose to inject; the caller
 * exits with the code it returns (2 only when the watcher wakes the agent).
 */
import { systemClock } from "../../engine/clock.js";
import { WATCH_POLL_MS, WATCH_SETTLE_MS, watchBackground } from "../../engine/watch-ops.js";
import { sessionRefOf } from "../command-hook/claude-style.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { fileChangeDialect } from "../command-hook/file-change.js";
import {
	HOOK_TIMEOUT_SECONDS,
	type HookRegistration,
	STOP_TIMEOUT_SECONDS,
	watchdogMs,
} from "../command-hook/registrations.js";
import { type OpenEngine, openEngine, readInput, runCommandHook, runnerOf } from "../command-hook/runtime.js";
import { type CommandSpelling, commandReader, hookCommand as spelled } from "../command-hook/spelling.js";
import { watchableSubagents } from "../shared/background-tasks.js";
import { NOTHING } from "../shared/hook-answer.js";
import type { HookForm } from "../shared/hook-form.js";
import type { HookLink } from "../shared/hook-link.js";
import { shellWord as plainShellWord } from "../shared/shell-words.js";
import type { HookStreams } from "../types.js";
import { HARNESS, HOOK_EVENTS, type HookEvent, type HookInput, handleHook, parseHookInput } from "./events.js";
import { activeGoal, goalWithTurn } from "./goal.js";
import { readTurn } from "./transcript.js";

/** `boulder install claude-code --todo-tools`. */
export const TODO_TOOLS_FLAG = "todo-tools";
export const TODO_TOOLS_FLAG_HELP =
	"also set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the settings' env: Claude Code 2.1.233 and later offer their newest models no todo list without it, and boulder follows the agent's list";

export const TODO_TOOLS_MATCHER = "TodoWrite|TaskCreate|TaskUpdate|TaskGet|TaskList";
/** Its results carry orchestrate mode's verification note. */
export const SUBAGENT_TOOLS_MATCHER = "Agent|Task";
/** An orchestrator's own edit is warned about or refused before it runs: one process per edit, so only these. */
export const FILE_TOOLS_MATCHER = "Edit|MultiEdit|Write|NotebookEdit";

export const WATCHDOG_HOOK = "Watchdog";

/** Timeouts are the family's; the watcher may live 4 h (a longer limit is judged at the next end of a turn). */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreToolUse", matcher: FILE_TOOLS_MATCHER, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: `${TODO_TOOLS_MATCHER}|${SUBAGENT_TOOLS_MATCHER}`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "Stop", word: WATCHDOG_HOOK, timeout: 4 * 60 * 60, asyncRewake: true },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/** Printed at session start where the portable hooks find no boulder; written single-quoted, so it holds no `'`. */
export const NOT_INSTALLED_NOTICE =
	"boulder: this project runs boulder from its Claude Code hooks, but boulder is not installed here (npm install -g boulder-agent, or add it to the project devDependencies); carrying on without it.";

/** Printed at session start by the user's hook link when the copy of boulder it ran is gone. */
export const LINK_GONE_NOTICE =
	"boulder: the copy of boulder these Claude Code hooks ran was moved or removed; run `boulder install claude-code --project` with the boulder you have now (or `boulder doctor`). Carrying on without it.";

export const PROJECT_DIR_VAR = "CLAUDE_PROJECT_DIR";
/** The hook program (from the package root), the same program on the PATH, its per-user link (`$XDG_DATA_HOME`). */
export const HOOK_BUNDLE = "dist/hook/claude-code.cjs";
export const HOOK_BIN = "boulder-claude-code-hook";
export const HOOK_LINK = "boulder/claude-code-hook.cjs";

export const LINK: HookLink = {
	link: HOOK_LINK,
	bundle: HOOK_BUNDLE,
	writtenBy: "Written by `boulder install claude-code`: Claude Code's portable hooks run the boulder at this path.",
	notice: { event: "SessionStart", output: /* @__PURE__ */ JSON.stringify({ systemMessage: LINK_GONE_NOTICE }) },
};

/** The commands name no harness (the program is its own); notices are `systemMessage`s: the user's, not the model's. */
export const SPELLING: CommandSpelling = {
	harness: null,
	projectDirVar: PROJECT_DIR_VAR,
	bundle: HOOK_BUNDLE,
	bin: HOOK_BIN,
	link: LINK,
	notInstalled: /* @__PURE__ */ JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE }),
	quote: shellWord,
};

/** The shell command Claude Code runs (with `sh -c`) for `word`, an event or the watcher. */
export const hookCommand = (program: HookForm, word: string): string => spelled(SPELLING, program, word);

/** Reads back a command boulder installed; null for anyone else's. */
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

/** Quotes for a POSIX shell when needed; `${CLAUDE_PLUGIN_ROOT}` stays expandable (double quotes). */
export function shellWord(word: string): string {
	const expandable =
		word.includes(PLUGIN_ROOT) && !/["\\`]/.test(word.replaceAll(PLUGIN_ROOT, "")) && !/^[\w@%+=:,./-]+$/.test(word);
	return expandable ? `"${word}"` : plainShellWord(word);
}

export interface RunHookOptions {
	open?: OpenEngine;
	readTurn?: typeof readTurn;
	watch?: { sleep?: (ms: number) => Promise<void>; pollMs?: number; settleMs?: number; lifetimeMs?: number };
}

/** The watcher ends itself this long before the process's watchdog would. */
const WATCH_MARGIN_MS = 10_000;

/** What every Claude Code dialect says: its name, events, registrations, folder and input. */
const BASE = { harness: HARNESS, events: HOOK_EVENTS, registrations: REGISTRATIONS, projectDirVar: PROJECT_DIR_VAR };

export function claudeCodeDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	const read = options.readTurn ?? readTurn;
	return {
		...BASE,
		parse: parseHookInput,
		// A Stop reads the transcript once, for the turn and the goal both.
		handle: (input, engine) => {
			const readers = input.event === "Stop" ? goalWithTurn(read) : { readTurn: read, readGoal: activeGoal };
			return handleHook(input, { engine, ...readers });
		},
		words: { [WATCHDOG_HOOK]: (streams) => watchAfterStop(streams, options) },
	};
}

export const dialect = /* @__PURE__ */ claudeCodeDialect();

/** PreToolUse alone, for its own hook bundle (`tsdown.config.ts`): a process per file edit, without the Stop path. */
export const fileChanges = /* @__PURE__ */ fileChangeDialect({ ...BASE, parse: parseHookInput }, "PreToolUse");

export const runClaudeCodeHook = /* @__PURE__ */ runnerOf<RunHookOptions, HookInput>(claudeCodeDialect);

/** A Stop that left no subagent running (nearly every one) ends here unopened; the Stop hook reports bad input. */
async function watchAfterStop(streams: HookStreams, options: RunHookOptions): Promise<number> {
	const text = await readInput(streams.stdin).catch(() => null);
	if (text === null) return 0;
	const parsed = parseHookInput(text, "Stop");
	if (!parsed.ok || parsed.input.agentId !== null) return 0;
	const watched = watchableSubagents(parsed.input.fields.background_tasks);
	if (watched.length === 0) return 0;
	const timing = options.watch ?? {};
	const watch = {
		clock: systemClock,
		// The global timer, not `node:timers/promises`: a hook that watches nothing does not load that module.
		sleep: timing.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
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
				const wake = await watchBackground(engine, sessionRefOf(input, HARNESS), watched, watch);
				return wake === null ? NOTHING : { output: null, wake };
			},
			// The Stop hook beside it tells the user about a bad config.
			showsNotices: false,
		},
		options.open ?? openEngine,
	);
}
