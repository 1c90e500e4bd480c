/**
 * Gemini CLI as the adapter registry sees it: hooks in its settings files,
 * boulder's hook program per event, its `write_todos` list. The installer,
 * the doctor check and the hook runtime load on first use, so a CLI command
 * that needs none of them does not pay for them.
 */
import { hookEntry } from "../command-hook/entry.js";
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { INSTALL_TEXT } from "./messages.js";
import { normalizeGeminiTodos } from "./todos.js";

function placeOf(place: InstallPlace) {
	return { cwd: place.cwd, env: place.env, scope: place.scope as "user" | "project" };
}

export const geminiAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "Gemini CLI",
	program: "gemini",
	scopes: [
		{
			name: "user",
			help: "your user settings (~/.gemini/settings.json or $GEMINI_CLI_HOME): every project (the default)",
		},
		{
			name: "project",
			help: "this project's .gemini/settings.json, shared with everyone who works on it (no path of this machine in it)",
		},
	],
	defaultScope: "user",
	async install(place) {
		const { installGemini } = await import("./install.js");
		const { report, notes } = await installGemini(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallGemini } = await import("./install.js");
		return { report: await uninstallGemini(placeOf(place)), text: INSTALL_TEXT, notes: [] };
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
		run: async (context) => (await import("./doctor.js")).geminiDoctorCheck.run(context),
	},
	hook: hookEntry(HOOK_EVENTS, () => import("./dialect.js")),
	normalizeTodos: normalizeGeminiTodos,
};
