/**
 * Qwen Code as the adapter registry sees it: hooks in its settings files
 * (Claude Code's pattern), served by the one hook program
 * (`boulder-hook.cjs qwen <Event>`), its `todo_write` list. The installer,
 * the doctor check and the hook runtime load on first use.
 */
import { hookEntry } from "../command-hook/entry.js";
import type { HarnessAdapter, InstallPlace } from "../types.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { CAP_TEXT, INSTALL_TEXT } from "./messages.js";
import { normalizeQwenTodoWrite } from "./todos.js";

/** Spelled out here, not imported, so the registry does not load the installer. */
const RAISE_CAP_FLAG = "raise-cap";

function placeOf(place: InstallPlace) {
	return {
		cwd: place.cwd,
		env: place.env,
		scope: place.scope as "project" | "user",
		raiseCap: place.flags?.includes(RAISE_CAP_FLAG) ?? false,
	};
}

export const qwenAdapter: HarnessAdapter = {
	name: HARNESS,
	title: "Qwen Code",
	program: "qwen",
	scopes: [
		{
			name: "project",
			help: "this project's .qwen/settings.json, shared with everyone who works on it; no path of this machine in it (the default)",
		},
		{ name: "user", help: "your user settings (~/.qwen/settings.json or $QWEN_HOME/settings.json): every project" },
	],
	defaultScope: "project",
	installFlags: [{ name: RAISE_CAP_FLAG, help: CAP_TEXT.flagHelp }],
	async install(place) {
		const { installQwen } = await import("./install.js");
		const { report, notes } = await installQwen(placeOf(place));
		return { report, text: INSTALL_TEXT, notes };
	},
	async uninstall(place) {
		const { uninstallQwen } = await import("./install.js");
		return { report: await uninstallQwen(placeOf(place)), text: INSTALL_TEXT, notes: [] };
	},
	async installedScopes(place) {
		const { INSTALL_SCOPES, settingsFile, withoutOurQwenHooks } = await import("./install.js");
		const { scopesHolding } = await import("../shared/installed-scopes.js");
		return scopesHolding(
			INSTALL_SCOPES,
			(scope) => settingsFile(scope, place),
			(text, file) => withoutOurQwenHooks(text, file).removed > 0,
		);
	},
	doctor: {
		name: HARNESS,
		run: async (context) => (await import("./doctor.js")).qwenDoctorCheck.run(context),
	},
	hook: hookEntry(HOOK_EVENTS, () => import("./dialect.js")),
	normalizeTodos: normalizeQwenTodoWrite,
};
