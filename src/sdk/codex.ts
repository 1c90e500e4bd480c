/**
 * `boulder-agent/sdk/codex`: boulder around the Codex SDK
 * (`@openai/codex-sdk`), which has no hooks. `runUntilDone(thread, prompt)`
 * runs the prompt, asks the engine after each turn, and runs the engine's
 * nudge as the next turn until it says stop: the loop a CI job would write
 * by hand with `maxTurns`, with boulder's guards (a question to the user,
 * an abort, budgets, stagnation, verify commands) and its decision log.
 *
 * What a turn shows is read from the SDK's stream: the agent's `todo_list`
 * (Codex's plan) is the list, `file_change` items are activity, the
 * `turn.completed` usage is the spend, the last `agent_message` is what the
 * question guard reads, a `turn.failed` or `error` is an API error (backoff).
 *
 * Contract: never throws for what the engine or the state does (recorded,
 * and the loop ends with `stopped: "error"`); an abort through `signal`
 * ends the run at once and is recorded as the user's abort, which holds
 * (no nudge) until the next real prompt, across processes.
 */

import { normalizeCodexPlan } from "../adapters/codex/events.js";
import type { Todo } from "../core/todos.js";
import type { Engine, IdleResult, SessionRef } from "../engine/engine.js";
import { type EngineSource, fileEngines, recordQuietly } from "./engines.js";

/** The harness name boulder's state and log use for these sessions (as for the Codex CLI's). */
export const CODEX_HARNESS = "codex";

/** The SDK's `Usage`, the fields boulder counts. */
export interface CodexUsage {
	input_tokens: number;
	cached_input_tokens: number;
	output_tokens: number;
	cache_write_input_tokens?: number;
}

/** A `ThreadItem` of the SDK, as boulder reads it: the types it uses and whatever else comes. */
export type CodexItem =
	| { type: "agent_message"; text: string }
	| { type: "todo_list"; items: readonly { text: string; completed: boolean }[] }
	| { type: "file_change"; status: string }
	| { type: string };

/** A `ThreadEvent` of the SDK's stream. */
export type CodexEvent =
	| { type: "thread.started"; thread_id: string }
	| { type: "turn.completed"; usage: CodexUsage }
	| { type: "turn.failed"; error: { message: string } }
	| { type: "item.completed" | "item.updated"; item: CodexItem }
	| { type: "error"; message: string }
	| { type: string };

/** The SDK's `Thread`: `codex.startThread()` or `codex.resumeThread(id)`. */
export interface CodexThread {
	readonly id: string | null;
	runStreamed(input: string, options?: { signal?: AbortSignal }): Promise<{ events: AsyncIterable<CodexEvent> }>;
}

/** What `runUntilDone()` is told: where the project is, the plan to roll, the abort signal. */
export interface RunUntilDoneOptions {
	/** The project whose state boulder keeps: the thread's `workingDirectory`. Default: `process.cwd()`. */
	cwd?: string;
	/** A Markdown plan to roll, relative to `cwd`, started as `boulder start PLAN.md` starts it, before the first turn. */
	plan?: string;
	/** Aborts the run at once (passed to each `runStreamed`) and durably (recorded as the user's abort). */
	signal?: AbortSignal;
	/** Where the user's config and state folders are found. Default: `process.env`. */
	env?: NodeJS.ProcessEnv;
	/** Hears each decision as it is made (to log or show it). */
	onDecision?: (decision: CodexDecision) => void;
	/** Opens the engine for a folder; tests pass their own. */
	engines?: EngineSource;
}

/** One decision after a turn: what the engine answered, and why. */
export interface CodexDecision {
	kind: IdleResult["kind"];
	reason: string;
	detail: string;
	/** The nudge run as the next turn, for an `inject`. */
	text: string | null;
}

/** How the run went: the turns it ran, every decision, and why it ended. */
export interface RunUntilDoneResult {
	/** The thread's id (null when not even the first turn started). */
	threadId: string | null;
	/** Turns run: the prompt's, then one per nudge. */
	turns: number;
	/** Every decision, in order; the last says why the loop ended. */
	decisions: CodexDecision[];
	/** `decided`: the engine said stop; `aborted`: the signal; `error`: boulder could not decide (recorded). */
	stopped: "decided" | "aborted" | "error";
	/** The agent's last message. */
	finalResponse: string | null;
}

/**
 * Runs `prompt` on `thread`, then the engine's nudges, until the engine
 * says stop (or `signal` aborts). The prompt is the user's turn and opens an
 * episode; each nudge is boulder's, within that episode's budgets.
 */
