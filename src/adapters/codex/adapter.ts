/**
 * Codex CLI as the adapter registry sees it (`command-hook/adapter.ts`):
 * hooks in its hooks files, the shared hook program per event, its
 * `update_plan` list. The installer, the doctor and the hook load on first use.
 */
import { commandHookAdapter } from "../command-hook/adapter.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { normalizeCodexPlan } from "./todos.js";

export const codexAdapter = commandHookAdapter({
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
	events: HOOK_EVENTS,
	dialect: () => import("./dialect.js"),
	install: () => import("./install.js"),
	normalizeTodos: normalizeCodexPlan,
});
