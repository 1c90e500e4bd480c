/**
 * Which Gemini CLI hooks boulder installs, with what matcher and timeout, and
 * how their command is spelled (`command-hook/spelling.ts`): boulder's one
 * hook program for command-hook harnesses, `dist/hook/boulder-hook.cjs gemini
 * <Event>`, pinned (user settings) or portable (the project's settings a team
 * commits: the project's devDependency, the user's link
 * `$XDG_DATA_HOME/boulder/boulder-hook.cjs`, `boulder-hook` on the PATH; with
 * none it exits quietly).
 *
 * Gemini CLI replaces `$GEMINI_PROJECT_DIR` in a command with the project's
 * folder already quoted for the shell, so the portable command uses it
 * outside double quotes.
 *
 * Timeouts are seconds here, as every dialect's table; Gemini CLI's settings
 * hold milliseconds (`install.ts`). AfterAgent may run a plan's verify
 * commands, so it gets 15 minutes; every other hook gets a minute.
 *
 * Not PreCompress: Gemini CLI fires it before every model request, before it
 * decides whether to compress at all, and nothing of boulder needs it.
 */
import type { HookRegistration as FamilyRegistration } from "../command-hook/registrations.js";
import { boulderHook, hookCommand as commandOf, commandReader } from "../command-hook/spelling.js";
import type { HookForm } from "../shared/hook-form.js";
import { HARNESS, type HookEvent } from "./hook-input.js";
import { TODO_TOOL } from "./todos.js";

export type HookRegistration = FamilyRegistration<HookEvent>;

export const AFTER_AGENT_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "BeforeAgent", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterTool", matcher: `^${TODO_TOOL}$`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterAgent", timeout: AFTER_AGENT_TIMEOUT_SECONDS },
];

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "GEMINI_PROJECT_DIR";

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { projectDirQuoted: true });

/** The command the harness runs for an event; and the reader of the commands boulder installed. */
export const hookCommand = (form: HookForm, event: HookEvent): string => commandOf(SPELLING, form, event);
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export { type HookForm, type HookProgram, PORTABLE } from "../shared/hook-form.js";
