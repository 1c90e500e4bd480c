/**
 * Which Copilot CLI hooks boulder installs, with what timeout, and how their
 * command is spelled (`command-hook/spelling.ts`).
 *
 * Copilot reads every `*.json` in `.github/hooks/` (the project) and in
 * `$COPILOT_HOME/hooks/` (the user, default `~/.copilot/hooks/`), each
 * `{"version": 1, "hooks": {<event>: [{"type": "command", "bash": …,
 * "timeoutSec": …}]}}`, and runs every entry of every file. So boulder keeps
 * its hooks in a file of its own, `boulder.json`, and never edits anyone
 * else's. Commands are pinned (the user's file) or portable (the committed
 * project file: the project's devDependency, the user's link, `boulder-hook`
 * on the PATH, else a quiet exit: Copilot shows a hook no notice).
 *
 * Timeouts: Copilot kills a hook after `timeoutSec` (30 by default).
 * agentStop may run a plan's verify commands, so it gets 15 minutes; the
 * others do a few locked file updates and get a minute.
 */
import type { HookRegistration } from "../command-hook/registrations.js";
import { boulderHook, hookCommand as commandOf, commandReader } from "../command-hook/spelling.js";
import type { HookForm } from "../shared/hook-form.js";
import { HARNESS, type HookEvent } from "./hook-input.js";

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

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "COPILOT_PROJECT_DIR";

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR);

/** The command the harness runs for an event; and the reader of the commands boulder installed. */
export const hookCommand = (form: HookForm, event: HookEvent): string => commandOf(SPELLING, form, event);
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export { type HookForm, type HookProgram, PORTABLE } from "../shared/hook-form.js";
