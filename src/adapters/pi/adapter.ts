/**
 * pi as the adapter registry sees it: an in-process extension named in its
 * settings, and the todo list boulder's own tools keep. It runs no command
 * per event, so it has no hook entry. The installer and the doctor check
 * load on first use.
 */
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS } from "./bridge.js";
import { INSTALL_TEXT } from "./messages.js";
import { normalizePiTodos } from "./todos.js";

type Scope = "project" | "user";

function placeOf(place: InstallPlace) {
	return { cwd: place.cwd, env: place.env, scope: place.scope as Scope };
}

export const piAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "pi",
	program: "pi",
	scopes: [
		{
			name: "project",
			help: "this project's .pi/settings.json (a path relative to .pi/ when boulder is in the project; the default)",
		},
		{ name: "user", help: "your pi settings ($PI_CODING_AGENT_DIR or ~/.pi/agent/settings.json): every project" },
	],
	defaultScope: "project",
	async install(place) {
		const { installPi } = await import("./install.js");
		const { report, notes } = await installPi(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallPi } = await import("./install.js");
		return { report: await uninstallPi(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { INSTALL_SCOPES, settingsFile, withoutOurExtension } = await import("./install.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => settingsFile(scope, place),
			(text, file) => withoutOurExtension(text, file).removed > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).piDoctorCheck.run(context),
	},
	normalizeTodos: normalizePiTodos,
};
