/**
 * OpenCode, and Kilo Code (its fork), as the adapter registry sees them: an
 * in-process plugin named in the harness's config, and its todo list. It runs
 * no command per event, so it has no hook entry. Both adapters are this one
 * factory over the host's data (`host.ts`); the installer and the doctor
 * check load on first use.
 */
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { KILO_HOST, OPENCODE_HOST, type PluginHost } from "./host.js";
import { installText } from "./messages.js";
import { normalizeOpenCodeTodos } from "./todos.js";

type Scope = "project" | "user";

export function pluginAdapter(host: PluginHost, scopeHelp: Record<Scope, string>): HarnessAdapter {
	const text = installText(host);
	const placeOf = (place: InstallPlace) => ({ cwd: place.cwd, env: place.env, scope: place.scope as Scope, host });
	return {
		name: host.harness,
		title: host.title,
		program: host.program,
		scopes: [
			{ name: "project", help: scopeHelp.project },
			{ name: "user", help: scopeHelp.user },
		],
		defaultScope: "project",
		async install(place) {
			const { installOpenCodeWithNotes } = await import("./install.js");
			const { report, notes } = await installOpenCodeWithNotes(placeOf(place));
			return { report, text, notes };
		},
		async uninstall(place) {
			const { uninstallOpenCode } = await import("./install.js");
			return { report: await uninstallOpenCode(placeOf(place)), text, notes: [] };
		},
		async installedScopes(place) {
			const { INSTALL_SCOPES, existingConfigFiles, withoutOurPlugin } = await import("./install.js");
			const { scopesHolding } = await import("../shared/installed-scopes.js");
			return scopesHolding(
				INSTALL_SCOPES,
				(scope) => existingConfigFiles(scope, { ...place, host }),
				(text, file) => withoutOurPlugin(text, file, host).removed > 0,
			);
		},
		doctor: {
			name: host.harness,
			run: async (context) => (await import("./doctor.js")).pluginDoctorCheck(host).run(context),
		},
		normalizeTodos: normalizeOpenCodeTodos,
	};
}

export const openCodeAdapter: HarnessAdapter = pluginAdapter(OPENCODE_HOST, {
	project: "this project's ./opencode.json(c), by package name (the default)",
	user: "your user config (~/.config/opencode/opencode.json): every project",
});

export const kiloAdapter: HarnessAdapter = pluginAdapter(KILO_HOST, {
	project: "this project's ./kilo.json(c) or .kilo/kilo.json(c), by package name (the default)",
	user: "your user config (~/.config/kilo/kilo.jsonc): every project",
});
