/**
 * pi's events, mapped onto engine calls, for the sessions one extension
 * instance sees (pi loads a fresh instance for every session it opens, and
 * each event names its session). Thin on purpose: every decision is the
 * engine's; the bridge only says which engine call an event means, and
 * carries out the answer with pi's own means.
 *
 * The mapping, and why:
 * - `input` is a prompt someone typed or sent: from the terminal or an RPC
 *   client (`interactive`, `rpc`) it is the user's and starts a new episode;
 *   from another extension (`extension`) it is a `system` turn. boulder's
 *   own continuation is a custom message, which never fires `input`.
 * - `agent_start` after boulder asked to continue is that nudge arriving
 *   (its delivery); any other `agent_start` with no turn running is a run
 *   something else started (another extension's custom message): `system`.
 * - Every assistant `message_end` adds its usage (input, output, cache
 *   writes; cache reads are not spend) and says how the call ended.
 * - `agent_before_settle` is the idle: the turn ends (an error outcome as an
 *   API error or a context overflow), the engine decides, and an inject
 *   becomes pi's own continuation (a custom message and `continue: true`).
 *   pi skips it for an aborted run, and drops the continuation when an abort
 *   lands while handlers run.
 * - `agent_settled {aborted: true}` is the user's abort: the durable block
 *   until they write again. A nudge asked for and never started failed.
 * - `ui_prompt_start`/`ui_prompt_end`: a dialog waits for the user; no nudge
 *   meanwhile.
 * - `session_start` for a session with earlier messages (pi started on an
 *   earlier session, or `/resume` switched to one) and `session_compact`:
 *   the session came back, and the engine's resume context says where its
 *   unfinished work stands. The extension queues it for the next run (pi's
 *   `nextTurn` delivery): context beside the next prompt, never a run of its
 *   own, never a nudge.
 *
 * Contract: no method throws into pi. Whatever goes wrong is recorded in the
 * decision log and the agent is let stop (fail closed).
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { PendingInput } from "../../core/policy.js";
import { countTodos, type Todo } from "../../core/todos.js";
import type { Provenance, TokenSpend, TurnOutcome } from "../../core/turns.js";
import { systemClock } from "../../engine/clock.js";
import type { Engine, IdleResult, ResumeHow, SessionRef } from "../../engine/engine.js";
import { runSubcommand } from "../shared/boulder-command.js";
import { messageOf } from "../shared/loose.js";
import type { WorkspaceSource } from "../shared/workspace.js";
import { NOTICE, TOOL_TEXT } from "./messages.js";
import { Serial, withinDeadline } from "./serial.js";
import { normalizePiTodos } from "./todos.js";

export const HARNESS = "pi";

/** pi's tools that change files: work done that the list may not show yet. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(["edit", "write"]);

/** How long pi's settle may wait for a decision (verify commands can take minutes). */
const DECIDE_LIMIT_MS = 10 * 60 * 1000;

/** What the bridge needs of pi at an event: the session, and pi's ways to speak and to start a run. */
export interface PiView {
	sessionId: string;
	notify(text: string, level: "info" | "warning" | "error"): void;
	/** Whether pi is idle (no run, no retry, nothing queued). */
	idle(): boolean;
	/** Starts a run with boulder's message while pi is idle. */
	startRun(text: string): void;
}

/** An assistant message as pi reports it at `message_end`, kept loose: it is read, not trusted. */
export interface AssistantReport {
	stopReason: string;
	errorMessage: string | null;
	text: string;
	spend: TokenSpend;
}

export interface Continuation {
	key: string;
	text: string;
}

export interface BridgeOptions {
	workspace: WorkspaceSource;
	decideLimitMs?: number;
}

const NO_SPEND: TokenSpend = { input: 0, output: 0, cacheWrite: 0 };

export class PiBridge {
	private readonly workspace: WorkspaceSource;
	private readonly decideLimitMs: number;
	private readonly serial: Serial;
	private running = false;
	private spend: TokenSpend = NO_SPEND;
	private last: AssistantReport | null = null;
	/** The key of the nudge pi was asked to continue with, until its run starts. */
	private nudge: string | null = null;
	private prompts: PendingInput | null = null;

	constructor(options: BridgeOptions) {
		this.workspace = options.workspace;
		this.decideLimitMs = options.decideLimitMs ?? DECIDE_LIMIT_MS;
		this.serial = new Serial((where, error) => this.recordError(null, where, error));
	}

	/** A prompt reached pi (`input`); resolves once the engine has the turn. */
	async input(view: PiView, source: string): Promise<void> {
		const provenance: Provenance = source === "extension" ? "system" : "user";
		this.beginTurn();
		this.nudge = null;
		await this.job(view, "recording the prompt", (engine, ref) => engine.turnStarted(ref, provenance));
	}

