/**
 * One hook invocation of a command-hook harness, end to end: read stdin,
 * parse it in the harness's dialect, open the worktree, let the dialect map
 * the event onto engine calls, print its answer, report the delivery. Shared
 * by every harness that starts a process per event (Claude Code, Copilot CLI,
 * ...); each brings only its dialect.
 *
 * Contract: never throws and never prints anything that continues the agent
 * unless the engine chose to inject. Whatever goes wrong (bad input, a
 * missing folder, a broken config, a corrupt state file, a lock timeout, a
 * bug) is recorded in the decision log when the worktree has one, else on
 * stderr, and the agent is let stop. The caller exits 0.
 */
import { existsSync } from "node:fs";
import { isBoulderError } from "../../core/errors.js";
import { type EarlyRecord, recordEarlyProblem } from "../../engine/early-problem.js";
import type { Engine, SessionRef } from "../../engine/engine.js";
import { openWorkspace } from "../../engine/open.js";
import type { HookStreams } from "../types.js";
import { messageOf } from "./json-values.js";

/** What the harness is told: JSON for stdout (or nothing), and what to report once it is written. */
export interface HookAnswer {
	output: Record<string, unknown> | null;
	/** Called right after the output was written. */
	written?: () => Promise<void>;
	/** Called when writing the output failed. */
	failed?: (why: string) => Promise<void>;
}

export type ParsedInput<I> = { ok: true; input: I } | { ok: false; problem: string };

/** What a harness's hook input must say, whatever else it carries. */
export interface CommonInput {
	sessionId: string;
	cwd: string | null;
}

export interface CommandHookDialect<I extends CommonInput> {
	harness: string;
	parse(text: string, event: string | undefined): ParsedInput<I>;
	/** The project the session works in, from the harness's environment or the input's `cwd`. */
	projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string;
	/** The session as the engine knows it, for errors met while handling the event. */
	refOf(input: I): SessionRef;
	/** Contract: throws only what the engine throws. */
	handle(input: I, engine: Engine): Promise<HookAnswer>;
	/**
	 * What to print when the config is bad and the user has not been told yet
	 * (`logged`: boulder keeps a log here that remembers it told them); null:
	 * nothing for this event.
	 */
	configNotice(input: I, problem: string, logged: boolean): Record<string, unknown> | null;
}

export type OpenEngine = (cwd: string, env: NodeJS.ProcessEnv) => Promise<{ engine: Engine; warnings: string[] }>;

/** More than any hook input a harness sends; beyond it the input is not read. */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

export async function runCommandHook<I extends CommonInput>(
	dialect: CommandHookDialect<I>,
	argv: readonly string[],
	streams: HookStreams,
	open: OpenEngine = defaultOpen,
): Promise<void> {
	const event = argv[0];
	const where = `${dialect.harness} ${event ?? "(no event)"} hook`;
	const record = (folder: string, error: unknown, sessionId: string | null = null, badConfig = false) =>
		recordProblem(dialect.harness, folder, streams, where, error, sessionId, badConfig);
	let text: string;
	try {
		text = await readInput(streams.stdin);
	} catch (error) {
		await record(dialect.projectFolder(streams, null), error);
		return;
	}
	const parsed = dialect.parse(text, event);
	const folder = dialect.projectFolder(streams, parsed.ok ? parsed.input.cwd : null);
	if (!parsed.ok) {
		await record(folder, new Error(parsed.problem));
		return;
	}
	const input = parsed.input;
	let engine: Engine;
	try {
		const workspace = await open(folder, streams.env);
		engine = workspace.engine;
		for (const warning of workspace.warnings.splice(0)) await engine.recordError(null, where, new Error(warning));
	} catch (error) {
		const badConfig = isBoulderError(error) && (error.code === "config-invalid" || error.code === "config-unreadable");
		const early = await record(folder, error, input.sessionId, badConfig);
		if (badConfig && !early.repeated) {
			const notice = dialect.configNotice(input, messageOf(error), early.stderr.length === 0);
			if (notice !== null) writeQuietly(streams.stdout, JSON.stringify(notice));
		}
		return;
	}
	try {
		const answer = await dialect.handle(input, engine);
		if (answer.output === null) return;
		try {
			streams.stdout.write(JSON.stringify(answer.output));
		} catch (error) {
			await answer.failed?.(messageOf(error));
			throw error;
		}
		await answer.written?.();
	} catch (error) {
		await engine.recordError(dialect.refOf(input), where, error);
	}
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
	harness: string,
	folder: string,
	streams: HookStreams,
	where: string,
	error: unknown,
	sessionId: string | null,
	badConfig: boolean,
): Promise<EarlyRecord> {
	// A bad config is the same problem whichever event meets it: logged (and told) once.
	const message = badConfig ? messageOf(error) : `${where}: ${messageOf(error)}`;
	const reason = badConfig ? "config-invalid" : "error";
	const record = await recordEarlyProblem({ folder, harness, session: sessionId, message, reason });
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
