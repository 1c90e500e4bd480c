/**
 * Which Copilot CLI hooks boulder installs, with what timeout, and the
 * command line of each: shared by the installer and `boulder doctor`.
 *
 * Copilot reads every `*.json` in `.github/hooks/` (the project) and in
 * `$COPILOT_HOME/hooks/` (the user, default `~/.copilot/hooks/`), each
 * `{"version": 1, "hooks": {<event>: [{"type": "command", "bash": …,
 * "timeoutSec": …}]}}`, and runs every entry of every file. So boulder keeps
 * its hooks in a file of its own, `boulder.json`, and never edits anyone
 * else's.
 *
 * A command comes in the two forms Claude Code's do (see
 * `claude-code/hook-config.ts`): pinned (this machine's node and this copy's
 * hook program, for the user's file) or portable (no path of any machine,
 * for the committed project file), which runs the project's devDependency,
 * the user's link (`$XDG_DATA_HOME/boulder/boulder-hook.cjs`), or
 * `boulder-hook` on the PATH, and else exits quietly: Copilot shows a hook no
 * notice, so a teammate without boulder simply sees nothing.
 *
 * Timeouts: Copilot kills a hook after `timeoutSec` (30 by default).
 * agentStop may run a plan's verify commands, so it gets 15 minutes; the
 * others do a few locked file updates and get a minute. Our watchdog ends
 * the hook ten seconds earlier, printing nothing, so the agent simply stops.
 */

import type { HookRegistration } from "../command-hook/registrations.js";
import { ourCommandReader } from "../shared/hook-command.js";
import {
	BOULDER_HOOK_BIN,
	BOULDER_HOOK_BUNDLE,
	HOOK_MARKER,
	type HookForm,
	hookArguments,
	isPortable,
	PORTABLE_TAG,
	pinnedCommand,
} from "../shared/hook-form.js";
import { BOULDER_HOOK_LINK } from "../shared/hook-link.js";
import { portableCommand } from "../shared/portable-command.js";
import type { HookEvent } from "./hook-input.js";

export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

/** The events boulder installs. sessionStart carries the resume context to a resumed session. */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "sessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "userPromptSubmitted", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "agentStop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "subagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "errorOccurred", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "preCompact", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "sessionEnd", timeout: HOOK_TIMEOUT_SECONDS },
];

/** boulder's own hooks file, in either hooks folder. */
export const HOOKS_FILE = "boulder.json";

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

/** The per-user link the portable commands look for, under `$XDG_DATA_HOME`. */
export const HOOK_LINK = BOULDER_HOOK_LINK.link;

/** The harness's name in the hook program's arguments: `boulder-hook.cjs copilot agentStop`. */
const ARGUMENT = "copilot";

/** The `bash` command Copilot runs for `event`. */
export function hookCommand(form: HookForm, event: HookEvent): string {
	const args = hookArguments(ARGUMENT, event);
	if (!isPortable(form)) return pinnedCommand(form, args);
	return portableCommand({
		projectDirVar: "COPILOT_PROJECT_DIR",
		bundle: BOULDER_HOOK_BUNDLE,
		link: HOOK_LINK,
		bin: BOULDER_HOOK_BIN,
		args,
		otherwise: "exit 0",
	});
}

/** The whole text of boulder's hooks file for `form`. */
export function hooksFileText(form: HookForm): string {
	const hooks: Record<string, unknown[]> = {};
	for (const { event, timeout } of REGISTRATIONS) {
		hooks[event] = [{ type: "command", bash: hookCommand(form, event), timeoutSec: timeout }];
	}
	return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

export type { OurCommand } from "../shared/hook-command.js";

/** Reads back a command boulder installed; null for anyone else's. */
export const parseOurCommand = ourCommandReader({
	harness: ARGUMENT,
	marker: HOOK_MARKER,
	portableTag: PORTABLE_TAG,
	bin: BOULDER_HOOK_BIN,
});
