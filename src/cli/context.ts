/**
 * What every command gets: the streams, colours that respect the terminal,
 * the clock, and the ways to open the worktree. Opening goes through the
 * engine's `openState`/`openWorkspace`; warnings they return are printed to
 * stderr, never dropped.
 */

import type { AdapterRegistry } from "../adapters/registry.js";
import type { Clock } from "../core/clock.js";
import { systemClock } from "../engine/clock.js";
import type { OpenOptions, StateHandle, Workspace } from "../engine/open.js";
import { terminalSafe } from "../present/terminal-safe.js";
import type { ExitCode } from "./exit-codes.js";
import { type CliIO, type Colors, colorsFor, plainColors } from "./io.js";

export interface Cli {
	readonly io: CliIO;
	readonly clock: Clock;
	/**
	 * The harnesses this CLI knows: `install`, `uninstall`, `hook`, `doctor` and
	 * `stop`/`go` loop over them. Contract: loaded only for the commands whose
	 * entry says so (`commands/index.ts`); reading it elsewhere is a bug and throws.
	 */
	readonly adapters: AdapterRegistry;
	/** Stops `--follow` and anything else that waits. */
	readonly signal: AbortSignal | undefined;
	/** Set by the command that ran; `main` returns it. */
	exitCode: ExitCode;
	/** Writes one block of text and a newline to stdout. */
	out(text: string): void;
	/** Writes one block of text and a newline to stderr. */
	err(text: string): void;
	/** Colours for stdout; none for machine output. */
	colors(json?: boolean): Colors;
	readonly errColors: Colors;
	openState(): Promise<StateHandle>;
	openWorkspace(): Promise<Workspace>;
	/** Records the worktree in the user-level index once a command has written state to it. */
	noteWorktree(handle: StateHandle): Promise<void>;
	/** Options for the engine's open functions, for commands that open more than one thing. */
	openOptions(): OpenOptions;
}

export function createCli(
	io: CliIO,
	options: { clock?: Clock; signal?: AbortSignal; adapters?: AdapterRegistry } = {},
): Cli {
	const clock = options.clock ?? systemClock;
	const errColors = colorsFor(io.stderr, io.env);
	const openOptions = (): OpenOptions => ({ cwd: io.cwd, env: io.env, clock });
	const adapters = options.adapters;
	const cli: Cli = {
		io,
		clock,
		get adapters() {
			if (!adapters) throw new Error("this command did not ask for the adapter registry (see commands/index.ts)");
			return adapters;
		},
		signal: options.signal,
		exitCode: 0,
		out: (text) => io.stdout.write(`${safe(text)}\n`),
		err: (text) => io.stderr.write(`${safe(text)}\n`),
		colors: (json) => (json ? plainColors : colorsFor(io.stdout, io.env)),
		errColors,
		openOptions,
		// The engine is loaded when a command first opens the worktree, not for `--version` or help.
		async openState() {
			return warned(cli, await (await import("../engine/open.js")).openState(openOptions()));
		},
		async openWorkspace() {
			return warned(cli, await (await import("../engine/open.js")).openWorkspace(openOptions()));
		},
		async noteWorktree(handle) {
			await (await import("../engine/open.js")).noteWorktree(handle, openOptions());
			warned(cli, handle);
		},
	};
	return cli;
}

/** Whatever a command prints may carry text from outside (titles, ids, paths): never a raw control sequence. */
export function safe(text: string): string {
	return terminalSafe(text, { keepOwnColours: true });
}

/** Prints the handle's warnings once, so a later print cannot repeat them. */
export function warned<T extends StateHandle>(cli: Cli, handle: T): T {
	for (const warning of handle.warnings.splice(0)) cli.err(cli.errColors.yellow(`boulder: warning: ${warning}`));
	return handle;
}
