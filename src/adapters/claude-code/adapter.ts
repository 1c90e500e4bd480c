/** Claude Code as the adapter registry sees it; the installer, the doctor and the hook load on first use. */
import { commandHookAdapter } from "../command-hook/adapter.js";
import { normalizeClaudeTodoWrite } from "../command-hook/todo-write.js";
import { TODO_TOOLS_FLAG, TODO_TOOLS_FLAG_HELP, WATCHDOG_HOOK } from "./dialect.js";
import { HARNESS, HOOK_EVENTS } from "./events.js";

export const claudeCodeAdapter = commandHookAdapter({
	name: HARNESS,
	title: "Claude Code",
	program: "claude",
	scopes: {
		local: "this project's .claude/settings.local.json, for you only (the default)",
		project:
			"this project's .claude/settings.json, shared with everyone who works on it (no path of this machine in it)",
		user: "your user settings (~/.claude/settings.json or $CLAUDE_CONFIG_DIR): every project",
	},
	installFlags: [{ name: TODO_TOOLS_FLAG, help: TODO_TOOLS_FLAG_HELP }],
	options: (flags) => ({ todoTools: flags.includes(TODO_TOOLS_FLAG) }),
	events: [...HOOK_EVENTS, WATCHDOG_HOOK],
	fileChangeEvent: "PreToolUse",
	dialect: () => import("./dialect.js"),
	install: async () => ({
		install: (await import("./install.js")).install,
		doctor: (await import("./doctor.js")).doctor,
	}),
	normalizeTodos: normalizeClaudeTodoWrite,
});
