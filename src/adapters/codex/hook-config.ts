/**
 * Which Codex hooks boulder installs, with what matcher and timeout, and how
 * their command is spelled (`command-hook/spelling.ts`): the one bundled hook
 * program, `boulder-hook.cjs codex <Event>`, pinned (the user's
 * `$CODEX_HOME/hooks.json`) or portable (a project's `.codex/hooks.json` a
 * team commits). Codex runs hooks in the session's folder (which may be a
 * subfolder of the project) and names no project folder, so the portable
 * command looks for the project's devDependency from there upwards, the
 * user's own only (`shared/portable-command.ts`), then for `boulder-hook` on
 * the PATH. With neither, SessionStart prints a one-line notice (JSON Codex
 * shows the user, never the model) and every other event exits quietly.
 *
 * Timeouts: Codex kills a hook that outlives its timeout (and clamps
 * Interrupt's to 3 seconds). The Stop hook may run a plan's verify commands,
 * so it gets 15 minutes; every other hook does a few locked file updates.
 */
import type { HookRegistration as FamilyRegistration } from "../command-hook/registrations.js";
import { boulderHook, hookCommand as commandOf, commandReader } from "../command-hook/spelling.js";
import type { HookForm } from "../shared/hook-form.js";
import { HARNESS } from "./hook-input.js";
import { NOT_INSTALLED_NOTICE } from "./messages.js";

export type HookRegistration = FamilyRegistration;

export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;
/** Codex clamps an Interrupt hook's timeout to this. */
export const INTERRUPT_TIMEOUT_SECONDS = 3;

/** The plan tool and the edit tool, whose results keep boulder's copy of the plan and count edits. */
export const TOOLS_MATCHER = "^(update_plan|apply_patch)$";

/** PostCompact is handled if someone registers it, but not installed: PreCompact already reports the compaction. */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: TOOLS_MATCHER, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Interrupt", timeout: INTERRUPT_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, null, {
	link: null,
	notInstalled: /* @__PURE__ */ JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE }),
});

/** The command the harness runs for an event; and the reader of the commands boulder installed. */
export const hookCommand = (form: HookForm, event: string): string => commandOf(SPELLING, form, event);
export const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export {
	BOULDER_HOOK_BUNDLE as HOOK_BUNDLE,
	type HookForm,
	type HookProgram,
	PORTABLE,
} from "../shared/hook-form.js";
