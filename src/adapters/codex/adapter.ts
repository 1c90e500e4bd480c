/**
 * Codex CLI as the adapter registry sees it: hooks in its hooks files, the
 * shared hook program per event, its `update_plan` list. The installer, the
 * doctor check and the hook runtime load on first use.
 */
import { hookEntry } from "../command-hook/entry.js";
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { INSTALL_TEXT } from "./messages.js";
import { normalizeCodexPlan } from "./todos.js";

type Scope = "user" | "project";

function placeOf(place: InstallPlace) {
	return { cwd: place.cwd, env: place.env, scope: place.scope as Scope };
}

export const codexAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "Codex",
	program: "codex",
	scopes: [
		{
			name: "user",
			help: "your Codex hooks ($CODEX_HOME/hooks.json, default ~/.codex): every project, just you (the default)",
		},
		{
			name: "project",
			help: "this project's .codex/hooks.json, shared with everyone who works on it (no path of this machine in it)",
		},
	],
	defaultScope: "user",
	async install(place) {
		const { installCodex } = await import("./install.js");
		const { report, notes } = await installCodex(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallCodex } = await import("./install.js");
		return { report: await uninstallCodex(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { DIALECT, INSTALL_SCOPES, hooksFile } = await import("./install.js");
		const { withoutOurHooks } = await import("../shared/hooks-file.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => hooksFile(scope, place),
			(text, file) => withoutOurHooks(DIALECT, text, file).removed > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).codexDoctorCheck.run(context),
	},
	hook: hookEntry(HOOK_EVENTS, () => import("./dialect.js")),
	normalizeTodos: normalizeCodexPlan,
};
