/**
 * GitHub Copilot CLI as the adapter registry sees it: boulder's own hooks
 * file in Copilot's hooks folders, the shared hook program
 * (`boulder-hook.cjs copilot <event>`), the `todos` table of its session
 * database. The installer, the doctor check and the hook runtime load on
 * first use.
 */
import { hookEntry } from "../command-hook/entry.js";
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { INSTALL_TEXT } from "./messages.js";
import { normalizeCopilotTodos } from "./todos.js";

function placeOf(place: InstallPlace) {
	return { cwd: place.cwd, env: place.env, scope: place.scope as "project" | "user" };
}

export const copilotAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "Copilot CLI",
	program: "copilot",
	scopes: [
		{
			name: "project",
			help: "this project's .github/hooks/boulder.json, shared with everyone who works on it (no path of this machine in it; the default)",
		},
		{
			name: "user",
			help: "your user hooks folder (~/.copilot/hooks/boulder.json or $COPILOT_HOME/hooks): every project",
		},
	],
	defaultScope: "project",
	async install(place) {
		const { installCopilot } = await import("./install.js");
		const { report, notes } = await installCopilot(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallCopilot } = await import("./install.js");
		return { report: await uninstallCopilot(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { INSTALL_SCOPES, hooksFile, ourEntries } = await import("./install.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => hooksFile(scope, place),
			(text, file) => ourEntries(text, file).length > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).copilotDoctorCheck.run(context),
	},
	hook: hookEntry(HOOK_EVENTS, () => import("./dialect.js")),
	normalizeTodos: normalizeCopilotTodos,
};
