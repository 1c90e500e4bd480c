/**
 * One command-hook invocation, end to end, for every harness that starts a
 * process per event (JSON on stdin, an answer on stdout): read stdin, open the
 * worktree, hand the event to the harness's dialect, print its answer, report
 * the delivery. A dialect says how its harness's input reads, where the
 * project is, what an event means to the engine and how a notice is printed.
 *
 * Contract: never throws and never prints anything that continues the agent
 * unless the engine chose to inject. Whatever goes wrong (bad input, a missing
 * folder, a broken config, a corrupt state file, a lock timeout, a bug) is
 * recorded in the decision log when the worktree has one, else on stderr, and
 * the agent is let stop. The caller exits 0.
 */
import { existsSync } from "node:fs";
import { isBoulderError } from "../../core/errors.js";
import { type EarlyRecord, recordEarlyProblem } from "../../engine/early-problem.js";
import type { Engine, SessionRef } from "../../engine/engine.js";
import { openWorkspace } from "../../engine/open.js";
import type { HookStreams } from "../types.js";

/** What the harness is told: JSON for stdout (or nothing), and what to report once it is written. */
export interface HookAnswer {
	output: Record<string, unknown> | null;
	/** Called right after the output was written. */
	written?: () => Promise<void>;
	/** Called when writing the output failed. */
	failed?: (why: string) => Promise<void>;
}

export const NOTHING: HookAnswer = { output: null };

/** The fields every harness's hook input gives the runner. */
export interface CommonHookInput {
	event: string;
	sessionId: string;
	cwd: string | null;
}

export type Parsed<I> = { ok: true; input: I } | { ok: false; problem: string };

export interface HookDialect<I extends CommonHookInput> {
	/** The harness's name in the decision log. */
	harness: string;
	parse(text: string, event: string | undefined): Parsed<I>;
	/** The project the session works in, from the harness's environment, the input's folder or the process's. */
	projectFolder(streams: Pick<HookStreams, "env" | "cwd">, inputCwd: string | null): string;
	sessionRef(input: I): SessionRef;
	/** Contract: throws only what the engine throws; the runner records it and lets the agent stop. */
	handle(input: I, engine: Engine): Promise<HookAnswer>;
	/** The event at the end of a turn, where a bad config is told even when no log remembers telling it. */
	idleEvent: string;
	/** The harness's JSON for a notice shown to the user (never to the model). */
	notice(text: string): Record<string, unknown>;
	/** The notice for a bad config. */
	configNotice(problem: string): string;
}

export type OpenWorkspace = (cwd: string, env: NodeJS.ProcessEnv) => Promise<{ engine: Engine; warnings: string[] }>;

/** More than any hook input a harness sends; beyond it the input is not read. */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

export async function runCommandHook<I extends CommonHookInput>(
	dialect: HookDialect<I>,
	argv: readonly string[],
	streams: HookStreams,
	open: OpenWorkspace = defaultOpen,
): Promise<void> {
	const event = argv[0];
	const where = `${dialect.harness} ${event ?? "(no event)"} hook`;
	let text: string;
	try {
		text = await readInput(streams.stdin);
	} catch (error) {
		await recordProblem(dialect, dialect.projectFolder(streams, null), streams, where, error);
		return;
	}
	const parsed = dialect.parse(text, event);
	const folder = dialect.projectFolder(streams, parsed.ok ? parsed.input.cwd : null);
	if (!parsed.ok) {
		await recordProblem(dialect, folder, streams, where, new Error(parsed.problem));
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
		const record = await recordProblem(dialect, folder, streams, where, error, input.sessionId, badConfig);
		// The user hears about a bad config where they are: once where boulder keeps a log to remember
		// it told them, else at the end of each turn (never on every tool call).
		const logged = record.stderr.length === 0;
		if (badConfig && !record.repeated && (logged || input.event === dialect.idleEvent)) {
			writeQuietly(streams.stdout, JSON.stringify(dialect.notice(dialect.configNotice(messageOf(error)))));
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
		await engine.recordError(dialect.sessionRef(input), where, error);
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

async function recordProblem<I extends CommonHookInput>(
	dialect: HookDialect<I>,
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
	const record = await recordEarlyProblem({ folder, harness: dialect.harness, session: sessionId, message, reason });
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

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A non-empty string, or null. */
export function nonEmptyText(value: unknown): string | null {
	return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * Reads a hook input's JSON object, checking what every harness's input must
 * have: an object, the event it was registered for, a session id. Never throws.
 */
export function parseHookObject(
	text: string,
	event: string,
): { ok: true; value: Record<string, unknown>; sessionId: string } | { ok: false; problem: string } {
	if (text.trim() === "") return { ok: false, problem: `${event}: the hook input was empty` };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, problem: `${event}: the hook input is not JSON (${messageOf(error)})` };
	}
	if (!isRecord(value)) return { ok: false, problem: `${event}: the hook input is not a JSON object` };
	const named = value.hook_event_name;
	if (named !== undefined && named !== event) {
		return { ok: false, problem: `registered for ${event} but the input says ${JSON.stringify(named)}; nothing done` };
	}
	const sessionId = nonEmptyText(value.session_id);
	if (sessionId === null) {
		return { ok: false, problem: `${event}: the hook input has no session_id; not guessing whose state it is` };
	}
	return { ok: true, value, sessionId };
}
