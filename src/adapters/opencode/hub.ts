/**
 * OpenCode's hooks, mapped onto engine calls. One hub per project folder and
 * process: every plugin instance of that folder forwards its hooks here (see
 * `shared.ts`), and the hub handles each event once (events carry an id;
 * prompts are known by their message id, tool calls by their call id).
 *
 * Thin on purpose: every decision is the engine's. The hub only says which
 * engine call an event means, keeps the little it needs between events
 * (`sessions.ts`), and delivers the engine's answer (`delivery.ts`).
 *
 * The mapping, and why:
 * - `chat.message` fires once per new prompt. boulder's nudge (marked part)
 *   confirms its delivery; a prompt of synthetic text only (another tool,
 *   OpenCode itself) is a `system` turn; anything else is the user's.
 * - A user message that appears without `chat.message` is OpenCode's own
 *   (the replay after a context overflow, the "continue" after compaction):
 *   a `system` turn. The user message's `message.updated` repeats every step,
 *   so only a message id not seen before counts.
 * - The assistant's `message.updated` carries the spend of each step and how
 *   it ended; at idle the turn ends with their sum and the last one's finish.
 * - `session.status` idle and `session.idle` (deprecated, still sent) are one
 *   idle: only the first after the session was busy is acted on.
 * - `session.error`: `MessageAbortedError` is the user's abort (a durable
 *   block until they write again); an overflow or a model API error ends the
 *   turn as such; anything else is only recorded.
 * - A question or permission request is pending from `*.asked` until
 *   `*.replied`/`rejected`: no nudge meanwhile (a question also keeps the
 *   session busy).
 * - Child sessions (`parentID`) are never continued. While one runs, its
 *   parent's background count is up; when the last one stops, the parent is
 *   decided again if it is idle.
 *
 * Contract: no method throws into OpenCode, except `commandBefore`, which
 * throws on purpose after answering `/boulder` (see `slash-command.ts`).
 * Everything else is caught, recorded in the decision log, and dropped.
 */

import type { Config } from "../../core/config.js";
import { normalizeOpenCodeTodos } from "../../core/todo-normalize.js";
import type { Provenance, TokenSpend } from "../../core/turns.js";
import type { Engine, IdleResult, SessionEvent, SessionRef } from "../../engine/engine.js";
import type { Clock } from "../../state/store.js";
import { systemClock } from "../../state/store.js";
import { type OpenCodeApi, type PromptRoute, unref, withTimeout } from "./api.js";
import { answerPart, Deliveries } from "./delivery.js";
import {
	answeredAsk,
	type BusEvent,
	errorKindOf,
	FILE_TOOLS,
	HARNESS,
	isRecord,
	messageOf,
	originOf,
	outcomeOf,
	readAsk,
	readError,
	readEvent,
	readMessageInfo,
	readPart,
	readSessionInfo,
	sessionOf,
} from "./event-read.js";
import { ANSWER, COMMAND_NAME, TEXT } from "./messages.js";
import { SessionTable, type SessionTrack } from "./sessions.js";
import { CommandAnswered, declareCommand, runSubcommand } from "./slash-command.js";
import type { WorkspaceSource } from "./workspace.js";

/** Skips the user should hear about: boulder let the agent stop on a limit, not because the work is done. */
const NOTICED_SKIPS: ReadonlySet<string> = new Set(["stagnation", "budget-turns", "budget-tokens", "budget-time"]);

/** Most event ids remembered to drop duplicates (the same event reaches every instance). */
const SEEN_EVENTS = 5_000;

/** How long a hook OpenCode waits on may take before it lets OpenCode go on (the work continues behind). */
const HOOK_WAIT_MS = 5_000;

/** A job on a session's queue that takes longer than this (a stuck lock; verify commands can take minutes) no longer holds up the next. */
const JOB_LIMIT_MS = 10 * 60 * 1000;

/** How many of a session's newest messages are read when the events did not say enough. */
const MESSAGES_READ = 30;

export interface HubOptions {
	directory: string;
	api: OpenCodeApi;
	workspace: WorkspaceSource;
	clock?: Clock;
	/** How long a sent nudge may take to appear in the session before it counts as not delivered. */
	confirmMs?: number;
}

