/**
 * Which Gemini CLI hooks boulder installs, with what matcher and timeout, and
 * the command line of each: shared by the installer and `boulder doctor`.
 *
 * Every command runs boulder's one hook program for command-hook harnesses,
 * `dist/hook/boulder-hook.cjs gemini <Event>`, in one of two forms:
 *
 * - pinned: this machine's node and the absolute path of one copy of the
 *   program (user settings, which stay on this machine);
 * - portable: no path of any machine, for the project's settings a team
 *   commits. It runs the first boulder it finds: the project's
 *   devDependency, the one `boulder install gemini` linked for this user
 *   (`$XDG_DATA_HOME/boulder/boulder-hook.cjs`), or the `boulder-hook`
 *   program on the PATH (a global install); with none, it exits quietly, so a
 *   teammate without boulder sees no hook errors.
 *
 * Gemini CLI replaces `$GEMINI_PROJECT_DIR` in a command with the project's
 * folder already quoted for the shell, so the portable command uses it
 * outside double quotes.
 *
 * Timeouts are in milliseconds (Gemini CLI's unit). AfterAgent may run a
 * plan's verify commands (5 minutes each by default), so it gets 15 minutes;
 * every other hook does a few locked file updates and gets a minute. Our own
 * watchdog ends the hook ten seconds earlier, cleanly, printing nothing, so
 * the agent simply stops.
 */
import { PACKAGE_NAME } from "../shared/config-file.js";
import { BOULDER_HOOK_LINK } from "../shared/hook-link.js";
import { shellWord, shellWords } from "../shared/shell-words.js";
import { HARNESS, type HookEvent } from "./hook-input.js";
import { TODO_TOOL } from "./todos.js";

export interface HookRegistration {
	event: HookEvent;
	/** A tool-name pattern for AfterTool; absent: every occurrence of the event. */
	matcher?: string;
	/** Milliseconds. */
	timeout: number;
}

export const AFTER_AGENT_TIMEOUT_MS = 900_000;
export const HOOK_TIMEOUT_MS = 60_000;
const WATCHDOG_MARGIN_MS = 10_000;

export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "BeforeAgent", timeout: HOOK_TIMEOUT_MS },
	{ event: "AfterTool", matcher: `^${TODO_TOOL}$`, timeout: HOOK_TIMEOUT_MS },
	{ event: "AfterAgent", timeout: AFTER_AGENT_TIMEOUT_MS },
	{ event: "PreCompress", timeout: HOOK_TIMEOUT_MS },
];

/** How long the hook process may run before it gives up and lets the agent stop. */
export function watchdogMs(event: string | undefined): number {
	return (event === "AfterAgent" ? AFTER_AGENT_TIMEOUT_MS : HOOK_TIMEOUT_MS) - WATCHDOG_MARGIN_MS;
}

/** Every command boulder installs carries this, so uninstall removes exactly boulder's entries. */
export const HOOK_MARKER = "--boulder-hook";

/** The hook program, relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/boulder-hook.cjs";

/** The package's program for it, as a global install puts it on the PATH. */
export const HOOK_BIN = "boulder-hook";

/** The per-user link to an installed boulder's hook program, under `$XDG_DATA_HOME` (default `~/.local/share`). */
export const HOOK_LINK = BOULDER_HOOK_LINK.link;

/** The marker's value in portable commands, which name no version: any installed boulder runs them. */
export const PORTABLE_TAG = "portable";

/** A pinned hook program. */
export interface HookProgram {
	node: string;
	bundle: string;
	/** Written into the marker, so `boulder doctor` can tell an outdated install. */
	version: string;
}

export type HookForm = HookProgram | { portable: true };

export const PORTABLE: HookForm = { portable: true };

export function isPortable(form: HookForm): form is { portable: true } {
	return "portable" in form && form.portable === true;
}

/** The shell command Gemini CLI runs for `event`. */
export function hookCommand(form: HookForm, event: HookEvent): string {
	const run = `${HARNESS} ${event} ${HOOK_MARKER}=`;
	if (!isPortable(form)) return `${shellWord(form.node)} ${shellWord(form.bundle)} ${run}${form.version}`;
	return [
		`h=$GEMINI_PROJECT_DIR/node_modules/${PACKAGE_NAME}/${HOOK_BUNDLE}`,
		`[ -f "$h" ] || h="\${XDG_DATA_HOME:-$HOME/.local/share}/${HOOK_LINK}"`,
		`[ -f "$h" ] && exec node "$h" ${run}${PORTABLE_TAG}`,
		`command -v ${HOOK_BIN} >/dev/null && exec ${HOOK_BIN} ${run}${PORTABLE_TAG}`,
		"exit 0",
	].join("; ");
}

/** One event's group, as settings.json holds it. */
export function hookGroup(form: HookForm, registration: HookRegistration): Record<string, unknown> {
	const hook = {
		name: `boulder-${registration.event}`,
		type: "command",
		command: hookCommand(form, registration.event),
		timeout: registration.timeout,
	};
	return registration.matcher ? { matcher: registration.matcher, hooks: [hook] } : { hooks: [hook] };
}

/** A command boulder installed, read back. */
export type OurCommand =
	| { form: "pinned"; event: string; version: string; node: string; bundle: string }
	| { form: "portable"; event: string };

const OUR_COMMAND = new RegExp(`^(.*)\\s+${HARNESS}\\s+(\\w+)\\s+${HOOK_MARKER}=(\\S+)\\s*$`);
const OUR_PORTABLE_COMMAND = new RegExp(`\\s${HARNESS} (\\w+) ${HOOK_MARKER}=${PORTABLE_TAG}[;\\s]`);

/** Reads back a Gemini command boulder installed; null for anyone else's. */
export function parseOurCommand(command: unknown): OurCommand | null {
	if (typeof command !== "string" || !command.includes(HOOK_MARKER)) return null;
	const portable = OUR_PORTABLE_COMMAND.exec(command);
	if (portable && command.includes(HOOK_BIN)) return { form: "portable", event: portable[1] ?? "" };
	const match = OUR_COMMAND.exec(command);
	if (!match) return null;
	const words = shellWords(match[1] ?? "");
	if (words.length !== 2) return null;
	return {
		form: "pinned",
		node: words[0] ?? "",
		bundle: words[1] ?? "",
		event: match[2] ?? "",
		version: match[3] ?? "",
	};
}
