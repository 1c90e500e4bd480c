/**
 * Which Qwen Code hooks boulder installs, with what timeout, and how their
 * command is spelled (`command-hook/spelling.ts`). Qwen Code reads hooks as
 * Claude Code does (`hooks.<Event>` groups of `{type: "command", command,
 * timeout}` in its settings; timeouts in seconds) and runs each command with
 * `sh -c`: `dist/hook/boulder-hook.cjs qwen <Event>`, pinned (user settings)
 * or portable (a project's settings a team commits: the project's own
 * boulder-agent, else `boulder-hook` on the PATH; the installer links nothing
 * for Qwen Code; with neither it exits quietly).
 */
import type { HookRegistration as FamilyRegistration } from "../command-hook/registrations.js";
import { boulderHook, hookCommand as commandOf, commandReader } from "../command-hook/spelling.js";
import type { HookForm } from "../shared/hook-form.js";
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

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "QWEN_PROJECT_DIR";

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { link: null });

/** The command the harness runs for an event; and the reader of the commands boulder installed. */
export const hookCommand = (form: HookForm, event: HookEvent): string => commandOf(SPELLING, form, event);
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export { type HookForm, type HookProgram, PORTABLE } from "../shared/hook-form.js";