	async agentStart(view: PiView): Promise<void> {
		const key = this.nudge;
		if (key !== null) {
			this.nudge = null;
			this.beginTurn();
			await this.job(view, "recording the nudge's delivery", (engine, ref) => engine.delivered(ref, key));
			return;
		}
		if (this.running) return;
		this.beginTurn();
		await this.job(view, "recording a run", (engine, ref) => engine.turnStarted(ref, "system"));
	}

	assistantMessage(report: AssistantReport): void {
		this.spend = addSpend(this.spend, report.spend);
		this.last = report;
	}

	async toolEnded(view: PiView, tool: string, failed: boolean): Promise<void> {
		if (failed || !FILE_TOOLS.has(tool)) return;
		await this.job(view, "recording a file change", (engine, ref) => engine.activity(ref));
	}

	async promptStarted(view: PiView, kind: string, title: string | undefined): Promise<void> {
		const pending: PendingInput = {
			kind: kind === "confirm" ? "permission" : "question",
			detail: title ? `${kind}: ${title}` : kind,
		};
		this.prompts = pending;
		await this.job(view, "recording a dialog", (engine, ref) => engine.pendingInputChanged(ref, pending));
	}

	async promptEnded(view: PiView): Promise<void> {
		this.prompts = null;
		await this.job(view, "recording a dialog's end", (engine, ref) => engine.pendingInputChanged(ref, null));
	}

	/**
	 * pi is about to settle: the turn ends and the engine decides. Returns the
	 * continuation to hand pi, or null to let it settle. `busy`: pi goes on
	 * anyway (queued messages, another extension's continuation), so this is
	 * no idle.
	 */
	async beforeSettle(view: PiView, outcome: string, busy: boolean): Promise<Continuation | null> {
		if (outcome === "aborted" || busy) return null;
		const spend = this.spend;
		const last = this.last;
		this.endTurn();
		const decided = this.serial.run("deciding at idle", async () => {
			const ref = refOf(view);
			const keeper = await this.workspace.bookkeeping();
			if (outcome === "error") {
				const message = last?.errorMessage ?? "the model call failed";
				const event = isContextOverflow(message)
					? ({ type: "context-overflow", spend } as const)
					: ({ type: "api-error", message, spend } as const);
				await keeper.sessionEvent(ref, event);
			} else {
				await keeper.turnEndedIfRunning(ref, { outcome: outcomeOf(last), spend });
			}
			return this.decide(view, ref, last?.text ?? null);
		});
		const result = await withinDeadline(decided, this.decideLimitMs, (late) => {
			const ref = refOf(view);
			void this.recordError(ref, "deciding at idle", new Error(`no decision within ${this.decideLimitMs} ms`));
			if (late?.kind === "inject") void this.failDelivery(view, late.key, "pi settled before boulder decided");
		});
		return result?.kind === "inject" ? { key: result.key, text: result.text } : null;
	}

	/** pi settled: an abort is the user's; a nudge that never started failed. */
	async settled(view: PiView, aborted: boolean): Promise<void> {
		const key = this.nudge;
		this.nudge = null;
		const spend = this.spend;
		const last = this.last;
		const wasRunning = this.running;
		this.endTurn();
		await this.job(view, "recording the settle", async (engine, ref) => {
			if (key !== null) {
				const why = aborted ? "the user aborted before it started" : "pi did not start it";
				await engine.deliveryFailed(ref, key, why);
			}
			if (aborted) {
				if (wasRunning) await engine.turnEndedIfRunning(ref, { outcome: "aborted", spend });
				await engine.sessionEvent(ref, { type: "abort" });
			} else if (wasRunning) {
				await engine.turnEndedIfRunning(ref, { outcome: outcomeOf(last), spend });
			}
		});
	}

	/** The session came back: what to tell it about its unfinished work, or null (nothing, or it failed: recorded). */
	async cameBack(view: PiView, how: ResumeHow): Promise<string | null> {
		return this.serial.run("giving the resume context", async () =>
			(await this.workspace.deciding()).resumeContext(refOf(view), how),
		);
	}

	/** `/boulder <args>`: the answer to show. A `go` while pi is idle decides again at once. */
	async command(view: PiView, args: string): Promise<string> {
		const answer = await this.serial.run("answering /boulder", async () => {
			const engine = await this.workspace.bookkeeping();
			return runSubcommand(args, { engine, clock: systemClock, ref: refOf(view) });
		});
		if (answer === null) return NOTICE.failed("see `boulder why`");
		if (answer.effect === "resumed" && view.idle() && !this.running) {
			void this.serial.run("deciding after /boulder go", async () => {
				const result = await this.decide(view, refOf(view), this.last?.text ?? null);
				if (result?.kind === "inject") view.startRun(result.text);
			});
		}
		return answer.text;
	}

