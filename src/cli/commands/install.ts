/**
 * `boulder install <harness>` / `boulder uninstall <harness>`: one command
 * each, for every harness in the adapter registry. The scopes a harness knows
 * and its default come from its adapter; the CLI parses, prints and sets the
 * exit code.
 */
import type { Command } from "commander";
import type { HarnessAdapter } from "../../adapters/registry.js";
import { BoulderError } from "../../core/errors.js";
import { whichProgram } from "../../engine/programs.js";
import { type HarnessChoice, harnessMenuLines, installReportLines } from "../../present/render/install.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";

type Action = "install" | "uninstall";

export function registerInstall(program: Command, cli: Cli): void {
	register(program, cli, "install", "add boulder to a harness: its hooks or its plugin, in the harness's settings");
}

export function registerUninstall(program: Command, cli: Cli): void {
	register(program, cli, "uninstall", "remove boulder from a harness's settings");
}

function register(program: Command, cli: Cli, action: Action, description: string): void {
	let command = program.command(action).description(description);
	for (const [scope, help] of scopeHelp(cli.adapters.all)) command = command.option(`--${scope}`, help);
	const own = action === "install" ? flagHelp(cli.adapters.all) : new Map<string, string>();
	for (const [flag, help] of own) command = command.option(`--${flag}`, help);
	command
		.argument(
			"[harness]",
			`the harness: ${cli.adapters.names().join(", ")}; none: list them, and which this machine has`,
		)
		.action(async (harness: string | undefined, flags: Record<string, boolean | undefined>) => {
			if (harness === undefined) {
				cli.out(harnessMenuLines(action, choices(cli), cli.colors()).join("\n"));
				cli.exitCode = EXIT.usage;
				return;
			}
			const adapter = adapterOf(cli, harness);
			const given = [...own.keys()].filter((flag) => flags[camelCase(flag)] === true);
			const scopeFlags = Object.fromEntries(
				Object.entries(flags).filter(([flag]) => !given.some((name) => camelCase(name) === flag)),
			);
			const place = {
				cwd: cli.io.cwd,
				env: cli.io.env,
				scope: scopeOf(adapter, scopeFlags),
				flags: ownFlags(adapter, given),
			};
			const outcome = action === "install" ? await adapter.install(place) : await adapter.uninstall(place);
			const lines = installReportLines(outcome.report, outcome.text, cli.colors(), outcome.notes, outcome.remarks);
			cli.out(lines.join("\n"));
			cli.exitCode = EXIT.ok;
		});
}

function choices(cli: Cli): HarnessChoice[] {
	return cli.adapters.all.map((adapter) => ({
		name: adapter.name,
		title: adapter.title,
		program: adapter.program,
		defaultScope: adapter.defaultScope,
		foundAt: whichProgram(adapter.program, cli.io.env),
	}));
}

/** One `--scope` option per scope any harness knows, its help naming each harness's file. */
function scopeHelp(adapters: readonly HarnessAdapter[]): Map<string, string> {
	const help = new Map<string, string[]>();
	for (const adapter of adapters) {
		for (const scope of adapter.scopes) {
			const lines = help.get(scope.name) ?? [];
			const isDefault = adapter.defaultScope === scope.name ? ", its default" : "";
			lines.push(`${adapter.title}: ${scope.help.replace(/ \(the default\)$/, "")}${isDefault}`);
			help.set(scope.name, lines);
		}
	}
	return new Map([...help].map(([scope, lines]) => [scope, lines.join("; ")]));
}

/** Every harness's own install flags, the help naming the harness. */
function flagHelp(adapters: readonly HarnessAdapter[]): Map<string, string> {
	const help = new Map<string, string>();
	for (const adapter of adapters) {
		for (const flag of adapter.installFlags ?? []) {
			const before = help.get(flag.name);
			help.set(flag.name, `${before ? `${before}; ` : ""}${adapter.title}: ${flag.help}`);
		}
	}
	return help;
}

/** The flags given, refused when this harness does not know one. */
function ownFlags(adapter: HarnessAdapter, given: readonly string[]): string[] {
	const known = new Set((adapter.installFlags ?? []).map((flag) => flag.name));
	const unknown = given.filter((flag) => !known.has(flag));
	if (unknown.length > 0) {
		throw new BoulderError("usage", `${adapter.name} has no --${unknown[0]} option`);
	}
	return [...given];
}

/** How commander names an option's value: `todo-tools` → `todoTools`. */
function camelCase(flag: string): string {
	return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export function adapterOf(cli: Cli, harness: string): HarnessAdapter {
	const adapter = cli.adapters.get(harness);
	if (!adapter) {
		throw new BoulderError("usage", `unknown harness "${harness}"; boulder knows: ${cli.adapters.names().join(", ")}`);
	}
	return adapter;
}

function scopeOf(adapter: HarnessAdapter, flags: Record<string, boolean | undefined>): string {
	const known = new Set(adapter.scopes.map((scope) => scope.name));
	const chosen = Object.keys(flags).filter((flag) => flags[flag] === true);
	if (chosen.length > 1) throw new BoulderError("usage", `choose one of ${chosen.map((s) => `--${s}`).join(", ")}`);
	const scope = chosen[0] ?? adapter.defaultScope;
	if (!known.has(scope)) {
		throw new BoulderError(
			"usage",
			`${adapter.name} has no --${scope} settings; choose ${[...known].map((s) => `--${s}`).join(" or ")}`,
		);
	}
	return scope;
}
