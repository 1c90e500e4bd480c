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
import type { HookRegistration as FamilyRegistration } from "../command-hook/registrations.js";
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
import { portableCommand } from "../shared/portable-command.js";
import { HARNESS, type HookEvent } from "./hook-input.js";

/** Seconds Qwen Code gives the Stop hook, which may run a plan's verify commands; a minute for the others. */
export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

export type HookRegistration = FamilyRegistration<HookEvent>;

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

/** The shell command Qwen Code runs for `event`. */
export function hookCommand(form: HookForm, event: HookEvent): string {
	const args = hookArguments(HARNESS, event);
	if (!isPortable(form)) return pinnedCommand(form, args);
	// The installer links nothing for Qwen Code: the project's boulder, else a global install.
	return portableCommand({
		projectDirVar: "QWEN_PROJECT_DIR",
		bundle: BOULDER_HOOK_BUNDLE,
		link: null,
		bin: BOULDER_HOOK_BIN,
		args,
		otherwise: "exit 0",
	});
}

export function matcherGroup(form: HookForm, registration: HookRegistration): Record<string, unknown> {
	return groupedHook(
		{ type: "command", command: hookCommand(form, registration.event), timeout: registration.timeout },
		registration,
	);
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a command boulder installed for Qwen Code; null for anyone else's. */
export const parseOurCommand = ourCommandReader({
	harness: HARNESS,
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: BOULDER_HOOK_BIN,
});
