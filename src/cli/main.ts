/**
 * The `boulder` command line. `main` parses the arguments, runs one command
 * and returns its exit code; it never calls `process.exit`, so tests drive it
 * in-process and the bin sets `process.exitCode` from it.
 *
 * Exit codes: 0 ok, 1 something is wrong, 2 the command line is wrong.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import type { AdapterRegistry } from "../adapters/registry.js";
import type { Clock } from "../core/clock.js";
import { isBoulderError } from "../core/errors.js";
import { examplesText } from "./commands/help-text.js";
import { type CommandEntry, commandsFor } from "./commands/index.js";
import { type Cli, createCli, safe } from "./context.js";
import { EXIT } from "./exit-codes.js";
import { type CliIO, processIO } from "./io.js";

export interface MainIO extends Partial<CliIO> {
	/** For tests: the time commands see and record. */
	clock?: Clock;
	/** Ends commands that wait (`log --follow`). */
	signal?: AbortSignal;
	/** For tests: the harnesses the CLI knows (the registry's by default). */
	adapters?: AdapterRegistry;
}

export async function main(argv: string[], io: MainIO = {}): Promise<number> {
	const defaults = processIO();
	const commands = commandsFor(argv);
	const needsAdapters = io.adapters === undefined && commands.some((entry) => entry.adapters);
	const adapters =
		io.adapters ?? (needsAdapters ? (await import("../adapters/registry.js")).createRegistry() : undefined);
	const cli = createCli(
		{
			stdout: io.stdout ?? defaults.stdout,
			stderr: io.stderr ?? defaults.stderr,
			env: io.env ?? defaults.env,
			cwd: io.cwd ?? defaults.cwd,
			// Tests that give their own streams are not a terminal unless they say so.
			...(io.stdin ? { stdin: io.stdin } : io.stdout === undefined && defaults.stdin ? { stdin: defaults.stdin } : {}),
		},
		{
			...(io.clock ? { clock: io.clock } : {}),
			...(io.signal ? { signal: io.signal } : {}),
			...(adapters ? { adapters } : {}),
		},
	);
	const program = await buildProgram(cli, commands);
	try {
		await program.parseAsync(argv, { from: "user" });
		return cli.exitCode;
	} catch (error) {
		return reportError(cli, error);
	}
}

/** The program with `commands` registered (`commandsFor` picks them from the command line). */
export async function buildProgram(cli: Cli, commands: readonly CommandEntry[]): Promise<Command> {
	const red = cli.errColors.red;
	const program = new Command("boulder")
		.description("Keeps a coding agent working until its plan is done, and stops it when it should.")
		.version(packageVersion(), "-v, --version", "print boulder's version")
		.helpOption("-h, --help", "show help for a command")
		.showSuggestionAfterError(true)
		// Set before the subcommands exist: commander copies these settings into each of them.
		.exitOverride()
		.configureOutput({
			writeOut: (text) => cli.io.stdout.write(safe(text)),
			writeErr: (text) => cli.io.stderr.write(safe(text)),
			outputError: (text, write) => write(red(text)),
		});
	const registers = await Promise.all(commands.map((entry) => entry.load()));
	for (const register of registers) register(program, cli);
	// Every command's help ends with its examples (`help-text.ts`).
	for (const command of program.commands) {
		const examples = examplesText(command.name());
		if (examples) command.addHelpText("after", examples);
	}
	return program;
}

function reportError(cli: Cli, error: unknown): number {
	if (error instanceof CommanderError) {
		// commander has already printed its message, the help or the version; help asked for
		// (`--help`, `boulder help status`) ends with 0, help shown for a bad command line does not.
		return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
	}
	const red = cli.errColors.red;
	if (isBoulderError(error)) {
		cli.err(red(`boulder: ${error.message}`));
		return error.code === "usage" ? EXIT.usage : EXIT.failure;
	}
	const message = error instanceof Error ? error.message : String(error);
	cli.err(red(`boulder: unexpected error: ${message}`));
	if (cli.io.env.BOULDER_DEBUG && error instanceof Error && error.stack) cli.err(error.stack);
	else cli.err(cli.errColors.dim("(set BOULDER_DEBUG=1 to see where it happened)"));
	return EXIT.failure;
}

let version: string | null = null;

/** The package's own version; `dist/cli` and `src/cli` both sit two folders below it. */
function packageVersion(): string {
	if (version === null) {
		const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
		version = String((JSON.parse(text) as { version?: unknown }).version ?? "unknown");
	}
	return version;
}
