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
 * every other hook does a few locked file updates and gets a minute.
 *
 * Not PreCompress: Gemini CLI fires it before every model request, before it
 * decides whether to compress at all, and nothing of boulder needs it. Our own
 * watchdog (`command-hook/registrations.ts`, from these timeouts) ends the
 * hook shortly before, cleanly, printing nothing, so the agent simply stops.
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
import { BOULDER_HOOK_LINK } from "../shared/hook-link.js";
import { portableCommand } from "../shared/portable-command.js";
import { HARNESS, type HookEvent } from "./hook-input.js";
import { TODO_TOOL } from "./todos.js";

/** Seconds, as every dialect's table; Gemini CLI's settings hold milliseconds (`hookGroup`). */
export type HookRegistration = FamilyRegistration<HookEvent>;

export const AFTER_AGENT_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "BeforeAgent", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterTool", matcher: `^${TODO_TOOL}$`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterAgent", timeout: AFTER_AGENT_TIMEOUT_SECONDS },
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

/** The per-user link to an installed boulder's hook program, under `$XDG_DATA_HOME` (default `~/.local/share`). */
export const HOOK_LINK = BOULDER_HOOK_LINK.link;

/** The shell command Gemini CLI runs for `event`. */
export function hookCommand(form: HookForm, event: HookEvent): string {
	const args = hookArguments(HARNESS, event);
	if (!isPortable(form)) return pinnedCommand(form, args);
	return portableCommand({
		projectDirVar: "GEMINI_PROJECT_DIR",
		projectDirQuoted: true,
		bundle: BOULDER_HOOK_BUNDLE,
		link: HOOK_LINK,
		bin: BOULDER_HOOK_BIN,
		args,
		otherwise: "exit 0",
	});
}

/** One event's group, as settings.json holds it. */
export function hookGroup(form: HookForm, registration: HookRegistration): Record<string, unknown> {
	const hook = {
		name: `boulder-${registration.event}`,
		type: "command",
		command: hookCommand(form, registration.event),
		timeout: registration.timeout * 1000,
	};
	return groupedHook(hook, registration);
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a Gemini command boulder installed; null for anyone else's. */
export const parseOurCommand = ourCommandReader({
	harness: HARNESS,
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: BOULDER_HOOK_BIN,
});
