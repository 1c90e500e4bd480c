/**
 * One hook invocation, end to end: read stdin, open the worktree, let the
 * engine decide, print Claude Code's JSON, report the delivery. Shared by the
 * bundled hook program and `boulder hook claude-code <Event>`.
 *
 * Contract: never throws and never prints anything that blocks unless the
 * engine chose to inject. Whatever goes wrong (bad input, a missing folder,
 * a broken config, a corrupt state file, a lock timeout, a bug) is recorded
 * in the decision log when the worktree has one, else on stderr, and the
 * agent is let stop. The caller exits 0.
 */
import { existsSync } from "node:fs";
import { isBoulderError } from "../../core/errors.js";
import { type EarlyRecord, recordEarlyProblem } from "../../engine/early-problem.js";
import type { Engine } from "../../engine/engine.js";
import { openWorkspace } from "../../engine/open.js";
import type { HookStreams } from "../types.js";
import { handleHook } from "./events.js";
import { HARNESS, messageOf, parseHookInput } from "./hook-input.js";
import { configNotice } from "./messages.js";
import { readTurn } from "./transcript.js";

export type { HookStreams } from "../types.js";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: (cwd: string, env: NodeJS.ProcessEnv) => Promise<{ engine: Engine; warnings: string[] }>;
	readTurn?: typeof readTurn;
}

/** More than any hook input Claude Code sends; beyond it the input is not read. */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

export async function runClaudeCodeHook(
	argv: readonly string[],
	streams: HookStreams,
	options: RunHookOptions = {},
): Promise<void> {
	const event = argv[0];
	const where = `claude-code ${event ?? "(no event)"} hook`;
	let text: string;
	try {
		text = await readInput(streams.stdin);
	} catch (error) {
		await recordProblem(projectFolder(streams, null), streams, where, error);
		return;
	}
	const parsed = parseHookInput(text, event);
	const folder = projectFolder(streams, parsed.ok ? parsed.input.cwd : null);
	if (!parsed.ok) {
		await recordProblem(folder, streams, where, new Error(parsed.problem));
		return;
	}
	const input = parsed.input;
	const open = options.open ?? defaultOpen;
	let engine: Engine;
	try {
		const workspace = await open(folder, streams.env);
		engine = workspace.engine;
		for (const warning of workspace.warnings.splice(0)) await engine.recordError(null, where, new Error(warning));
	} catch (error) {
		const badConfig = isBoulderError(error) && (error.code === "config-invalid" || error.code === "config-unreadable");
		const record = await recordProblem(folder, streams, where, error, input.sessionId, badConfig);
		// The user hears about a bad config where they are: once where boulder keeps a log to remember
		// it told them, else at the end of each turn (never on every tool call).
		const logged = record.stderr.length === 0;
		if (badConfig && !record.repeated && (logged || input.event === "Stop")) {
			writeQuietly(streams.stdout, JSON.stringify({ systemMessage: configNotice(messageOf(error)) }));
		}
		return;
	}
	try {
		const answer = await handleHook(input, { engine, readTurn: options.readTurn ?? readTurn });
		if (answer.output === null) return;
		try {
			streams.stdout.write(JSON.stringify(answer.output));
		} catch (error) {
			await answer.failed?.(messageOf(error));
			throw error;
		}
		await answer.written?.();
	} catch (error) {
		await engine.recordError(
			{ harness: HARNESS, sessionId: input.sessionId, subagent: input.agentId !== null },
			where,
			error,
		);
	}
}

/**
 * The project the session works in: Claude Code's `CLAUDE_PROJECT_DIR` (where
 * the session started, stable while the agent `cd`s about), else the input's
 * `cwd`, else the process's folder.
 */
export function projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string {
	return streams.env.CLAUDE_PROJECT_DIR || inputCwd || streams.cwd;
}

async function defaultOpen(cwd: string, env: NodeJS.ProcessEnv) {
	if (!existsSync(cwd)) throw new Error(`the project folder ${cwd} does not exist`);
	return openWorkspace({ cwd, env });
}

async function readInput(stdin: HookStreams["stdin"]): Promise<string> {
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

async function recordProblem(
	folder: string,
	streams: HookStreams,
	where: string,
	error: unknown,
	sessionId: string | null = null,
	badConfig = false,
): Promise<EarlyRecord> {
	// A bad config is the same problem whichever event meets it: logged (and told) once.
	const message = badConfig ? messageOf(error) : `${where}: ${messageOf(error)}`;
	const reason = badConfig ? "config-invalid" : "error";
	const record = await recordEarlyProblem({ folder, harness: HARNESS, session: sessionId, message, reason });
	for (const line of record.stderr) writeQuietly(streams.stderr, `${line}\n`);
	return record;
}

/** A stream that throws (a closed pipe) must not make the hook reject: there is nowhere left to tell it. */
function writeQuietly(stream: { write(chunk: string): unknown }, text: string): void {
	try {
		stream.write(text);
	} catch {
		// Contract: the hook never throws into its harness; the stream itself is what failed.
	}
}