/** The hooks the hub implements, in the shape of OpenCode's `Hooks` (inputs kept loose: they are read, not trusted). */
export interface HubHooks {
	event(input: { event: unknown }): Promise<void>;
	config(config: unknown): Promise<void>;
	"chat.message"(
		input: { sessionID: string; agent?: string; model?: unknown },
		output: { message: unknown; parts: unknown[] },
	): Promise<void>;
	"tool.execute.before"(input: { tool: string; sessionID: string; callID: string }): Promise<void>;
	"command.execute.before"(input: { command: string; sessionID: string; arguments: string }): Promise<void>;
}

export class Hub {
	readonly directory: string;
	private readonly api: OpenCodeApi;
	private readonly workspace: WorkspaceSource;
	private readonly clock: Clock;
	private readonly sessions = new SessionTable();
	private readonly deliveries: Deliveries;
	private readonly seen = new Set<string>();
	private readonly queues = new Map<string, Promise<void>>();
	private readonly retries = new Map<string, ReturnType<typeof setTimeout>>();
	private users = 0;
	private closed = false;

	constructor(options: HubOptions) {
		this.directory = options.directory;
		this.api = options.api;
		this.workspace = options.workspace;
		this.clock = options.clock ?? systemClock;
		this.deliveries = new Deliveries({
			api: this.api,
			confirmMs: options.confirmMs ?? 20_000,
			now: () => this.clock.now(),
			report: {
				failed: (ref, key, reason, cancelled) => this.deliveryFailed(ref, key, reason, cancelled),
				error: (ref, where, error) => this.recordError(ref, where, error),
			},
		});
	}

