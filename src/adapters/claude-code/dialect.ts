/**
 * Claude Code's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations and the command line of each, `CLAUDE_PROJECT_DIR`, the
 * notices its portable hooks print, and the watcher. Its events and input are
 * its event mapping's (`events.ts`); its transcript reader and `/goal` reader
 * are `transcript.ts` and `goal.ts`; its installer's data and words are
 * `install.ts`, its doctor `doctor.ts`. Run by the bundled hook program
 * (`dist/hook/claude-code-main.cjs`) and `boulder hook claude-code <Event>`.
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
import { systemClock } from "../../engine/clock.js";
import { WATCH_POLL_MS, WATCH_SETTLE_MS, watchBackground } from "../../engine/watch-ops.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import {
	HOOK_TIMEOUT_SECONDS,
	type HookRegistration,
	STOP_TIMEOUT_SECONDS,
	watchdogMs,
} from "../command-hook/registrations.js";
import { type OpenEngine, readInput, runCommandHook, runnerOf } from "../command-hook/runtime.js";
import { type CommandSpelling, commandReader, hookCommand as spelled } from "../command-hook/spelling.js";
import { watchableSubagents } from "../shared/background-tasks.js";
import { NOTHING } from "../shared/hook-answer.js";
import type { HookForm } from "../shared/hook-form.js";
import type { HookLink } from "../shared/hook-link.js";
import { shellWord as plainShellWord } from "../shared/shell-words.js";
import type { HookStreams } from "../types.js";
import {
	HARNESS,
	HOOK_EVENTS,
	type HookEvent,
	type HookInput,
	handleHook,
	parseHookInput,
	sessionRefOf,
} from "./events.js";
import { activeGoal, goalWithTurn } from "./goal.js";
import { readTurn } from "./transcript.js";

/*
 * Which Claude Code hooks boulder installs, with what matcher and timeout,
 * and the command line of each: shared by the installer, the plugins'
 * `hooks/hooks.json` (a test keeps them in step) and `boulder doctor`.
 *
 * A command comes in one of two forms:
 *
 * - pinned: this machine's node and the absolute path of one copy of
 *   boulder's hook program (user and local settings, which stay on this
 *   machine; the package's own plugin, under `${CLAUDE_PLUGIN_ROOT}`);
 * - portable: no path of any machine, for a settings file a team commits and
 *   for the marketplace plugin. It runs the first boulder it finds: the
 *   project's devDependency, the one `boulder install` linked for this user
 *   (`$XDG_DATA_HOME/boulder/claude-code-hook.cjs`), or the
 *   `boulder-claude-code-hook` program on the PATH (a global install). With
 *   none, SessionStart prints a one-line notice and every other event exits
 *   quietly, so a teammate without boulder sees no hook errors.
 *
 * Timeouts: the harness kills a hook that outlives its timeout. They are the
 * family's (`command-hook/registrations.ts`), and so is our own watchdog, from
 * these timeouts, which ends the hook shortly before, cleanly, printing
 * nothing, so the agent simply stops.
 *
 * Stop has a second registration, the watcher (`Watchdog`, with
 * `asyncRewake`): it runs on after the turn while the parent waits on a
 * background subagent, and wakes the parent when that subagent runs past its
 * time limit (`engine/watch-ops.ts`). It may live four hours; a longer limit
 * is judged at the next end of a turn instead.
 */

export const WATCHDOG_TIMEOUT_SECONDS = 4 * 60 * 60;

/** `boulder install claude-code --todo-tools`, and its help (the installer's words are `install.ts`). */
export const TODO_TOOLS_FLAG = "todo-tools";
export const TODO_TOOLS_FLAG_HELP =
	"also set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the settings' env: Claude Code 2.1.233 and later offer their newest models no todo list without it, and boulder follows the agent's list";

/** The watcher's word for the hook program: a second registration under Stop. */
export const WATCHDOG_HOOK = "Watchdog";

/** The todo tools, whose results keep boulder's copy of the agent's list. */
export const TODO_TOOLS_MATCHER = "TodoWrite|TaskCreate|TaskUpdate|TaskGet|TaskList";

/** The subagent tool (`Agent`, `Task` before 2.1.x): its result carries orchestrate mode's verification note. */
export const SUBAGENT_TOOLS_MATCHER = "Agent|Task";

/**
 * The file-changing tools: an orchestrator's own edit is warned about or
 * refused before it runs. One process per edit, so only these tools.
 */
