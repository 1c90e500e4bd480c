/**
 * OpenCode as the adapter registry sees it: an in-process plugin named in its
 * config, its todo list. It runs no command per event, so it has no hook
 * entry. The installer and the doctor check load on first use.
 */
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS } from "./event-read.js";
import { INSTALL_TEXT } from "./messages.js";
import { normalizeOpenCodeTodos } from "./todos.js";

type Scope = "project" | "user";

function placeOf(place: InstallPlace) {
	return { cwd: place.cwd, env: place.env, scope: place.scope as Scope };
}

export const openCodeAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "OpenCode",
	program: "opencode",
	scopes: [
		{ name: "project", help: "this project's ./opencode.json(c), by package name (the default)" },
		{ name: "user", help: "your user config (~/.config/opencode/opencode.json): every project" },
	],
	defaultScope: "project",
	async install(place) {
		const { installOpenCodeWithNotes } = await import("./install.js");
		const { report, notes } = await installOpenCodeWithNotes(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallOpenCode } = await import("./install.js");
		return { report: await uninstallOpenCode(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { INSTALL_SCOPES, existingConfigFiles, withoutOurPlugin } = await import("./install.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => existingConfigFiles(scope, place),
			(text, file) => withoutOurPlugin(text, file).removed > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).openCodeDoctorCheck.run(context),
	},
	normalizeTodos: normalizeOpenCodeTodos,
};
