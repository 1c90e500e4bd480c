/**
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
 * Timeouts: the harness kills a hook that outlives its timeout. The Stop hook
 * may run a plan's verify commands (5 minutes each by default), so it gets 15
 * minutes; every other hook does a few locked file updates and gets a minute.
 * Our own watchdog (`command-hook/registrations.ts`, from these timeouts)
 * ends the hook shortly before, cleanly, printing nothing, so the agent
 * simply stops.
 *
 * Stop has a second registration, the watcher (`Watchdog`, with
 * `asyncRewake`): it runs on after the turn while the parent waits on a
 * background subagent, and wakes the parent when that subagent runs past its
 * time limit (`engine/watch-ops.ts`). It may live four hours; a longer limit
 * is judged at the next end of a turn instead.
 */

import { type HookRegistration as FamilyRegistration, wordOf } from "../command-hook/registrations.js";
import { type CommandSpelling, commandReader, hookCommand as spelled } from "../command-hook/spelling.js";
import { groupedHook, type HookForm } from "../shared/hook-form.js";
import type { HookLink } from "../shared/hook-link.js";
import { shellWord as plainShellWord } from "../shared/shell-words.js";
import type { HookEvent } from "./hook-input.js";
import { LINK_GONE_NOTICE, NOT_INSTALLED_NOTICE } from "./messages.js";

export type HookRegistration = FamilyRegistration<HookEvent>;

export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;
export const WATCHDOG_TIMEOUT_SECONDS = 4 * 60 * 60;

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
export const REGISTRATIONS: readonly HookRegistration[] = [
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

export { wordOf } from "../command-hook/registrations.js";

export {
	HOOK_MARKER,
	type HookForm,
	type HookProgram,
	isPortable,
	PORTABLE,
	PORTABLE_TAG,
} from "../shared/hook-form.js";

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

/** The matcher group for one registration, as settings files and hooks.json hold it. */
export function matcherGroup(program: HookForm, registration: HookRegistration): Record<string, unknown> {
	return groupedHook(hookEntryOf(hookCommand(program, wordOf(registration)), registration), registration);
}

export type { OurCommand } from "../shared/hook-command.js";

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
