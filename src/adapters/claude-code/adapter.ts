/**
 * Claude Code as the adapter registry sees it: hooks in its settings files,
 * a hook program per event, its TodoWrite list. The installer, the doctor
 * check and the hook runtime load on first use, so a CLI command that needs
 * none of them does not pay for them.
 */
import { hookEntry } from "../command-hook/entry.js";
import { normalizeClaudeTodoWrite } from "../command-hook/todo-write.js";
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { WATCHDOG_HOOK } from "./hook-config.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { INSTALL_TEXT, TODO_TOOLS_TEXT } from "./messages.js";

type Scope = "local" | "project" | "user";

const TODO_TOOLS_FLAG = "todo-tools";

function placeOf(place: InstallPlace) {
	return {
		cwd: place.cwd,
		env: place.env,
		scope: place.scope as Scope,
		todoTools: place.flags?.includes(TODO_TOOLS_FLAG) ?? false,
	};
}

export const claudeCodeAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "Claude Code",
	program: "claude",
	scopes: [
		{ name: "local", help: "this project's .claude/settings.local.json, for you only (the default)" },
		{
			name: "project",
			help: "this project's .claude/settings.json, shared with everyone who works on it (no path of this machine in it)",
		},
		{ name: "user", help: "your user settings (~/.claude/settings.json or $CLAUDE_CONFIG_DIR): every project" },
	],
	defaultScope: "local",
	installFlags: [{ name: TODO_TOOLS_FLAG, help: TODO_TOOLS_TEXT.flagHelp }],
	async install(place) {
		const { installClaudeCodeWithNotes } = await import("./install.js");
		const { report, notes, remarks } = await installClaudeCodeWithNotes(placeOf(place));
		return { report, text: INSTALL_TEXT, notes, remarks };
	},
	async uninstall(place) {
		const { uninstallClaudeCode } = await import("./install.js");
		return { report: await uninstallClaudeCode(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { INSTALL_SCOPES, settingsFile, withoutOurHooks } = await import("./install.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => settingsFile(scope, place),
			(text, file) => withoutOurHooks(text, file).removed > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).claudeCodeDoctorCheck.run(context),
	},
	hook: hookEntry([...HOOK_EVENTS, WATCHDOG_HOOK], () => import("./dialect.js")),
	normalizeTodos: normalizeClaudeTodoWrite,
};
