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
import type { HookRegistration as FamilyRegistration } from "../command-hook/registrations.js";
import { PACKAGE_NAME } from "../shared/config-file.js";
import { ourCommandReader } from "../shared/hook-command.js";
import {
	BOULDER_HOOK_BIN,
	BOULDER_HOOK_BUNDLE,
	groupedHook,
	HOOK_MARKER,
	type HookForm,
	hookArguments,
	isPortable,
	PORTABLE_TAG,
	pinnedCommand,
} from "../shared/hook-form.js";
import { HARNESS } from "./hook-input.js";
import { NOT_INSTALLED_NOTICE } from "./messages.js";

export type HookRegistration = FamilyRegistration;

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

export {
	BOULDER_HOOK_BIN as HOOK_BIN,
	BOULDER_HOOK_BUNDLE as HOOK_BUNDLE,
	HOOK_MARKER,
	type HookForm,
	type HookProgram,
	isPortable,
	PORTABLE,
	PORTABLE_TAG,
} from "../shared/hook-form.js";

/** The shell command Codex runs for `event`. */
export function hookCommand(program: HookForm, event: string): string {
	const args = hookArguments(HARNESS, event);
	return isPortable(program) ? portableCommand(args, event) : pinnedCommand(program, args);
}

/**
 * The finder, in POSIX sh, forking nothing before the hook runs (`[`,
 * `command -v` and the `${d%/*}` walk up the tree are built in): Codex names
 * no project folder, so it looks upwards from the session's, but never past
 * the project's root (the first folder with a `.git` or a `package.json`):
 * a `node_modules` in a shared parent such as `/tmp` is anyone's. What it
 * finds runs only when the `node_modules` folder, the package and the hook
 * program are all the user's own (`-O`). Every branch ends in `exec` or an
 * exit 0; the notice is JSON Codex shows the user (`systemMessage`), never
 * the model.
 */
function portableCommand(args: string, event: string): string {
	const run = `${args} ${HOOK_MARKER}=${PORTABLE_TAG}`;
	const own = `node_modules/${PACKAGE_NAME}/${BOULDER_HOOK_BUNDLE}`;
	const otherwise =
		event === "SessionStart" ? `echo '${JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE })}'` : "exit 0";
	return [
		`d="$PWD"`,
		`while [ -n "$d" ] && [ ! -f "$d/${own}" ] && [ ! -e "$d/.git" ] && [ ! -f "$d/package.json" ]; do d="\${d%/*}"; done`,
		`[ -n "$d" ] && [ -O "$d/node_modules" ] && [ -O "$d/node_modules/${PACKAGE_NAME}" ] && [ -O "$d/${own}" ] && exec node "$d/${own}" ${run}`,
		`command -v ${BOULDER_HOOK_BIN} >/dev/null && exec ${BOULDER_HOOK_BIN} ${run}`,
		otherwise,
	].join("; ");
}

/** The matcher group for one event, as hooks.json holds it. */
export function matcherGroup(program: HookForm, registration: HookRegistration): Record<string, unknown> {
	return groupedHook(
		{ type: "command", command: hookCommand(program, registration.event), timeout: registration.timeout },
		registration,
	);
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a command boulder installed; null for anyone else's. */
export const parseOurCommand = ourCommandReader({
	harness: HARNESS,
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: BOULDER_HOOK_BIN,
});