	/** One more plugin instance uses the hub; the returned function lets go (the last one closes it). */
	attach(): () => void {
		this.users++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.users--;
			if (this.users <= 0) this.close();
		};
	}

	get isClosed(): boolean {
		return this.closed;
	}

	hooks(): HubHooks {
		return {
			event: async ({ event }) => this.onEvent(event),
			config: async (config) => this.guard(null, "declaring /boulder", async () => declareCommand(config)),
			"chat.message": async (input, output) => this.onPrompt(input, output),
			"tool.execute.before": async (input) =>
				this.guard(null, "handling tool.execute.before", async () => {
					this.deliveries.cancel(input.sessionID, `a tool (${input.tool}) ran`);
				}),
			"command.execute.before": async (input) => this.onCommand(input),
		};
	}

	/** Resolves once every queued job has run (for tests, and to wait before shutting down). */
	async settled(): Promise<void> {
		while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		for (const timer of this.retries.values()) clearTimeout(timer);
		this.retries.clear();
		this.deliveries.close("OpenCode unloaded the plugin");
	}

	// --- events -----------------------------------------------------------

	private onEvent(raw: unknown): void {
		try {
			const event = readEvent(raw);
			if (!event || (event.id !== null && !this.firstSight(`event:${event.id}`))) return;
			this.dispatch(event);
		} catch (error) {
			void this.recordError(null, "reading an OpenCode event", error);
		}
	}

	private dispatch(event: BusEvent): void {
		const p = event.properties;
		switch (event.type) {
			case "session.created":
			case "session.updated": {
				const info = readSessionInfo(p.info);
				if (!info) return;
				// Once a child, always a child: an update that leaves parentID out never makes it a root.
				const track = this.sessions.get(info.id);
				if (info.parentId !== null || track.parentId === undefined) track.parentId = info.parentId;
				return;
			}
			case "session.deleted":
				this.onDeleted(event);
				return;
			case "session.status": {
				const session = sessionOf(event);
				const status = isRecord(p.status) ? p.status.type : undefined;
				if (!session) return;
				if (status === "idle") this.onIdle(session);
				else if (status === "busy" || status === "retry") this.onBusy(session);
				return;
			}
			case "session.idle": {
				const session = sessionOf(event);
				if (session) this.onIdle(session);
				return;
			}
			case "session.error":
				this.onError(event);
				return;
			case "session.compacted": {
				const session = sessionOf(event);
				if (session) this.rootEvent(session, { type: "compaction" });
				return;
			}
			case "message.updated":
				this.onMessage(event);
				return;
			case "message.part.updated":
				this.onPart(event);
				return;
			case "todo.updated":
				this.onTodos(event);
				return;
			case "question.asked":
			case "permission.asked":
			case "permission.updated":
				this.onAsk(event);
				return;
			case "question.replied":
			case "question.rejected":
			case "permission.replied":
				this.onAnswer(event);
				return;
		}
	}

	private onBusy(session: string): void {
		const track = this.sessions.get(session);
		track.status = "busy";
		this.deliveries.cancel(session, "the session became busy");
		this.clearRetry(session);
		this.withParent(track, (parent) => {
			if (parent === null) return;
			const parentTrack = this.sessions.get(parent);
			if (parentTrack.runningChildren.has(session)) return;
			parentTrack.runningChildren.add(session);
			const count = parentTrack.runningChildren.size;
			this.enqueue(parent, async () => (await this.engine()).backgroundChanged(this.ref(parentTrack), count));
		});
	}

	private onIdle(session: string): void {
		const track = this.sessions.get(session);
		if (track.status === "idle") return;
		track.status = "idle";
		const turn = track.turnSummary();
		const lastText = track.lastAssistantText();
		this.enqueue(session, async () => {
			const parent = await this.parentOf(track);
			if (parent === "unknown") return;
			if (parent !== null) return this.childIdle(track, parent);
			const engine = await this.engine();
			const ref = this.ref(track);
			const ended = turn ?? (await this.turnFromMessages(track));
			await engine.turnEndedIfRunning(ref, {
				outcome: outcomeOf(ended?.last ?? null),
				...(ended ? { spend: ended.spend } : {}),
			});
			if (!track.todosKnown) await this.readTodos(track, engine);
			await this.decide(track, lastText);
		});
	}

	private async childIdle(child: SessionTrack, parent: string): Promise<void> {
		const engine = await this.engine();
		await engine.onIdle(this.ref(child), {});
		const parentTrack = this.sessions.get(parent);
		if (!parentTrack.runningChildren.delete(child.id)) return;
		const count = parentTrack.runningChildren.size;
		this.enqueue(parent, async () => {
			await (await this.engine()).backgroundChanged(this.ref(parentTrack), count);
			if (count === 0 && parentTrack.status === "idle" && !this.deliveries.counting(parent)) {
				await this.decide(parentTrack, parentTrack.lastAssistantText());
			}
		});
	}

	private onError(event: BusEvent): void {
		const session = sessionOf(event);
		const error = readError(event.properties.error);
		if (!session || !error) return;
		const kind = errorKindOf(error);
		if (kind === "abort") {
			this.deliveries.cancel(session, "the user aborted");
			this.rootEvent(session, { type: "abort" });
		} else if (kind === "context-overflow") {
			this.rootEvent(session, { type: "context-overflow", ...this.spendSoFar(session) });
		} else if (kind === "api") {
			this.rootEvent(session, { type: "api-error", message: error.message || error.name, ...this.spendSoFar(session) });
		} else {
			const track = this.sessions.get(session);
			this.enqueue(session, () =>
				this.recordError(this.ref(track), "OpenCode reported an error", new Error(`${error.name}: ${error.message}`)),
			);
		}
	}

	/** What the failing turn's model calls cost so far: it counts against the budget too. */
	private spendSoFar(session: string): { spend?: TokenSpend } {
		const summary = this.sessions.get(session).turnSummary();
		return summary ? { spend: summary.spend } : {};
	}

	private onDeleted(event: BusEvent): void {
		const info = readSessionInfo(event.properties.info);
		if (!info) return;
		this.deliveries.cancel(info.id, "the session was deleted");
		this.clearRetry(info.id);
		const track = this.sessions.get(info.id);
		track.parentId = info.parentId;
		if (info.parentId === null) this.rootEvent(info.id, { type: "deleted" });
		for (const other of this.sessions.all()) other.runningChildren.delete(info.id);
		this.enqueue(info.id, async () => this.sessions.delete(info.id));
	}

	private onMessage(event: BusEvent): void {
		const info = readMessageInfo(event.properties.info);
		if (!info) return;
		const track = this.sessions.get(info.sessionId);
		if (info.role === "assistant") {
			const fresh = track.see(info.id);
			track.noteAssistant(info);
			if (fresh) this.deliveries.cancel(info.sessionId, "the agent started answering");
			return;
		}
		if (!track.see(info.id)) return;
		// A user message chat.message never announced: OpenCode's own (overflow replay, compaction).
		this.deliveries.cancel(info.sessionId, "a new message arrived");
		track.startTurn();
		this.startTurn(track, "system");
	}

	private onPart(event: BusEvent): void {
		const part = readPart(event.properties.part);
		if (!part?.sessionId) return;
		const track = this.sessions.get(part.sessionId);
		if (part.type === "text" && part.text !== null && !part.synthetic && track.isAssistantMessage(part.messageId)) {
			track.noteText(part.messageId, part.id, part.text);
			return;
		}
		if (
			part.type === "tool" &&
			part.tool !== null &&
			FILE_TOOLS.has(part.tool) &&
			part.toolStatus === "completed" &&
			part.callId !== null &&
			track.countTool(part.callId)
		) {
			this.rootJob(track, async (engine, ref) => engine.activity(ref));
		}
	}

	private onTodos(event: BusEvent): void {
		const session = sessionOf(event);
		if (!session) return;
		const track = this.sessions.get(session);
		track.todosKnown = true;
		const { todos, warnings } = normalizeOpenCodeTodos(event.properties.todos);
		this.rootJob(track, async (engine, ref) => {
			await engine.todosChanged(ref, todos);
			if (warnings.length > 0) {
				await engine.recordError(ref, "reading the agent's list from todo.updated", new Error(warnings.join("; ")));
			}
		});
	}

	private onAsk(event: BusEvent): void {
		const ask = readAsk(event);
		const session = sessionOf(event);
		if (!ask || !session) return;
		const track = this.sessions.get(session);
		track.pending.set(ask.id, ask);
		this.deliveries.cancel(session, `a ${ask.kind} is waiting for the user`);
		const pending = track.pendingInput();
		this.rootJob(track, async (engine, ref) => engine.pendingInputChanged(ref, pending));
	}

	private onAnswer(event: BusEvent): void {
		const id = answeredAsk(event);
		const session = sessionOf(event);
		if (!id || !session) return;
		const track = this.sessions.get(session);
		if (!track.pending.delete(id)) return;
		const pending = track.pendingInput();
		this.rootJob(track, async (engine, ref) => engine.pendingInputChanged(ref, pending));
	}

	// --- prompts and commands ---------------------------------------------

	private async onPrompt(
		input: { sessionID: string; agent?: string; model?: unknown },
		output: { message: unknown; parts: unknown[] },
	): Promise<void> {
		try {
			const message = readMessageInfo(output.message);
			const session = input.sessionID;
			if (message?.role !== "user" || !this.firstSight(`prompt:${message.id}`)) return;
			const track = this.sessions.get(session);
			track.see(message.id);
			const origin = originOf(output.parts.map(readPart).filter((part) => part !== null));
			if (origin.kind === "answer") return;
			track.status = "busy";
			this.clearRetry(session);
			track.startTurn();
			if (origin.kind === "nudge") {
				const delivered = this.deliveries.confirm(origin.key);
				await this.waitBriefly(
					this.enqueue(session, async () => {
						if (await this.isChild(track)) return;
						const engine = await this.engine();
						if (delivered) await engine.delivered(this.ref(track), origin.key);
						else await engine.turnStarted(this.ref(track), "continuation");
					}),
				);
				return;
			}
			if (origin.kind === "user") {
				track.route = {
					agent: message.agent ?? input.agent ?? null,
					model: message.model ?? null,
				};
				this.deliveries.cancel(session, "the user wrote");
			} else {
				this.deliveries.cancel(session, "a new message arrived");
			}
			await this.waitBriefly(this.startTurn(track, origin.kind));
		} catch (error) {
			await this.recordError(null, "handling chat.message", error);
		}
	}

	private async onCommand(input: { command: string; sessionID: string; arguments: string }): Promise<void> {
		if (input.command !== COMMAND_NAME) return;
		const session = input.sessionID;
		const track = this.sessions.get(session);
		let text: string;
		try {
			const engine = await this.engine();
			const result = await runSubcommand(input.arguments ?? "", {
				engine,
				store: engine.store,
				clock: this.clock,
				ref: this.ref(track),
			});
			if (result.effect === "stopped") {
				this.deliveries.cancel(session, "/boulder stop");
				this.clearRetry(session);
			}
			if (result.effect === "resumed" && track.status === "idle") {
				this.enqueue(session, async () => {
					if (!(await this.isChild(track))) await this.decide(track, track.lastAssistantText());
				});
			}
			text = result.text;
		} catch (error) {
			await this.recordError(this.ref(track), "answering /boulder", error);
			text = ANSWER.failed(messageOf(error));
		}
		const route = await this.routeOf(track).catch(() => ({ agent: null, model: null }));
		const shown = await Promise.allSettled([
			this.api.toast(text, "info", 8_000),
			this.api.appendNoReply(session, [answerPart(text)], route),
		]);
		for (const result of shown) {
			if (result.status === "rejected")
				await this.recordError(this.ref(track), "showing /boulder's answer", result.reason);
		}
		throw new CommandAnswered();
	}

	// --- deciding ---------------------------------------------------------

	/** Asks the engine what to do now that the session is idle, and does it. */
	private async decide(track: SessionTrack, lastText: string | null): Promise<void> {
		if (this.closed) return;
		const ref = this.ref(track);
		let engine: Engine;
		try {
			engine = await this.workspace.deciding();
		} catch (error) {
			await this.recordError(ref, "reading boulder's config", error);
			void this.api.toast(TEXT.configProblem(messageOf(error)), "error").catch(() => undefined);
			return;
		}
		const result = await engine.onIdle(ref, {
			lastAssistantText: lastText,
			backgroundTasks: track.runningChildren.size,
			pendingInput: track.pendingInput(),
		});
		this.act(track, ref, result, engine.config);
	}

	private act(track: SessionTrack, ref: SessionRef, result: IdleResult, config: Config): void {
		switch (result.kind) {
			case "inject":
				if (result.key === null || result.text === null) {
					void this.recordError(ref, "delivering", new Error("the engine chose to inject without a key or a text"));
					return;
				}
				this.deliveries.begin({
					ref,
					key: result.key,
					text: result.text,
					countdownMs: config.countdownMs,
					open: result.figures.open,
					route: () => this.routeOf(track),
				});
				return;
			case "complete":
				if (result.text) this.notify(ref, TEXT.complete(result.text), "success");
				return;
			case "skip":
				if (NOTICED_SKIPS.has(result.reason)) this.notify(ref, TEXT.limit(result.detail), "warning");
				if (result.reason === "backoff" && result.retryAt !== null) this.scheduleRetry(track, result.retryAt);
				return;
			case "verify":
				return;
		}
	}

	/**
	 * A nudge that was not delivered goes back to the engine, which backs off.
	 * When OpenCode failed it (rather than something in the session cancelling
	 * it, which brings its own decision) and the session is still idle, it is
	 * decided again at once, so the backoff's own retry time, not a blind
	 * retry, says when to try again.
	 */
	private deliveryFailed(ref: SessionRef, key: string, reason: string, cancelled: boolean): Promise<void> {
		return this.enqueue(ref.sessionId, async () => {
			await (await this.engine()).deliveryFailed(ref, key, reason);
			const track = this.sessions.get(ref.sessionId);
			if (!cancelled && track.status === "idle" && !this.deliveries.counting(track.id) && !track.isChild) {
				await this.decide(track, track.lastAssistantText());
			}
		});
	}

	/** One re-decide at `at`, for a backoff that ends then (replaces an earlier one). */
	private scheduleRetry(track: SessionTrack, at: number): void {
		this.clearRetry(track.id);
		const timer = setTimeout(
			() => {
				this.retries.delete(track.id);
				if (track.status !== "idle" || this.deliveries.counting(track.id)) return;
				this.enqueue(track.id, () => this.decide(track, track.lastAssistantText()));
			},
			Math.max(0, at - this.clock.now()) + 50,
		);
		unref(timer);
		this.retries.set(track.id, timer);
	}

	private clearRetry(session: string): void {
		const timer = this.retries.get(session);
		if (timer) clearTimeout(timer);
		this.retries.delete(session);
	}

	// --- helpers ----------------------------------------------------------

	private startTurn(track: SessionTrack, provenance: Provenance): Promise<void> {
		return this.rootJob(track, async (engine, ref) => engine.turnStarted(ref, provenance));
	}

	private rootEvent(session: string, event: SessionEvent): void {
		this.rootJob(this.sessions.get(session), async (engine, ref) => engine.sessionEvent(ref, event));
	}

	/** Queues an engine call for a root session; child sessions own no state. */
	private rootJob(track: SessionTrack, job: (engine: Engine, ref: SessionRef) => Promise<void>): Promise<void> {
		return this.enqueue(track.id, async () => {
			if (await this.isChild(track)) return;
			await job(await this.engine(), this.ref(track));
		});
	}

	/**
	 * Runs jobs of one session one after the other, in the order their events
	 * came. A failing job is recorded; a job that takes too long stops holding
	 * up the next. The returned promise never rejects.
	 */
	private enqueue(session: string, job: () => Promise<void>): Promise<void> {
		const previous = this.queues.get(session) ?? Promise.resolve();
		const run = previous.then(async () => {
			try {
				await withTimeout(job(), JOB_LIMIT_MS, "handling an OpenCode event");
			} catch (error) {
				await this.recordError(this.ref(this.sessions.get(session)), "handling an OpenCode event", error);
			}
		});
		this.queues.set(session, run);
		void run.then(() => {
			if (this.queues.get(session) === run) this.queues.delete(session);
		});
		return run;
	}

	private async waitBriefly(work: Promise<void>): Promise<void> {
		await withTimeout(work, HOOK_WAIT_MS, "recording the prompt").catch((error: unknown) =>
			this.recordError(null, "recording the prompt", error),
		);
	}

	private ref(track: SessionTrack): SessionRef {
		return { harness: HARNESS, sessionId: track.id, subagent: track.isChild, agent: track.lastAgent() };
	}

	private async engine(): Promise<Engine> {
		return this.workspace.bookkeeping();
	}

	/** The session's parent (null for a root), read from OpenCode when no event said; "unknown" when that failed. */
	private async parentOf(track: SessionTrack): Promise<string | null | "unknown"> {
		if (track.parentId !== undefined) return track.parentId;
		try {
			track.parentId = await this.api.parentOf(track.id);
			return track.parentId;
		} catch (error) {
			await this.recordError(this.ref(track), "reading whether the session is a subagent's", error);
			return "unknown";
		}
	}

	/** Fails closed: a session whose parent cannot be read is treated as a child. */
	private async isChild(track: SessionTrack): Promise<boolean> {
		return (await this.parentOf(track)) !== null;
	}

	private withParent(track: SessionTrack, then: (parent: string | null) => void): void {
		if (track.parentId !== undefined) {
			then(track.parentId);
			return;
		}
		void this.parentOf(track).then((parent) => {
			if (parent !== "unknown") then(parent);
		});
	}

	/** The agent and model of the last real user message, from the events or else from OpenCode's messages. */
	private async routeOf(track: SessionTrack): Promise<PromptRoute> {
		if (track.route) return track.route;
		const messages = await this.api.messages(track.id, MESSAGES_READ);
		for (const message of [...messages].reverse()) {
			const info = readMessageInfo(message.info);
			if (info?.role !== "user") continue;
			const parts = (Array.isArray(message.parts) ? message.parts : []).map(readPart).filter((p) => p !== null);
			if (originOf(parts).kind !== "user") continue;
			track.route = { agent: info.agent, model: info.model };
			return track.route;
		}
		return { agent: null, model: null };
	}

	/** How the turn ended, from OpenCode's stored messages, when this process did not see its events. */
	private async turnFromMessages(track: SessionTrack): Promise<ReturnType<SessionTrack["turnSummary"]>> {
		try {
			const messages = await this.api.messages(track.id, MESSAGES_READ);
			for (const message of [...messages].reverse()) {
				const info = readMessageInfo(message.info);
				if (info?.role === "assistant") return { spend: info.spend, last: info };
				if (info?.role === "user") return null;
			}
			return null;
		} catch (error) {
			await this.recordError(this.ref(track), "reading how the turn ended", error);
			return null;
		}
	}

	private async readTodos(track: SessionTrack, engine: Engine): Promise<void> {
		try {
			const list = await this.api.todos(track.id);
			track.todosKnown = true;
			const { todos, warnings } = normalizeOpenCodeTodos(list);
			await engine.todosChanged(this.ref(track), todos);
			if (warnings.length > 0) {
				await engine.recordError(this.ref(track), "reading the agent's list", new Error(warnings.join("; ")));
			}
		} catch (error) {
			await this.recordError(this.ref(track), "reading the agent's list from OpenCode", error);
		}
	}

	private notify(ref: SessionRef, text: string, variant: "success" | "warning"): void {
		this.api.toast(text, variant, 8_000).catch((error: unknown) => this.recordError(ref, "showing a toast", error));
	}

	private firstSight(id: string): boolean {
		if (this.seen.has(id)) return false;
		this.seen.add(id);
		if (this.seen.size > SEEN_EVENTS) {
			const oldest = this.seen.values().next().value;
			if (oldest !== undefined) this.seen.delete(oldest);
		}
		return true;
	}

	private async guard(ref: SessionRef | null, where: string, work: () => Promise<void>): Promise<void> {
		try {
			await work();
		} catch (error) {
			await this.recordError(ref, where, error);
		}
	}

	/** Records an error in the decision log; never throws (when even that fails, it goes to stderr). */
	async recordError(ref: SessionRef | null, where: string, error: unknown): Promise<void> {
		try {
			const engine = await this.engine();
			await engine.recordError(ref, where, error);
		} catch (failed) {
			process.stderr.write(
				`boulder: ${where}: ${messageOf(error)} (and the decision log failed: ${messageOf(failed)})\n`,
			);
		}
	}
}
