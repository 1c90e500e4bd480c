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
import { ourCommandReader } from "../shared/hook-command.js";
import {
	groupedHook,
	HOOK_MARKER,
	type HookForm,
	isPortable,
	PORTABLE_TAG,
	pinnedCommand,
} from "../shared/hook-form.js";
import { portableCommand } from "../shared/portable-command.js";
import { shellWord as plainShellWord } from "../shared/shell-words.js";
import type { HookEvent } from "./hook-input.js";
import { NOT_INSTALLED_NOTICE } from "./messages.js";

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

/** The hook program (the loader of the bundle), relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/claude-code.cjs";

/** The package's program for the hook (the same file), as a global install puts it on the PATH. */
export const HOOK_BIN = "boulder-claude-code-hook";

/** The per-user link to an installed boulder's hook program, under `$XDG_DATA_HOME` (default `~/.local/share`). */
export const HOOK_LINK = "boulder/claude-code-hook.cjs";

/** The shell command Claude Code runs for `word`, an event or the watcher (it runs commands with `sh -c`). */
export function hookCommand(program: HookForm, word: string): string {
	if (!isPortable(program)) return pinnedCommand(program, word, shellWord);
	// The notice is JSON Claude Code shows the user (`systemMessage`), never the model.
	return portableCommand({
		projectDirVar: "CLAUDE_PROJECT_DIR",
		bundle: HOOK_BUNDLE,
		link: HOOK_LINK,
		bin: HOOK_BIN,
		args: word,
		otherwise: word === "SessionStart" ? `echo '${JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE })}'` : "exit 0",
	});
}

/** The matcher groups for one event, as settings files and hooks.json hold them. */
export function matcherGroup(program: HookForm, registration: HookRegistration): Record<string, unknown> {
	const hook = { type: "command", command: hookCommand(program, wordOf(registration)), timeout: registration.timeout };
	return groupedHook(registration.asyncRewake ? { ...hook, asyncRewake: true } : hook, registration);
}

/** Every event's groups: the value of a settings file's `hooks`. */
export function hooksObject(program: HookForm): Record<string, unknown[]> {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of REGISTRATIONS) {
		hooks[registration.event] = [...(hooks[registration.event] ?? []), matcherGroup(program, registration)];
	}
	return hooks;
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a command boulder installed; null for anyone else's. Claude Code's commands name no harness. */
export const parseOurCommand = ourCommandReader({
	harness: null,
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: HOOK_BIN,
});

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
