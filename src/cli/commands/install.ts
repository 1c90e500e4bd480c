/**
 * `boulder install <harness>` / `boulder uninstall <harness>`: one command
 * each, for every harness in the adapter registry. The scopes a harness knows
 * and its default come from its adapter; the CLI parses, prints and sets the
 * exit code.
 */
import type { Command } from "commander";
import type { HarnessAdapter, InstalledScope } from "../../adapters/registry.js";
import { BoulderError } from "../../core/errors.js";
import { whichProgram } from "../../engine/programs.js";
import { markInstalledHere } from "../../engine/worktree.js";
import {
	type HarnessChoice,
	harnessMenuLines,
	installReportLines,
	projectMadeLine,
} from "../../present/render/install.js";
import type { Cli } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { SCOPE_WORDS } from "./help-text.js";

type Action = "install" | "uninstall";

/** Every harness calls its every-project scope `user`; any other scope installs into this folder. */
const USER_SCOPE = "user";

export function registerInstall(program: Command, cli: Cli): void {
	register(program, cli, "install", "add boulder to a harness: its hooks or its plugin, in the harness's settings");
}

export function registerUninstall(program: Command, cli: Cli): void {
	register(program, cli, "uninstall", "remove boulder from a harness's settings");
}

function register(program: Command, cli: Cli, action: Action, description: string): void {
	let command = program.command(action).description(description);
	for (const [scope, help] of scopeHelp(cli.adapters.all)) command = command.option(`--${scope}`, help);
	if (action === "uninstall") command = command.option("--all", "every scope where boulder is installed");
	const own = action === "install" ? flagHelp(cli.adapters.all) : new Map<string, string>();
	for (const [flag, help] of own) command = command.option(`--${flag}`, help);
	command
		.argument("[harness]", `the harness (none: list them, and which this machine has)`)
		.addHelpText("after", scopeTable(cli.adapters.all, action))
		.action(async (harness: string | undefined, flags: Record<string, boolean | undefined>) => {
			if (harness === undefined) {
				cli.out(harnessMenuLines(action, choices(cli), cli.colors()).join("\n"));
				cli.exitCode = EXIT.usage;
				return;
			}
			const adapter = adapterOf(cli, harness);
			const given = [...own.keys()].filter((flag) => flags[camelCase(flag)] === true);
			const { all, ...rest } = flags;
			const scopes = Object.fromEntries(
				Object.entries(rest).filter(([flag]) => !given.some((name) => camelCase(name) === flag)),
			);
			const chosen = chosenScope(adapter, scopes);
			if (all && chosen) throw new BoulderError("usage", `--all and --${chosen} do not go together: choose one`);
			cli.exitCode =
				action === "install"
					? await install(cli, adapter, chosen ?? adapter.defaultScope, ownFlags(adapter, given))
					: await uninstall(cli, adapter, chosen, all === true);
		});
}

async function install(cli: Cli, adapter: HarnessAdapter, scope: string, flags: string[]): Promise<ExitCode> {
	const place = { cwd: cli.io.cwd, env: cli.io.env, scope, flags };
	const outcome = await adapter.install(place);
	cli.out(installReportLines(outcome.report, outcome.text, cli.colors(), outcome.notes, outcome.remarks).join("\n"));
	if (scope !== USER_SCOPE) {
		const project = await markInstalledHere(cli.io.cwd, adapter.name);
		if (project) cli.out(projectMadeLine(project, cli.colors()));
	}
	// One scope is enough: a second one is said now, not left for `boulder doctor` to find.
	for (const other of await adapter.installedScopes(place)) {
		if (other.scope === scope || other.file === outcome.report.file) continue;
		cli.err(
			cli.errColors.yellow(
				`boulder: warning: boulder is also installed for ${adapter.title} at --${other.scope} (${other.file}); one scope is enough. \`boulder uninstall ${adapter.name} --${other.scope}\` removes that one.`,
			),
		);
	}
	return EXIT.ok;
}

/**
 * Without a scope, uninstall goes where boulder is: the one scope that holds
 * it, or every one with `--all`; several without `--all` are listed (exit 2).
 * With a scope that does not hold it, it says where it is instead (exit 1).
 */