export async function runUntilDone(
	thread: CodexThread,
	prompt: string,
	options: RunUntilDoneOptions = {},
): Promise<RunUntilDoneResult> {
	const cwd = options.cwd ?? process.cwd();
	const engines = options.engines ?? fileEngines(options.env ?? process.env);
	const result: RunUntilDoneResult = {
		threadId: thread.id,
		turns: 0,
		decisions: [],
		stopped: "decided",
		finalResponse: null,
	};
	const ref = (): SessionRef | null => (thread.id === null ? null : { harness: CODEX_HARNESS, sessionId: thread.id });
	let input = prompt;
	let provenance: "user" | "continuation" = "user";
	try {
		if (options.plan !== undefined) await engines.start(cwd, options.plan);
		for (;;) {
			if (options.signal?.aborted) return await aborted(engines, cwd, ref(), result);
			const known = ref();
			// A nudge's turn was begun by the engine when it recorded the nudge as delivered.
			if (known && provenance === "user") await (await engines.bookkeeping(cwd)).turnStarted(known, "user");
			const turn = await runTurn(thread, input, options.signal, async (id) => {
				if (!known && provenance === "user") {
					await (await engines.bookkeeping(cwd)).turnStarted({ harness: CODEX_HARNESS, sessionId: id }, "user");
				}
			});
			result.turns += 1;
			result.threadId = thread.id;
			if (turn.lastText !== null) result.finalResponse = turn.lastText;
			const session = ref();
			if (session === null) throw new Error("the Codex SDK ran a turn but named no thread");
			if (turn.aborted || options.signal?.aborted) return await aborted(engines, cwd, session, result);
			const engine = await engines.open(cwd);
			const decision = await decideAfter(engine, session, turn);
			result.decisions.push(decision);
			options.onDecision?.(decision);
			if (decision.kind !== "inject" || decision.text === null) return result;
			input = decision.text;
			provenance = "continuation";
		}
	} catch (error) {
		if (options.signal?.aborted) return aborted(engines, cwd, ref(), result);
		await recordQuietly(engines, cwd, null, ref(), "codex sdk runUntilDone", error);
		result.stopped = "error";
		return result;
	}
}

interface TurnSeen {
	todos: Todo[] | null;
	warnings: string[];
	lastText: string | null;
	edits: number;
	usage: CodexUsage | null;
	failure: string | null;
	aborted: boolean;
}

async function runTurn(
	thread: CodexThread,
	input: string,
	signal: AbortSignal | undefined,
	started: (threadId: string) => Promise<void>,
): Promise<TurnSeen> {
	const seen: TurnSeen = {
		todos: null,
		warnings: [],
		lastText: null,
		edits: 0,
		usage: null,
		failure: null,
		aborted: false,
	};
	try {
		const { events } = await thread.runStreamed(input, signal ? { signal } : {});
		for await (const event of events) await noteEvent(seen, event, started);
	} catch (error) {
		if (signal?.aborted) seen.aborted = true;
		else throw error;
	}
	return seen;
}

async function noteEvent(seen: TurnSeen, event: CodexEvent, started: (threadId: string) => Promise<void>) {
	if (event.type === "thread.started" && "thread_id" in event) await started(event.thread_id);
	else if (event.type === "turn.completed" && "usage" in event) seen.usage = event.usage;
	else if (event.type === "turn.failed" && "error" in event) seen.failure = event.error.message;
	else if (event.type === "error" && "message" in event) seen.failure = event.message;
	else if ((event.type === "item.completed" || event.type === "item.updated") && "item" in event) {
		const item = event.item;
		if (event.type === "item.completed" && item.type === "agent_message" && "text" in item) seen.lastText = item.text;
		else if (event.type === "item.completed" && item.type === "file_change") seen.edits += 1;
		else if (item.type === "todo_list" && "items" in item) {
			const plan = item.items.map((todo) => ({ step: todo.text, status: todo.completed ? "completed" : "pending" }));
			const { todos, warnings } = normalizeCodexPlan({ plan });
			seen.todos = todos;
			seen.warnings = warnings;
		}
	}
}

async function decideAfter(engine: Engine, ref: SessionRef, turn: TurnSeen): Promise<CodexDecision> {
	if (turn.todos !== null) await engine.todosChanged(ref, firstOpenInProgress(turn.todos));
	if (turn.warnings.length > 0) {
		await engine.recordError(ref, "reading the agent's todo_list", new Error(turn.warnings.join("; ")));
	}
	const spend = turn.usage ? spendOf(turn.usage) : undefined;
	if (turn.failure !== null) {
		await engine.sessionEvent(ref, { type: "api-error", message: turn.failure, ...(spend ? { spend } : {}) });
	}
	const end = {
		outcome: turn.failure === null ? ("end" as const) : ("error" as const),
		activity: turn.edits,
		...(spend ? { spend } : {}),
	};
	// Running the nudge is the delivery, at once: recorded in the same write as the decision.
	const result = await engine.turnEndedAndIdle(ref, end, { lastAssistantText: turn.lastText }, { deliverNow: true });
	return {
		kind: result.kind,
		reason: result.reason,
		detail: result.detail,
		text: result.kind === "inject" ? result.text : null,
	};
}

/** Codex's `todo_list` says only done or not: the first item not done is the one in progress. */
function firstOpenInProgress(todos: Todo[]): Todo[] {
	const first = todos.findIndex((todo) => todo.status === "pending");
	return todos.map((todo, index) => (index === first ? { ...todo, status: "in_progress" } : todo));
}

/** Real spend: fresh input (the cached part is not paid again), output, and cache writes. */
function spendOf(usage: CodexUsage) {
	return {
		input: Math.max(0, usage.input_tokens - usage.cached_input_tokens),
		output: usage.output_tokens,
		cacheWrite: usage.cache_write_input_tokens ?? 0,
	};
}

async function aborted(
	engines: EngineSource,
	cwd: string,
	ref: SessionRef | null,
	result: RunUntilDoneResult,
): Promise<RunUntilDoneResult> {
	result.stopped = "aborted";
	if (ref === null) return result;
	try {
		const engine = await engines.bookkeeping(cwd);
		await engine.sessionEvent(ref, { type: "abort" });
	} catch (error) {
		await recordQuietly(engines, cwd, null, ref, "codex sdk abort", error);
	}
	return result;
}
