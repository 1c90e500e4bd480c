/**
 * The command-hook family: every harness that starts a process per hook event
 * with JSON on stdin and reads JSON from stdout (Claude Code, Codex CLI, Qwen
 * Code, Gemini CLI, Copilot CLI) runs the same program (`src/adapters/hook/`),
 * the same flow (`runtime.ts`: argv → dialect → engine → answer) and the same
 * failure stance. What a harness says differently is its **dialect**: this
 * interface, one object in the harness's `dialect.ts`.
 *
 * ## Adding a command-hook harness
 *
 * 1. A folder `src/adapters/<name>/` with a `dialect.ts` that exports
 *    `dialect: CommandHookDialect` (the harness's name, events, registration
 *    table, input reader, project-folder variable, event mapping), its
 *    install data, a `HooksInstall` (`install.ts`: the scopes and where each
 *    scope's file is, the registration table, how the command is spelled,
 *    `CommandSpelling` in `spelling.ts`: the project-folder variable, the
 *    user's link or none, the notice; what one entry looks like; the file's
 *    layout; the words and notes), and the adapter,
 *    `commandHookAdapter({name, title, program, scopes, events, dialect,
 *    install, normalizeTodos})` (`adapter.ts`). The installer, the doctor
 *    (`doctor.ts`: a `HooksDoctor` with its words, and checks of what only it
 *    has) and the one finder of the boulder a portable command runs are the
 *    family's. All of it is one file, the harness's `dialect.ts` (Factory
 *    Droid's `droid/dialect.ts` is the whole harness). The install data and
 *    the adapter in it are built with `@__PURE__` calls, so the hook bundle,
 *    which imports only `dialect`, drops them; a harness with an event
 *    mapping of its own keeps it, with its input and todo shape, in
 *    `events.ts` (which `dialect.ts` imports, never the other way), and
 *    keeps only logic of its own beside it (a transcript tally, Codex's
 *    `trust.ts`, Qwen Code's `cap.ts`). Claude Code alone keeps its
 *    installer's data in `install.ts` and its doctor in `doctor.ts`, which
 *    its `adapter.ts` loads on first use.
 * 2. One line in `src/adapters/registry.ts`. That line is the only list: the
 *    CLI reads it, and the build (`tsdown.config.ts`) reads it to write one
 *    hook bundle per command-hook harness (`dist/hook/<name>-main.cjs`, which
 *    `dist/hook/boulder-hook.cjs <name> <event>` loads), so a hook of one
 *    harness loads none of another's code.
 * 3. The dialect's parts, reused from the family where the harness copied
 *    Claude Code's shape:
 *    - input: `parseCommandHookInput(text, event, EVENTS)` (snake_case keys;
 *      `InputKeys` for another spelling);
 *    - the events, for a harness of Claude Code's shape (SessionStart,
 *      UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop,
 *      StopFailure, PreCompact; Factory Droid): `handleClaudeStyleHook(input,
 *      SPEC, deps)` (`claude-style.ts`), where `SPEC` names the harness (as
 *      state and as people write it) and its todo and subagent tools;
 *      `readTurn` returns a `ClaudeStyleTurn` read from the harness's
 *      transcript. Claude Code's own is `claude-code/events.ts`, twenty
 *      lines. The `TodoWrite` list shape is `todo-write.ts`;
 *    - the transcript: the family's turn reader reads it (`turn-reader.ts`,
 *      `readTallied(file, options, () => tally)`); the harness brings its
 *      tally, what each of its record kinds counts as and which record
 *      begins the turn (Droid's `droidTally`);
 *    - the Stop: `endTurn` (`stop.ts`) turns the harness's idle facts into the
 *      engine's decision and the decision into the answer, and applies the
 *      harness's continuation cap when the dialect states one (`cap`);
 *    - answers: `answerFor` / `sessionStartContext` (`shared/hook-answer.ts`),
 *      `{"decision":"block","reason":…}` and `hookSpecificOutput`;
 *    - the events of a harness of another shape: `handleFamilyHook(input,
 *      SPEC, deps)` (`events.ts`, which the Claude-style mapping also runs
 *      on), where `SPEC` maps the harness's event names to the family's
 *      meanings (`on.stop`, `on.prompt`, …) or its own handlers and states
 *      its todo tool, how its turn reads, its continuation cap as data and
 *      its answer format (Codex's, Qwen Code's, Gemini CLI's, Copilot CLI's
 *      `events.ts`);
 *    - the watchdog: nothing to write, it follows `registrations`
 *      (`registrations.ts`).
 * 4. Tests beside the others in `test/adapters/<name>/`: the input reader, the
 *    event mapping against a fake engine, the installer's byte-for-byte round
 *    trip through the adapter, the doctor; an e2e file against the real binary.
 *
 * Contract: a dialect's `handle` throws only what the engine throws; the
 * runtime records anything else and lets the agent stop.
 */
import type { Engine } from "../../engine/engine.js";
import type { HookAnswer } from "../shared/hook-answer.js";
import type { CommandHookInput, ParsedCommandHookInput } from "../shared/hook-input.js";
import type { HookStreams } from "../types.js";
import type { HookRegistration } from "./registrations.js";

export interface CommandHookDialect<I extends CommandHookInput = CommandHookInput> {
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
	handle(input: I, engine: Engine, streams: HookStreams): Promise<HookAnswer>;
	/** The event that ends a turn, where a bad config is told to the user when there is no log to remember it. */
	stopEvent: string;
	/**
	 * False when the harness shows the user nothing a hook prints (Copilot
	 * CLI): a bad config is then told only on stderr and in `boulder why`.
	 */
	showsNotices?: boolean;
	/**
	 * Words of the hook program that are not events, each with its own run
	 * (Claude Code's `Watchdog`, a second Stop registration). Contract: never rejects.
	 */
	words?: Readonly<Record<string, (streams: HookStreams) => Promise<number>>>;
}

/**
 * The project the session works in: the harness's project-folder variable
 * (where the session started, stable while the agent `cd`s about), else the
 * input's `cwd`, else the process's folder.
 */
export function projectFolderOf(
	dialect: Pick<CommandHookDialect, "projectDirVar">,
	streams: Pick<HookStreams, "env" | "cwd">,
	inputCwd: string | null,
): string {
	return (dialect.projectDirVar === null ? undefined : streams.env[dialect.projectDirVar]) || inputCwd || streams.cwd;
}
