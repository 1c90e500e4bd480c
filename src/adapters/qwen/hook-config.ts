/**
 * Which Qwen Code hooks boulder installs, with what timeout, and the command
 * line of each: shared by the installer, `boulder doctor` and the tests.
 * Qwen Code reads hooks as Claude Code does (`hooks.<Event>` groups of
 * `{type: "command", command, timeout}` in its settings; timeouts in
 * seconds) and runs each command with `sh -c`.
 *
 * A command comes in one of two forms:
 *
 * - pinned: this machine's node and the absolute path of one copy of
 *   boulder's hook program, `dist/hook/boulder-hook.cjs qwen <Event>` (user
 *   settings, which stay on this machine);
 * - portable: no path of any machine, for a project's settings a team
 *   commits. It runs the project's own boulder-agent (devDependency), else
 *   the `boulder-hook` program on the PATH (a global install); with neither
 *   it exits quietly, so a teammate without boulder sees no hook errors.
 */
import { shellWord, shellWords } from "../shared/shell-words.js";
import type { HookEvent } from "./hook-input.js";

const PACKAGE_NAME = "boulder-agent";

/** Seconds Qwen Code gives the Stop hook, which may run a plan's verify commands; a minute for the others. */
export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

/** How long the hook process may run before it gives up and lets the agent stop: ten seconds under the timeout. */
export function watchdogMs(event: string | undefined): number {
	return (event === "Stop" ? STOP_TIMEOUT_SECONDS : HOOK_TIMEOUT_SECONDS) * 1000 - 10_000;
}

export interface HookRegistration {
	event: HookEvent;
	/** Tool names for PostToolUse; absent: every occurrence of the event. */
	matcher?: string;
	timeout: number;
}

/** PostCompact is not installed: PreCompact already reports the compaction. */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: "todo_write", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/** Every command boulder installs carries this, so uninstall removes exactly boulder's entries. */
export const HOOK_MARKER = "--boulder-hook";

/** The one hook program of every command-hook harness, relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/boulder-hook.cjs";

/** The same program, as a global install puts it on the PATH. */
export const HOOK_BIN = "boulder-hook";

export const PORTABLE_TAG = "portable";

export interface HookProgram {
	node: string;
	bundle: string;
	version: string;
}

export interface PortableHook {
	portable: true;
}

export const PORTABLE: PortableHook = { portable: true };

export type HookForm = HookProgram | PortableHook;

export function isPortable(form: HookForm): form is PortableHook {
	return "portable" in form && form.portable === true;
}

/** The shell command Qwen Code runs for `event`. */
export function hookCommand(form: HookForm, event: HookEvent): string {
	const run = `qwen ${event} ${HOOK_MARKER}=${isPortable(form) ? PORTABLE_TAG : form.version}`;
	if (!isPortable(form)) return `${shellWord(form.node)} ${shellWord(form.bundle)} ${run}`;
	// POSIX sh; nothing forks before the hook runs (`[` and `command -v` are built in).
	return [
		`h="$QWEN_PROJECT_DIR/node_modules/${PACKAGE_NAME}/${HOOK_BUNDLE}"`,
		`[ -f "$h" ] && exec node "$h" ${run}`,
		`command -v ${HOOK_BIN} >/dev/null && exec ${HOOK_BIN} ${run}`,
		"exit 0",
	].join("; ");
}

export function matcherGroup(form: HookForm, registration: HookRegistration): Record<string, unknown> {
	const hook = { type: "command", command: hookCommand(form, registration.event), timeout: registration.timeout };
	return registration.matcher ? { matcher: registration.matcher, hooks: [hook] } : { hooks: [hook] };
}

export type OurCommand =
	| { form: "pinned"; event: string; version: string; node: string; bundle: string }
	| { form: "portable"; event: string };

const OUR_COMMAND = new RegExp(`^(.*)\\s+qwen\\s+(\\w+)\\s+${HOOK_MARKER}=(\\S+)\\s*$`);
const OUR_PORTABLE_COMMAND = new RegExp(`\\sqwen (\\w+) ${HOOK_MARKER}=${PORTABLE_TAG}[;\\s]`);

/** Reads back a command boulder installed for Qwen Code; null for anyone else's. */
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