export const FILE_TOOLS_MATCHER = "Edit|MultiEdit|Write|NotebookEdit";

/**
 * PostCompact is handled if someone registers it, but not installed:
 * PreCompact already reports the compaction, and PostCompact was not seen
 * firing for `/compact` in `-p` mode.
 */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreToolUse", matcher: FILE_TOOLS_MATCHER, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: `${TODO_TOOLS_MATCHER}|${SUBAGENT_TOOLS_MATCHER}`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "Stop", word: WATCHDOG_HOOK, timeout: WATCHDOG_TIMEOUT_SECONDS, asyncRewake: true },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/**
 * What the portable hooks print at session start where no boulder is installed
 * (a teammate without it): one line, shown to the user, never to the model.
 * It is written into settings files inside a single-quoted shell word, so it
 * holds no single quote.
 */
export const NOT_INSTALLED_NOTICE =
	"boulder: this project runs boulder from its Claude Code hooks, but boulder is not installed here (npm install -g boulder-agent, or add it to the project devDependencies); carrying on without it.";

/** What the user's hook link prints at session start when the copy of boulder it ran is gone. */
export const LINK_GONE_NOTICE =
	"boulder: the copy of boulder these Claude Code hooks ran was moved or removed; run `boulder install claude-code --project` with the boulder you have now (or `boulder doctor`). Carrying on without it.";

/** The variable Claude Code sets to the project's folder, where the portable command looks first. */
export const PROJECT_DIR_VAR = "CLAUDE_PROJECT_DIR";

/** The hook program (the loader of the bundle), relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/claude-code.cjs";

/** The package's program for the hook (the same file), as a global install puts it on the PATH. */
export const HOOK_BIN = "boulder-claude-code-hook";

/** The per-user link to an installed boulder's hook program, under `$XDG_DATA_HOME` (default `~/.local/share`). */
export const HOOK_LINK = "boulder/claude-code-hook.cjs";

/** The per-user link the portable commands look for (`shared/hook-link.ts`). */
export const LINK: HookLink = {
	link: HOOK_LINK,
	bundle: HOOK_BUNDLE,
	writtenBy: "Written by `boulder install claude-code`: Claude Code's portable hooks run the boulder at this path.",
	notice: { event: "SessionStart", output: /* @__PURE__ */ JSON.stringify({ systemMessage: LINK_GONE_NOTICE }) },
};

/**
 * Claude Code's commands name no harness (the program is its own); the
 * notice is JSON Claude Code shows the user (`systemMessage`), never the model.
 */
export const SPELLING: CommandSpelling = {
	harness: null,
	projectDirVar: PROJECT_DIR_VAR,
	bundle: HOOK_BUNDLE,
	bin: HOOK_BIN,
	link: LINK,
	notInstalled: /* @__PURE__ */ JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE }),
	quote: (word) => shellWord(word),
};

/** The shell command Claude Code runs for `word`, an event or the watcher (it runs commands with `sh -c`). */
export const hookCommand = (program: HookForm, word: string): string => spelled(SPELLING, program, word);

/** One hook entry: the watcher's runs in the background and may wake the agent. */
export function hookEntryOf(command: string, registration: HookRegistration): Record<string, unknown> {
	const hook = { type: "command", command, timeout: registration.timeout };
	return registration.asyncRewake ? { ...hook, asyncRewake: true } : hook;
}

/** Reads back a command boulder installed; null for anyone else's. */
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

/** Claude Code expands this in a plugin's hook commands. */
export const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

/** Quotes for a POSIX shell when needed; `${CLAUDE_PLUGIN_ROOT}` must stay expandable, so it is double-quoted. */
export function shellWord(word: string): string {
	if (
		word.includes(PLUGIN_ROOT) &&
		!/["\\`]/.test(word.replaceAll(PLUGIN_ROOT, "")) &&
		!/^[\w@%+=:,./-]+$/.test(word)
	) {
		return `"${word}"`;
	}
	return plainShellWord(word);
}

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
		// A Stop reads the transcript once, for the turn and the goal both.
		handle: (input, engine) =>
			handleHook(
				input,
				input.event === "Stop" ? { engine, ...goalWithTurn(read) } : { engine, readTurn: read, readGoal: activeGoal },
			),
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
				const wake = await watchBackground(engine, sessionRefOf(input), watched, watch);
				return wake === null ? NOTHING : { output: null, wake };
			},
			// The Stop hook beside it tells the user about a bad config.
			showsNotices: false,
		},
		options.open,
	);
}
