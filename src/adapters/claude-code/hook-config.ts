/**
 * Which Claude Code hooks boulder installs, with what matcher and timeout,
 * and the command line of each: shared by the installer, the plugin's
 * `hooks/hooks.json` (a test keeps the two in step) and `boulder doctor`.
 *
 * Timeouts: the harness kills a hook that outlives its timeout. The Stop hook
 * may run a plan's verify commands (5 minutes each by default), so it gets 15
 * minutes; every other hook does a few locked file updates and gets a minute.
 * Our own watchdog ends the hook ten seconds earlier, cleanly, printing
 * nothing, so the agent simply stops.
 */
import type { HookEvent } from "./hook-input.js";

export interface HookRegistration {
	event: HookEvent;
	/** Tool names for PostToolUse; absent: every occurrence of the event. */
	matcher?: string;
	/** Seconds. */
	timeout: number;
}

export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;
const WATCHDOG_MARGIN_MS = 10_000;

/** The todo tools, whose results keep boulder's copy of the agent's list. */
export const TODO_TOOLS_MATCHER = "TodoWrite|TaskCreate|TaskUpdate|TaskGet|TaskList";

/**
 * PostCompact is handled if someone registers it, but not installed:
 * PreCompact already reports the compaction, and PostCompact was not seen
 * firing for `/compact` in `-p` mode.
 */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: TODO_TOOLS_MATCHER, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/** How long the hook process may run before it gives up and lets the agent stop. */
export function watchdogMs(event: string | undefined): number {
	const seconds = event === "Stop" ? STOP_TIMEOUT_SECONDS : HOOK_TIMEOUT_SECONDS;
	return seconds * 1000 - WATCHDOG_MARGIN_MS;
}

/** Every command boulder installs carries this, so uninstall removes exactly boulder's entries. */
export const HOOK_MARKER = "--boulder-hook";

/** The hook program (the loader of the bundle), relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/claude-code.cjs";

export interface HookProgram {
	/** The node binary (absolute, for settings files; `node` for the plugin). */
	node: string;
	/** The bundled hook, absolute (or under `${CLAUDE_PLUGIN_ROOT}` for the plugin). */
	bundle: string;
	/** Written into the marker, so `boulder doctor` can tell an outdated install. */
	version: string;
}

/** The shell command Claude Code runs for `event`. */
export function hookCommand(program: HookProgram, event: HookEvent): string {
	return `${shellWord(program.node)} ${shellWord(program.bundle)} ${event} ${HOOK_MARKER}=${program.version}`;
}

/** The matcher groups for one event, as settings files and hooks.json hold them. */
export function matcherGroup(program: HookProgram, registration: HookRegistration): Record<string, unknown> {
	const hook = { type: "command", command: hookCommand(program, registration.event), timeout: registration.timeout };
	return registration.matcher ? { matcher: registration.matcher, hooks: [hook] } : { hooks: [hook] };
}

/** Every event's groups: the value of a settings file's `hooks`. */
export function hooksObject(program: HookProgram): Record<string, unknown[]> {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of REGISTRATIONS) hooks[registration.event] = [matcherGroup(program, registration)];
	return hooks;
}

export interface OurCommand {
	event: string;
	version: string;
	/** The words before the event: the node binary and the hook program, unquoted. */
	node: string;
	bundle: string;
}

const OUR_COMMAND = new RegExp(`^(.*)\\s+(\\w+)\\s+${HOOK_MARKER}=(\\S+)\\s*$`);

/** Reads back a command boulder installed; null for anyone else's. */
export function parseOurCommand(command: unknown): OurCommand | null {
	if (typeof command !== "string" || !command.includes(HOOK_MARKER)) return null;
	const match = OUR_COMMAND.exec(command);
	if (!match) return null;
	const words = shellWords(match[1] ?? "");
	if (words.length !== 2) return null;
	return { node: words[0] ?? "", bundle: words[1] ?? "", event: match[2] ?? "", version: match[3] ?? "" };
}

/** Claude Code expands this in a plugin's hook commands. */
export const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

/** Quotes for a POSIX shell when needed; `${CLAUDE_PLUGIN_ROOT}` must stay expandable, so it is double-quoted. */
export function shellWord(word: string): string {
	if (/^[\w@%+=:,./-]+$/.test(word)) return word;
	if (word.includes(PLUGIN_ROOT) && !/["\\`]/.test(word.replaceAll(PLUGIN_ROOT, ""))) {
		return `"${word}"`;
	}
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Splits what `shellWord` produced back into words. */
function shellWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		if (match[1] !== undefined) words.push(match[1].replaceAll(`'\\''`, "'"));
		else words.push(match[2] ?? match[3] ?? "");
	}
	return words;
}
