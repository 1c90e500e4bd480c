/**
 * Which Codex hooks boulder installs, with what matcher and timeout, and the
 * command line of each: shared by the installer and `boulder doctor`.
 *
 * Every command runs the one bundled hook program, `boulder-hook.cjs codex
 * <Event>` (see `hook-runners.ts`), in one of two forms:
 *
 * - pinned: this machine's node and the absolute path of this copy's hook
 *   program (the user's `$CODEX_HOME/hooks.json`, which stays on this machine);
 * - portable: no path of any machine, for a project's `.codex/hooks.json` that
 *   a team commits. Codex runs hooks in the session's folder (which may be a
 *   subfolder of the project) and names no project folder, so the command
 *   looks for the project's devDependency from there upwards, then for the
 *   `boulder-hook` program on the PATH (a global install). With neither,
 *   SessionStart prints a one-line notice and every other event exits
 *   quietly, so a teammate without boulder sees no hook errors.
 *
 * Timeouts: Codex kills a hook that outlives its timeout (and clamps
 * Interrupt's to 3 seconds). The Stop hook may run a plan's verify commands,
 * so it gets 15 minutes; every other hook does a few locked file updates.
 * Our own watchdog ends the hook shortly before, cleanly, printing nothing,
 * so the agent simply stops.
 */
import { ourCommandReader } from "../shared/hook-command.js";
import { shellWord } from "../shared/shell-words.js";
import { NOT_INSTALLED_NOTICE } from "./messages.js";

const PACKAGE_NAME = "boulder-agent";

export interface HookRegistration {
	event: string;
	/** A tool-name pattern for PostToolUse; absent: every occurrence of the event. */
	matcher?: string;
	/** Seconds. */
	timeout: number;
}

export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;
/** Codex clamps an Interrupt hook's timeout to this. */
export const INTERRUPT_TIMEOUT_SECONDS = 3;

/** The plan tool and the edit tool, whose results keep boulder's copy of the plan and count edits. */
export const TOOLS_MATCHER = "^(update_plan|apply_patch)$";

/**
 * PostCompact is handled if someone registers it, but not installed:
 * PreCompact already reports the compaction.
 */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: TOOLS_MATCHER, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Interrupt", timeout: INTERRUPT_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/** How long the hook process may run before it gives up and lets the agent stop. */
export function watchdogMs(event: string | undefined): number {
	const registered = REGISTRATIONS.find((registration) => registration.event === event);
	const seconds = registered?.timeout ?? HOOK_TIMEOUT_SECONDS;
	// A tenth of the timeout, at most ten seconds, is left for Codex to read what was printed.
	return seconds * 1000 - Math.min(10_000, seconds * 100);
}

/** Every command boulder installs carries this, so uninstall removes exactly boulder's entries. */
export const HOOK_MARKER = "--boulder-hook";

/** The hook program every command-hook harness runs, relative to the package root. */
export const HOOK_BUNDLE = "dist/hook/boulder-hook.cjs";

/** The same program, as a global install puts it on the PATH. */
export const HOOK_BIN = "boulder-hook";

/** The marker's value in portable commands, which name no version: any installed boulder runs them. */
export const PORTABLE_TAG = "portable";

/** A pinned hook program. */
export interface HookProgram {
	/** The node binary, absolute. */
	node: string;
	/** The bundled hook, absolute. */
	bundle: string;
	/** Written into the marker, so `boulder doctor` can tell an outdated install. */
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

/** The shell command Codex runs for `event`. */
export function hookCommand(program: HookForm, event: string): string {
	if (isPortable(program)) return portableCommand(event);
	return `${shellWord(program.node)} ${shellWord(program.bundle)} codex ${event} ${HOOK_MARKER}=${program.version}`;
}

/**
 * The finder, in POSIX sh, forking nothing before the hook runs (`[`,
 * `command -v` and the `${d%/*}` walk up the tree are built in). Every branch
 * ends in `exec` or an exit 0; the notice is JSON Codex shows the user
 * (`systemMessage`), never the model.
 */
function portableCommand(event: string): string {
	const run = `codex ${event} ${HOOK_MARKER}=${PORTABLE_TAG}`;
	const own = `node_modules/${PACKAGE_NAME}/${HOOK_BUNDLE}`;
	const otherwise =
		event === "SessionStart" ? `echo '${JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE })}'` : "exit 0";
	return [
		`d="$PWD"`,
		`while [ -n "$d" ] && [ ! -f "$d/${own}" ]; do d="\${d%/*}"; done`,
		`[ -n "$d" ] && exec node "$d/${own}" ${run}`,
		`command -v ${HOOK_BIN} >/dev/null && exec ${HOOK_BIN} ${run}`,
		otherwise,
	].join("; ");
}

/** The matcher group for one event, as hooks.json holds it. */
export function matcherGroup(program: HookForm, registration: HookRegistration): Record<string, unknown> {
	const hook = { type: "command", command: hookCommand(program, registration.event), timeout: registration.timeout };
	return registration.matcher ? { matcher: registration.matcher, hooks: [hook] } : { hooks: [hook] };
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a command boulder installed; null for anyone else's. */
export const parseOurCommand = ourCommandReader({
	harness: "codex",
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: HOOK_BIN,
});
