/**
 * The subcommands of `boulder`, as a table: adding one is one line here and
 * one file that exports its `register`. Each line names its command and loads
 * its code only when asked, so a run pays for the command it runs, not for
 * all of them (`commandsFor`). `install`, `uninstall`, `hook`, `doctor` and
 * `stop`/`go` loop over the adapter registry the CLI was given.
 */
import type { Command } from "commander";
import type { Cli } from "../context.js";

/** Contract: adds one subcommand to `program`; its action sets `cli.exitCode` or throws. */
export type RegisterCommand = (program: Command, cli: Cli) => void;

export interface CommandEntry {
	name: string;
	/** Reads `cli.adapters` (loaded only for the commands that do). */
	adapters?: true;
	/** Reads the whole program (shell completion): every command is registered with it. */
	everyCommand?: true;
	load(): Promise<RegisterCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
	{ name: "start", load: async () => (await import("./start.js")).registerStart },
	{ name: "plans", load: async () => (await import("./plans.js")).registerPlans },
	{ name: "status", load: async () => (await import("./status.js")).registerStatus },
	{ name: "pause", load: async () => (await import("./work-lifecycle.js")).registerPause },
	{ name: "resume", load: async () => (await import("./work-lifecycle.js")).registerResume },
	{ name: "abandon", load: async () => (await import("./work-lifecycle.js")).registerAbandon },
	{ name: "trust", load: async () => (await import("./trust.js")).registerTrust },
	{ name: "stop", adapters: true, load: async () => (await import("./stop-go.js")).registerStop },
	{ name: "go", adapters: true, load: async () => (await import("./stop-go.js")).registerGo },
	{ name: "why", load: async () => (await import("./why.js")).registerWhy },
	{ name: "log", load: async () => (await import("./log.js")).registerLog },
	{ name: "fleet", load: async () => (await import("./fleet.js")).registerFleet },
	{ name: "ui", load: async () => (await import("./ui.js")).registerUi },
	{ name: "doctor", adapters: true, load: async () => (await import("./doctor.js")).registerDoctor },
	{ name: "config", load: async () => (await import("./config.js")).registerConfig },
	{ name: "install", adapters: true, load: async () => (await import("./install.js")).registerInstall },
	{ name: "uninstall", adapters: true, load: async () => (await import("./install.js")).registerUninstall },
	{ name: "hook", adapters: true, load: async () => (await import("./hook.js")).registerHook },
	{
		name: "completion",
		adapters: true,
		everyCommand: true,
		load: async () => (await import("./completion.js")).registerCompletion,
	},
];

/**
 * The commands a command line needs: the one it names; none when it only
 * asks for the version; every one otherwise (help lists them all, and a
 * mistyped name is answered with the nearest).
 */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
	const word = argv.find((arg) => !arg.startsWith("-"));
	const named = COMMANDS.find((entry) => entry.name === word);
	if (named) return named.everyCommand ? COMMANDS : [named];
	const asksHelp = argv.includes("-h") || argv.includes("--help");
	if (word === undefined && !asksHelp && (argv.includes("-v") || argv.includes("--version"))) return [];
	return COMMANDS;
}
