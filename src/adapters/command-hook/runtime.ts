/**
 * One command-hook invocation, end to end, the same for every harness: read
 * stdin, open the worktree, let the dialect map the event onto the engine,
 * print the harness's JSON, report the delivery.
 *
 * Contract: never throws, and prints nothing that blocks unless the engine
 * chose to inject. Whatever goes wrong (bad input, a missing folder, a broken
 * config, a corrupt state file, a lock timeout, a bug) is recorded in the
 * decision log, else on stderr, and the agent is let stop. Exit code: 0, or 2
 * when the engine wakes the agent (`HookAnswer.wake`).
 */
import { existsSync } from "node:fs";
import { harnessSafe } from "../../core/control-text.js";
import { isBoulderError } from "../../core/errors.js";
import { recordEarlyProblem } from "../../engine/early-problem.js";
import type { Engine } from "../../engine/engine.js";
import { openFileChanges } from "../../engine/file-changes.js";
import { openWorkspace } from "../../engine/open.js";
import { type CommandHookInput, messageOf } from "../shared/hook-input.js";
import { configNotice } from "../shared/hook-messages.js";
import type { HookStreams } from "../types.js";
import { type CommandHookDialect, type HookEngine, projectFolderOf } from "./dialect.js";

/** Opens the engine for a folder; tests pass their own. */
export type OpenEngine<E extends HookEngine = Engine> = (
	cwd: string,
	env: NodeJS.ProcessEnv,
) => Promise<{ engine: E; warnings: string[] }>;

/** More than any harness sends (it cuts a tool's output long before), yet parsed in a fraction of a second. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The hook program's entry: `argv` starts with the event (or one of the dialect's words). Contract: never rejects. */
export async function runDialect<I extends CommandHookInput>(
	argv: readonly string[],
	streams: HookStreams,
	dialect: CommandHookDialect<I>,
	open: OpenEngine = openEngine,
): Promise<number> {
	const words = dialect.words;
	const first = argv[0];
	if (words !== undefined && first !== undefined && Object.hasOwn(words, first)) {
		return (words[first] as (streams: HookStreams) => Promise<number>)(streams);
	}
	return runCommandHook(argv, streams, dialect, open);
}

/** A harness's hook run with test options: `runClaudeCodeHook(argv, streams, { readTurn, open })`. */
export function runnerOf<O extends { open?: OpenEngine }, I extends CommandHookInput>(
	make: (options: O) => CommandHookDialect<I>,
): (argv: readonly string[], streams: HookStreams, options?: O) => Promise<number> {
	return (argv, streams, options = {} as O) => runDialect(argv, streams, make(options), options.open);
}

/** `open` opens what the dialect's `handle` gets (`openEngine`: the whole `Engine`). Contract: never rejects. */
export async function runCommandHook<I extends CommandHookInput, E extends HookEngine>(
	argv: readonly string[],
	streams: HookStreams,
	dialect: CommandHookDialect<I, E>,
	open: OpenEngine<E>,
): Promise<number> {
	const event = argv[0];
	const { harness } = dialect;
	const where = `${harness} ${event ?? "(no event)"} hook`;
	const problem = async (folder: string, error: unknown, session: string | null = null, badConfig = false) => {
		// A bad config is the same problem whichever event meets it: logged (and told) once.
		const message = badConfig ? messageOf(error) : `${where}: ${messageOf(error)}`;
		const reason = badConfig ? "config-invalid" : "error";
		const record = await recordEarlyProblem({ folder, harness, session, message, reason, env: streams.env });
		for (const line of record.stderr) writeQuietly(streams.stderr, `${line}\n`);
		return record;
	};
	let text: string;
	try {
		text = await readInput(streams.stdin);
	} catch (error) {
		await problem(projectFolderOf(dialect, streams, null), error);
		return 0;
	}
	const parsed = dialect.parse(text, event);
	const folder = projectFolderOf(dialect, streams, parsed.ok ? parsed.input.cwd : null);
	if (!parsed.ok) {
		await problem(folder, new Error(parsed.problem));
		return 0;
	}
	const input = parsed.input;
	let engine: E;
	try {
		const workspace = await open(folder, streams.env);
		engine = workspace.engine;
		for (const warning of workspace.warnings.splice(0)) await engine.recordError(null, where, new Error(warning));
	} catch (error) {
		const badConfig = isBoulderError(error) && (error.code === "config-invalid" || error.code === "config-unreadable");
		const record = await problem(folder, error, input.sessionId, badConfig);
		// A bad config is told once where a log remembers it was, else at each turn's end (never per tool call).
		const logged = record.stderr.length === 0;
		const shown = dialect.showsNotices !== false;
		if (shown && badConfig && !record.repeated && (logged || input.event === (dialect.stopEvent ?? "Stop"))) {
			writeQuietly(streams.stdout, JSON.stringify(harnessSafe({ systemMessage: configNotice(messageOf(error)) })));
		}
		return 0;
	}
	try {
		const answer = await dialect.handle(input, engine, streams);
		if (answer.wake !== undefined) {
			streams.stderr.write(harnessSafe(answer.wake));
			return WAKE_EXIT_CODE;
		}
		if (answer.output === null) return 0;
		try {
			streams.stdout.write(JSON.stringify(harnessSafe(answer.output)));
		} catch (error) {
			await answer.failed?.(messageOf(error));
			throw error;
		}
		await answer.written?.();
	} catch (error) {
		await engine.recordError({ harness, sessionId: input.sessionId, subagent: input.agentId !== null }, where, error);
	}
	return 0;
}

/** Wakes the agent with the hook's stderr (Claude Code's `asyncRewake` hooks). */
const WAKE_EXIT_CODE = 2;

/** Opens the whole `Engine` for a folder that must exist. */
export async function openEngine(cwd: string, env: NodeJS.ProcessEnv) {
	return openWorkspace({ cwd: existing(cwd), env });
}

/** Opens only the file-change step (`engine/file-changes.ts`), for a bundle that answers nothing else. */
export async function openFileChangeEngine(cwd: string, env: NodeJS.ProcessEnv) {
	return openFileChanges({ cwd: existing(cwd), env });
}

function existing(cwd: string): string {
	if (!existsSync(cwd)) throw new Error(`the project folder ${cwd} does not exist`);
	return cwd;
}

/** The whole hook input. Contract: throws when it cannot be read or is larger than any harness sends. */
export async function readInput(stdin: HookStreams["stdin"]): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stdin) {
		const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
		size += buffer.length;
		if (size > MAX_INPUT_BYTES) throw new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
		chunks.push(buffer);
	}
	return Buffer.concat(chunks).toString("utf8");
}

/** A stream that throws (a closed pipe) must not make the hook reject: there is nowhere left to tell it. */
function writeQuietly(stream: { write(chunk: string): unknown }, text: string): void {
	try {
		stream.write(text);
	} catch {
		// The stream itself is what failed.
	}
}
