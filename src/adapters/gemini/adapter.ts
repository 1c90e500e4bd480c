/**
 * Gemini CLI as the adapter registry sees it (`command-hook/adapter.ts`):
 * hooks in its settings files, boulder's hook program per event, its
 * `write_todos` list. The installer, the doctor and the hook load on first use.
 */
import { commandHookAdapter } from "../command-hook/adapter.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { normalizeGeminiTodos } from "./todos.js";

export const geminiAdapter = commandHookAdapter({
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
	events: HOOK_EVENTS,
	dialect: () => import("./dialect.js"),
	install: () => import("./install.js"),
	normalizeTodos: normalizeGeminiTodos,
});