	/** `todo_write`: the list replaces the session's; the answer is for the model. */
	async writeTodos(view: PiView, input: unknown): Promise<string> {
		const { todos, warnings } = normalizePiTodos(input);
		const done = await this.serial.run("saving the todo list", async () => {
			const engine = await this.workspace.bookkeeping();
			const ref = refOf(view);
			await engine.todosChanged(ref, todos);
			if (warnings.length > 0) {
				await engine.recordError(ref, "reading todo_write's list", new Error(warnings.join("; ")));
			}
			return true;
		});
		if (done === null) return TOOL_TEXT.unavailable("see `boulder why`");
		const counts = countTodos(todos);
		const saved = TOOL_TEXT.saved(counts.total, counts.open, counts.completed);
		return warnings.length > 0 ? `${saved}\n${TOOL_TEXT.dropped(warnings)}` : saved;
	}

	/** `todo_read`: the session's list, one item a line. */
	async readTodos(view: PiView): Promise<string> {
		const todos = await this.serial.run("reading the todo list", async () =>
			(await this.workspace.bookkeeping()).sessionTodos(refOf(view)),
		);
		if (todos === null) return TOOL_TEXT.unavailable("see `boulder why`");
		return todos.length === 0 ? TOOL_TEXT.empty : todos.map(todoLine).join("\n");
	}

	/** `todo_clear`: the session's list is emptied. */
	async clearTodos(view: PiView): Promise<string> {
		const removed = await this.serial.run("clearing the todo list", async () => {
			const engine = await this.workspace.bookkeeping();
			const ref = refOf(view);
			const before = await engine.sessionTodos(ref);
			await engine.todosChanged(ref, []);
			return before.length;
		});
		return removed === null ? TOOL_TEXT.unavailable("see `boulder why`") : TOOL_TEXT.cleared(removed);
	}

	/** Resolves once every engine call queued so far has run (tests; shutdown). */
	async settledJobs(): Promise<void> {
		await this.serial.idle();
	}

	/** Records an error in the decision log; never throws (when even that fails, it goes to stderr). */
	async recordError(ref: SessionRef | null, where: string, error: unknown): Promise<void> {
		try {
			await (await this.workspace.bookkeeping()).recordError(ref, where, error);
		} catch (failed) {
			process.stderr.write(
				`boulder: ${where}: ${messageOf(error)} (and the decision log failed: ${messageOf(failed)})\n`,
			);
		}
	}

	/** Asks the engine with the config as it is now, and says what pi's user should hear. Null: no decision. */
	private async decide(view: PiView, ref: SessionRef, lastText: string | null): Promise<IdleResult | null> {
		let engine: Engine;
		try {
			engine = await this.workspace.deciding();
		} catch (error) {
			await this.recordError(ref, "reading boulder's config", error);
			view.notify(NOTICE.configProblem(messageOf(error)), "error");
			return null;
		}
		const result = await engine.onIdle(ref, { lastAssistantText: lastText, pendingInput: this.prompts });
		switch (result.kind) {
			case "inject":
				this.nudge = result.key;
				view.notify(NOTICE.continuing(result.figures.open), "info");
				break;
			case "complete":
				if (result.text) view.notify(NOTICE.complete(result.text), "info");
				break;
			case "skip":
				if (result.notice) view.notify(NOTICE.limit(result.detail), "warning");
				break;
			case "verify":
				break;
		}
		return result;
	}

	private async failDelivery(view: PiView, key: string, why: string): Promise<void> {
		if (this.nudge === key) this.nudge = null;
		await this.job(view, "recording a failed delivery", (engine, ref) => engine.deliveryFailed(ref, key, why));
	}

	private async job(view: PiView, where: string, work: (engine: Engine, ref: SessionRef) => Promise<unknown>) {
		const ref = refOf(view);
		await this.serial.run(where, async () => work(await this.workspace.bookkeeping(), ref));
	}

	private beginTurn(): void {
		this.running = true;
		this.spend = NO_SPEND;
		this.last = null;
	}

	private endTurn(): void {
		this.running = false;
		this.spend = NO_SPEND;
	}
}

/**
 * Whether a `session_start` brings a session back: pi switched to an earlier
 * session (`resume`), or started on one that already holds messages
 * (`--session`, `--continue`: `startup`). A new session, a fork (a new
 * session of its own) and a reload (the same process) come back to nothing.
 */
export function cameBackHow(reason: string, hasMessages: boolean): ResumeHow | null {
	if (reason === "resume" || (reason === "startup" && hasMessages)) return "resume";
	return null;
}

function refOf(view: PiView): SessionRef {
	return { harness: HARNESS, sessionId: view.sessionId };
}

/** How the turn's last model call ended; an error outcome is reported as its own event. */
function outcomeOf(last: AssistantReport | null): TurnOutcome {
	if (last === null) return "unknown";
	switch (last.stopReason) {
		case "stop":
		case "toolUse":
			return "end";
		case "length":
			return "length";
		case "aborted":
			return "aborted";
		case "error":
			return "error";
		default:
			return "unknown";
	}
}

function addSpend(a: TokenSpend, b: TokenSpend): TokenSpend {
	return { input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite };
}

function todoLine(todo: Todo): string {
	return `- [${todo.status}] ${todo.content}${todo.priority ? ` (${todo.priority})` : ""}`;
}
