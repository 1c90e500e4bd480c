/**
 * `boulder install <harness>` / `boulder uninstall <harness>`: one command
 * each (commander cannot register a name twice), dispatched through a table
 * with one row per harness: the scopes it knows, its default, and what runs.
 *
 * Claude Code's row runs the adapter's own `install`/`uninstall` command on a
 * scratch program, so its flags, checks and messages stay the adapter's.
 */
import { Command } from "commander";
import * as claudeCode from "../../adapters/claude-code/commands.js";
import { runOpenCodeInstall } from "../../adapters/opencode/commands.js";
import { BoulderError } from "../../core/errors.js";
import type { Cli } from "../context.js";

type Action = "install" | "uninstall";
type Scope = "local" | "project" | "user";

interface HarnessRow {
	scopes: readonly Scope[];
	defaultScope: Scope;
	run(cli: Cli, action: Action, scope: Scope): Promise<void>;
}

export const INSTALLERS: Readonly<Record<string, HarnessRow>> = {
	"claude-code": {
		scopes: ["local", "project", "user"],
		defaultScope: "local",
		run: async (cli, action, scope) => {
			const scratch = new Command("boulder").exitOverride();
			(action === "install" ? claudeCode.registerInstall : claudeCode.registerUninstall)(scratch, cli);
			await scratch.parseAsync([action, "claude-code", `--${scope}`], { from: "user" });
		},
	},
	opencode: {
		scopes: ["project", "user"],
		defaultScope: "project",
		run: (cli, action, scope) => runOpenCodeInstall(cli, action, scope as "project" | "user"),
	},
};

const SCOPE_HELP: Record<Scope, string> = {
	local: "Claude Code: this project's .claude/settings.local.json, for you only (its default)",
	project:
		"this project's shared settings: .claude/settings.json (Claude Code), ./opencode.json (OpenCode, its default)",
	user: "your user settings: ~/.claude/settings.json (Claude Code), ~/.config/opencode/opencode.json (OpenCode)",
};

export function registerInstall(program: Command, cli: Cli): void {
	register(program, cli, "install", "add boulder to a harness: its hooks (Claude Code) or its plugin (OpenCode)");
}

export function registerUninstall(program: Command, cli: Cli): void {
	register(program, cli, "uninstall", "remove boulder from a harness's settings");
}

function register(program: Command, cli: Cli, action: Action, description: string): void {
	let command = program.command(action).description(description);
	for (const scope of ["local", "project", "user"] as const) command = command.option(`--${scope}`, SCOPE_HELP[scope]);
	command
		.argument("<harness>", `the harness: ${Object.keys(INSTALLERS).join(", ")}`)
		.action(async (harness: string, flags: Partial<Record<Scope, boolean>>) => {
			const row = Object.hasOwn(INSTALLERS, harness) ? INSTALLERS[harness] : undefined;
			if (!row) {
				throw new BoulderError(
					"usage",
					`unknown harness "${harness}"; boulder knows: ${Object.keys(INSTALLERS).join(", ")}`,
				);
			}
			await row.run(cli, action, scopeOf(harness, row, flags));
		});
}

function scopeOf(harness: string, row: HarnessRow, flags: Partial<Record<Scope, boolean>>): Scope {
	const chosen = (["local", "project", "user"] as const).filter((scope) => flags[scope]);
	if (chosen.length > 1) throw new BoulderError("usage", `choose one of ${chosen.map((s) => `--${s}`).join(", ")}`);
	const scope = chosen[0] ?? row.defaultScope;
	if (!row.scopes.includes(scope)) {
		throw new BoulderError(
			"usage",
			`${harness} has no --${scope} settings; choose ${row.scopes.map((s) => `--${s}`).join(" or ")}`,
		);
	}
	return scope;
}