async function uninstall(cli: Cli, adapter: HarnessAdapter, chosen: string | null, all: boolean): Promise<ExitCode> {
	const base = { cwd: cli.io.cwd, env: cli.io.env };
	const installed = await adapter.installedScopes(base);
	const flags = (list: readonly InstalledScope[]) => list.map((at) => `--${at.scope} (${at.file})`).join(", ");
	const c = cli.colors();
	if (chosen !== null) {
		const outcome = await adapter.uninstall({ ...base, scope: chosen });
		cli.out(installReportLines(outcome.report, outcome.text, c, outcome.notes).join("\n"));
		const elsewhere = installed.filter((at) => at.scope !== chosen);
		if (outcome.report.action !== "absent" || elsewhere.length === 0) return EXIT.ok;
		cli.err(
			cli.errColors.red(
				`boulder: boulder is still installed for ${adapter.title} at ${flags(elsewhere)}: ${elsewhere.map((at) => `\`boulder uninstall ${adapter.name} --${at.scope}\``).join(" or ")} removes it`,
			),
		);
		return EXIT.failure;
	}
	if (installed.length === 0) {
		cli.out(
			`boulder is not installed for ${adapter.title} at any scope (${adapter.scopes.map((scope) => `--${scope.name}`).join(", ")} looked at); nothing changed.`,
		);
		return EXIT.ok;
	}
	if (installed.length > 1 && !all) {
		throw new BoulderError(
			"usage",
			`boulder is installed for ${adapter.title} at ${installed.length} scopes: ${flags(installed)}. Say which: ${installed.map((at) => `\`boulder uninstall ${adapter.name} --${at.scope}\``).join(", ")}, or \`--all\` for every one`,
		);
	}
	for (const at of installed) {
		const outcome = await adapter.uninstall({ ...base, scope: at.scope });
		cli.out([`From --${at.scope}:`, ...installReportLines(outcome.report, outcome.text, c, outcome.notes)].join("\n"));
	}
	return EXIT.ok;
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

/** One option per scope any harness knows, said once; which harness has which is `scopeTable`'s. */
function scopeHelp(adapters: readonly HarnessAdapter[]): Map<string, string> {
	const help = new Map<string, string>();
	for (const adapter of adapters) {
		for (const scope of adapter.scopes) {
			if (!help.has(scope.name)) help.set(scope.name, SCOPE_WORDS[scope.name] ?? scope.help);
		}
	}
	return help;
}

/** Each harness, its scopes and its default, one line each. */
function scopeTable(adapters: readonly HarnessAdapter[], action: Action): string {
	const width = Math.max(...adapters.map((adapter) => adapter.name.length));
	const lines = adapters.map((adapter) => {
		const scopes = adapter.scopes.map((scope) => `--${scope.name}`).join(" ");
		return `  ${adapter.name.padEnd(width)}  ${adapter.title}: ${scopes}; default --${adapter.defaultScope}`;
	});
	const without =
		action === "install"
			? "without a scope, the harness's default"
			: "without a scope, wherever boulder is installed; several: name one, or --all";
	return `\nHarnesses and their scopes (${without}):\n${lines.join("\n")}`;
}

/** Every harness's own install flags, the help naming the harness. */
function flagHelp(adapters: readonly HarnessAdapter[]): Map<string, string> {
	const help = new Map<string, string>();
	for (const adapter of adapters) {
		for (const flag of adapter.installFlags ?? []) {
			const before = help.get(flag.name);
			help.set(flag.name, `${before ? `${before}; ` : ""}${flag.help} (${adapter.name})`);
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

/** The scope flag given, checked against the harness's scopes; null when none was. */
function chosenScope(adapter: HarnessAdapter, flags: Record<string, boolean | undefined>): string | null {
	const known = new Set(adapter.scopes.map((scope) => scope.name));
	const chosen = Object.keys(flags).filter((flag) => flags[flag] === true);
	if (chosen.length > 1) throw new BoulderError("usage", `choose one of ${chosen.map((s) => `--${s}`).join(", ")}`);
	const scope = chosen[0];
	if (scope === undefined) return null;
	if (!known.has(scope)) {
		throw new BoulderError(
			"usage",
			`${adapter.name} has no --${scope} settings; choose ${[...known].map((s) => `--${s}`).join(" or ")}`,
		);
	}
	return scope;
}
