/**
 * The command-hook family's one interface: every harness that starts a
 * process per hook event, JSON on stdin and JSON on stdout, runs one program
 * (`src/adapters/hook/`) and one flow (`runtime.ts`); what it says
 * differently is its dialect, one object in the harness's `dialect.ts`. How
 * to add a harness: docs/architecture.md, "Adding a command-hook harness".
 *
 * Contract: a dialect's `handle` throws only what the engine throws; the
 * runtime records anything else and lets the agent stop.
 */
import type { Engine } from "../../engine/engine.js";
import type { FileChanges } from "../../engine/file-changes.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import type { CommandHookInput, ParsedCommandHookInput } from "../shared/hook-input.js";
import type { HookStreams } from "../types.js";
import type { HooksInstall } from "./install.js";
import type { HookRegistration } from "./registrations.js";

/** What the runtime itself asks of an engine: a place to record what went wrong. */
export type HookEngine = Pick<FileChanges, "recordError">;

/** `E`: the engine the dialect's `handle` gets (the whole `Engine`, or less for a one-event bundle: `file-change.ts`). */
export interface CommandHookDialect<I extends CommandHookInput = CommandHookInput, E extends HookEngine = Engine> {
	/** The harness's name in state, in the log and in the hook's arguments: `claude-code`, `codex`. */
	harness: string;
	/** The events the hook answers (including those understood but not installed). */
	events: readonly string[];
	/** What the installer registers, with the timeouts the watchdog follows. */
	registrations: readonly HookRegistration[];
	/** The variable the harness sets to the project's folder (`CLAUDE_PROJECT_DIR`); null: it sets none. */
	projectDirVar: string | null;
	parse(text: string, event: string | undefined): ParsedCommandHookInput & ({ ok: false } | { ok: true; input: I });
	/** Contract: throws only what the engine throws. */
	handle(input: I, engine: E, streams: HookStreams): Promise<HookAnswer>;
	/** The event that ends a turn (`Stop` unless said), where a bad config is told when no log remembers it. */
	stopEvent?: string;
	/** False: the harness shows nothing a hook prints (Copilot CLI); a bad config is told on stderr and in `why`. */
	showsNotices?: boolean;
	/** The hook program's words that are not events (Claude Code's `Watchdog`). Contract: never rejects. */
	words?: Readonly<Record<string, (streams: HookStreams) => Promise<number>>>;
}

/** The session's project: the harness's project-folder variable (stable while the agent `cd`s), else `cwd`. */
export function projectFolderOf(
	dialect: Pick<CommandHookDialect, "projectDirVar">,
	streams: Pick<HookStreams, "env" | "cwd">,
	inputCwd: string | null,
): string {
	return (dialect.projectDirVar === null ? undefined : streams.env[dialect.projectDirVar]) || inputCwd || streams.cwd;
}

/** A harness's installer data (`install.ts`), with its dialect's name and registrations. */
export function installOf(
	dialect: Pick<CommandHookDialect, "harness" | "registrations">,
	rest: Omit<HooksInstall, "harness" | "registrations">,
): HooksInstall {
	return { harness: dialect.harness, registrations: dialect.registrations, ...rest };
}
