/**
 * GitHub Copilot CLI as the adapter registry sees it (`command-hook/
 * adapter.ts`): boulder's own hooks file in Copilot's hooks folders, the
 * shared hook program (`boulder-hook.cjs copilot <event>`), the `todos` table
 * of its session database. The installer, the doctor and the hook load on
 * first use.
 */
import { commandHookAdapter } from "../command-hook/adapter.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { normalizeCopilotTodos } from "./todos.js";

export const copilotAdapter = commandHookAdapter({
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
	events: HOOK_EVENTS,
	dialect: () => import("./dialect.js"),
	install: () => import("./install.js"),
	normalizeTodos: normalizeCopilotTodos,
});
