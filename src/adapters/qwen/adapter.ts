/**
 * Qwen Code as the adapter registry sees it (`command-hook/adapter.ts`):
 * hooks in its settings files (Claude Code's pattern), served by the one hook
 * program (`boulder-hook.cjs qwen <Event>`), its `todo_write` list. The
 * installer, the doctor and the hook load on first use.
 */
import { commandHookAdapter } from "../command-hook/adapter.js";
import { HARNESS, HOOK_EVENTS } from "./hook-input.js";
import { CAP_TEXT } from "./messages.js";
import { normalizeQwenTodoWrite } from "./todos.js";

/** Spelled out here, not imported, so the registry does not load the installer. */
const RAISE_CAP_FLAG = "raise-cap";

export const qwenAdapter = commandHookAdapter({
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
	options: (flags) => ({ raiseCap: flags.includes(RAISE_CAP_FLAG) }),
	events: HOOK_EVENTS,
	dialect: () => import("./dialect.js"),
	install: () => import("./install.js"),
	normalizeTodos: normalizeQwenTodoWrite,
});
