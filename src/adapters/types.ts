/**
 * The adapter contract: what a harness adapter gives boulder. The CLI loops
 * over the registry for `install`, `uninstall`, `doctor` and `hook`; nothing
 * outside an adapter's folder and the registry's one line names a harness.
 *
 * Contract: adapters import the engine, the core and the presentation layer,
 * never the CLI or the state layer. Nothing here prints or exits: an adapter
 * returns reports and findings, the face that called it says them.
 */
import type { NormalizedTodos } from "../core/todo-normalize.js";
import type { DoctorCheck } from "../engine/doctor-types.js";
import type { InstallReport, InstallText } from "../present/render/install.js";

export type { DoctorCheck, DoctorContext, DoctorFinding } from "../engine/doctor-types.js";
export type { InstallReport, InstallText } from "../present/render/install.js";

/** A scope where boulder is installed, and the file that says so. */
export interface InstalledScope {
	scope: string;
	file: string;
}

/** Where an install writes: one of the harness's own settings scopes. */
export interface InstallScopeInfo {
	name: string;
	/** One line for `--help`: which file, and who it is for. */
	help: string;
}

export interface InstallPlace {
	cwd: string;
	env: NodeJS.ProcessEnv;
	scope: string;
	/** The adapter's own install flags the user gave (`installFlags`), by name. */
	flags?: readonly string[];
}

/** An install option of one harness's own, `--NAME` on `boulder install`. */
export interface InstallFlagInfo {
	name: string;
	help: string;
}

/** What an install or uninstall did, and the adapter's own words for saying it. */
export interface InstallOutcome {
	report: InstallReport;
	text: InstallText;
	/** Lines that follow a fresh install (a warning about the scope chosen, say). */
	notes: string[];
	/** Lines that follow every install, changed or not (what else it set, what is still off). */
	remarks?: string[];
}

export interface HookStreams {
	stdin: AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
	stdout: { write(chunk: string): unknown };
	stderr: { write(chunk: string): unknown };
	env: NodeJS.ProcessEnv;
	/** The process's folder: the last resort when neither the harness nor the input names the project. */
	cwd: string;
}

/** For harnesses that run a command per event (JSON on stdin, an answer on stdout). */
export interface HookEntry {
	/** The events the adapter answers, for `boulder hook <harness> <event>`'s help. */
	events: readonly string[];
	/** The event a hook bundle of its own answers (`<harness>-<event>-main.cjs`: the dialect file's `fileChanges`), opening only the file-change step; absent: none. */
	fileChangeEvent?: string;
	/** Contract: never rejects; whatever goes wrong is logged and the agent is let stop. */
	/** Resolves to the exit code: 0, or 2 when the hook wakes the agent with its stderr. */
	run(event: string, streams: HookStreams): Promise<number>;
}

export interface HarnessAdapter {
	/** The harness's name on the command line and in the decision log: `claude-code`. */
	name: string;
	/** As people write it: `Claude Code`. */
	title: string;
	/** The harness's own command, as the shell finds it on the PATH: `claude`. */
	program: string;
	scopes: readonly InstallScopeInfo[];
	defaultScope: string;
	/** Install options of this harness's own (none: only the scope). */
	installFlags?: readonly InstallFlagInfo[];
	/** Contract: throws `BoulderError` when a settings file cannot be changed safely (it is then left untouched). */
	install(place: InstallPlace): Promise<InstallOutcome>;
	uninstall(place: InstallPlace): Promise<InstallOutcome>;
	/** The scopes whose settings hold boulder now (only reads): where `uninstall` without a scope looks. */
	installedScopes(place: { cwd: string; env: NodeJS.ProcessEnv }): Promise<InstalledScope[]>;
	doctor: DoctorCheck;
	/** Present for command-hook harnesses; in-process plugins have none. */
	hook?: HookEntry;
	/** The harness's todo list, in whatever shape it reports it, as boulder's todos. */
	normalizeTodos(input: unknown): NormalizedTodos;
}
