/**
 * OpenCode's hooks, mapped onto engine calls. One hub per project folder and
 * process: every plugin instance of that folder forwards its hooks here (see
 * `shared.ts`), and the hub handles each event once (events carry an id;
 * prompts are known by their message id, tool calls by their call id).
 *
 * Thin on purpose: every decision is the engine's. The hub only says which
 * engine call an event means. Its parts live beside it: what it keeps
 * between events (`sessions.ts`), the per-session job queue
 * (`keyed-queue.ts`), what it reads back from OpenCode when events were
 * missed (`backfill.ts`), asking the engine at idle and carrying out its
 * answer (`idle-decision.ts`, with `delivery.ts` and `retries.ts`), and
 * `/boulder` (`command-hook.ts`). Every wait goes through one `Scheduler`.
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
 * throws on purpose after answering `/boulder` (see `slash-command.ts`), and
 * `tool.execute.before`, which throws an orchestrator's refused file change
 * (see `tool-hooks.ts`).
 * Everything else is caught, recorded in the decision log, and dropped.
 */

import type { Clock } from "../../core/clock.js";
import { harnessSafe } from "../../core/control-text.js";
import type { Provenance, TokenSpend } from "../../core/turns.js";
import { systemClock } from "../../engine/clock.js";
import type { Engine, ResumeHow, SessionEvent, SessionRef } from "../../engine/engine.js";
import type { WorkspaceSource } from "../shared/workspace.js";
import { type OpenCodeApi, withTimeout } from "./api.js";
import { Backfill } from "./backfill.js";
import { BoundedSet } from "./bounded.js";
import { type CommandInput, type CommandSession, commandHook } from "./command-hook.js";
import {
	answeredAsk,
	type BusEvent,
	errorKindOf,
	FILE_TOOLS,
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
import { OPENCODE_HOST, type PluginHost } from "./host.js";
import { IdleDecisions } from "./idle-decision.js";
import { KeyedQueue } from "./keyed-queue.js";
import { ResumeNotes, resumePart } from "./resume-context.js";
import { type Scheduler, systemScheduler } from "./scheduler.js";
import { SessionTable, type SessionTrack } from "./sessions.js";
import { declareCommand } from "./slash-command.js";
import { normalizeOpenCodeTodos } from "./todos.js";
import { ToolHooks, type ToolInput } from "./tool-hooks.js";

/** Most event and prompt ids remembered to drop duplicates (the same event reaches every instance). */
const SEEN_EVENTS = 5_000;

/** How long a hook OpenCode waits on may take before it lets OpenCode go on (the work continues behind). */
const HOOK_WAIT_MS = 5_000;

/** A job on a session's queue that takes longer than this (a stuck lock; verify commands can take minutes) no longer holds up the next. */
const JOB_LIMIT_MS = 10 * 60 * 1000;

export interface HubOptions {
	directory: string;
	/** The harness the plugin runs in (OpenCode unless told): its name files the sessions, its title words the log. */
	host?: PluginHost;
	api: OpenCodeApi;
	workspace: WorkspaceSource;
	clock?: Clock;
	/** Every wait: the countdown, the wait for a nudge to appear, backoff retries, deadlines. */
	scheduler?: Scheduler;
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
	"tool.execute.before"(input: ToolInput, output?: { args?: unknown }): Promise<void>;
	"tool.execute.after"(input: ToolInput, output: { output?: unknown; metadata?: unknown }): Promise<void>;
	"command.execute.before"(input: CommandInput): Promise<void>;
	"experimental.session.compacting"(input: { sessionID: string }, output: { context: string[] }): Promise<void>;
}

export class Hub {
	readonly directory: string;
	private readonly api: OpenCodeApi;
	private readonly workspace: WorkspaceSource;
	private readonly clock: Clock;
	private readonly scheduler: Scheduler;
	private readonly host: PluginHost;
	private readonly sessions: SessionTable;
	private readonly backfill: Backfill;
	private readonly queue: KeyedQueue;
	private readonly decisions: IdleDecisions;
	private readonly seen = new BoundedSet<string>(SEEN_EVENTS);
	private readonly onCommand: (input: CommandInput) => Promise<void>;
	private readonly tools: ToolHooks;
	private readonly resume = new ResumeNotes();
	private users = 0;
	private closed = false;

	constructor(options: HubOptions) {
		this.directory = options.directory;
		this.host = options.host ?? OPENCODE_HOST;
		this.sessions = new SessionTable(this.host.harness);
		this.api = options.api;
		this.workspace = options.workspace;
		this.clock = options.clock ?? systemClock;
		this.scheduler = options.scheduler ?? systemScheduler;
		const recordError = (ref: SessionRef | null, where: string, error: unknown) => this.recordError(ref, where, error);
		this.backfill = new Backfill(this.api, recordError);
		this.queue = new KeyedQueue({
			limitMs: JOB_LIMIT_MS,
			what: `handling an event from ${this.host.title}`,
			scheduler: this.scheduler,
			onError: (session, error) =>
				this.recordError(this.sessions.get(session).ref(), `handling an event from ${this.host.title}`, error),
		});
		this.decisions = new IdleDecisions({
			api: this.api,
			workspace: this.workspace,
			clock: this.clock,
			scheduler: this.scheduler,
			confirmMs: options.confirmMs ?? 20_000,
			sessions: this.sessions,
			queue: this.queue,
			backfill: this.backfill,
			recordError,
		});
		this.tools = new ToolHooks({
			// The policy reads the config: a broken one lets every tool run (recorded).
			engine: () => this.workspace.deciding(),
			rootRef: async (session) => {
				const track = this.sessions.get(session);
				return (await this.isChild(track)) ? null : track.ref();
			},
			scheduler: this.scheduler,
			waitMs: HOOK_WAIT_MS,
			recordError,
		});
		this.onCommand = commandHook({
			api: this.api,
			clock: this.clock,
			session: (id) => this.commandSession(this.sessions.get(id)),
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
			// A call without its argument is dropped like any unreadable event, not a TypeError in OpenCode's bus.
			event: async (input) => this.onEvent((input as { event?: unknown } | null | undefined)?.event),
			config: async (config) => this.guard(null, "declaring /boulder", async () => declareCommand(config)),
			"chat.message": async (input, output) => this.onPrompt(input, output),
			"tool.execute.before": async (input, output) => {
				await this.guard(null, "handling tool.execute.before", async () => {
					this.decisions.cancelCountdown(input.sessionID, `a tool (${input.tool}) ran`);
				});
				// A refusal is thrown on purpose: OpenCode gives the model the error as the tool's result.
				const refusal = await this.tools.before(input, output?.args);
				if (refusal !== null) throw new Error(harnessSafe(refusal));
			},
			"tool.execute.after": async (input, output) =>
				this.guard(null, "handling tool.execute.after", async () => this.tools.after(input, output)),
			"command.execute.before": async (input) => this.onCommand(input),
			"experimental.session.compacting": async (input, output) => this.onCompacting(input.sessionID, output),
		};
	}

	/** Resolves once every queued job has run (for tests, and to wait before shutting down). */
	async settled(): Promise<void> {
		await this.queue.settled();
	}

	/** Whether jobs are queued or running (tests wait until none are). */
	get busy(): boolean {
		return this.queue.size > 0;
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.decisions.close();
	}

	// --- events -----------------------------------------------------------

	private onEvent(raw: unknown): void {
		try {
			const event = readEvent(raw);
			if (!event || (event.id !== null && !this.seen.add(`event:${event.id}`))) return;
			this.dispatch(event);
		} catch (error) {
			void this.recordError(null, `reading an event from ${this.host.title}`, error);
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
				if (event.type === "session.created") this.resume.created(info.id);
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
		this.decisions.cancelCountdown(session, "the session became busy");
		this.decisions.clearRetry(session);
		this.withParent(track, (parent) => {
			if (parent === null) return;
			const parentTrack = this.sessions.get(parent);
			if (parentTrack.runningChildren.has(session)) return;
			parentTrack.runningChildren.set(session, { id: session, agent: track.lastAgent(), startedAt: this.clock.now() });
			const count = parentTrack.runningChildren.size;
			const tasks = [...parentTrack.runningChildren.values()];
			this.enqueue(parent, async () => (await this.engine()).backgroundChanged(parentTrack.ref(), count, tasks));
		});
	}

	private onIdle(session: string): void {
		const track = this.sessions.get(session);
		if (track.status === "idle") return;
		track.status = "idle";
		const turn = track.turnSummary();
		const lastText = track.lastAssistantText();
		this.enqueue(session, async () => {
			const parent = await this.backfill.parentOf(track);
			if (parent === "unknown") return;
			if (parent !== null) return this.childIdle(track, parent);
			const engine = await this.engine();
			const ref = track.ref();
			const ended = turn ?? (await this.backfill.turnEnd(track));
			await engine.turnEndedIfRunning(ref, {
				outcome: outcomeOf(ended?.last ?? null),
				...(ended ? { spend: ended.spend } : {}),
			});
			if (!track.todosKnown) await this.backfill.todos(track, engine);
			await this.decisions.decide(track, lastText);
		});
	}

	private async childIdle(child: SessionTrack, parent: string): Promise<void> {
		const engine = await this.engine();
		await engine.onIdle(child.ref(), {});
		const parentTrack = this.sessions.get(parent);
		if (!parentTrack.runningChildren.delete(child.id)) return;
		const count = parentTrack.runningChildren.size;
		const tasks = [...parentTrack.runningChildren.values()];
		this.enqueue(parent, async () => {
			await (await this.engine()).backgroundChanged(parentTrack.ref(), count, tasks);
			if (count === 0 && parentTrack.status === "idle" && !this.decisions.counting(parent)) {
				await this.decisions.decide(parentTrack, parentTrack.lastAssistantText());
			}
		});
	}

	private onError(event: BusEvent): void {
		const session = sessionOf(event);
		const error = readError(event.properties.error);
		if (!session || !error) return;
		const kind = errorKindOf(error);
		if (kind === "abort") {
			this.decisions.cancelCountdown(session, "the user aborted");
			this.rootEvent(session, { type: "abort" });
		} else if (kind === "context-overflow") {
			this.rootEvent(session, { type: "context-overflow", ...this.spendSoFar(session) });
		} else if (kind === "api") {
			this.rootEvent(session, { type: "api-error", message: error.message || error.name, ...this.spendSoFar(session) });
		} else {
			const track = this.sessions.get(session);
			this.enqueue(session, () =>
				this.recordError(
					track.ref(),
					`${this.host.title} reported an error`,
					new Error(`${error.name}: ${error.message}`),
				),
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
		this.decisions.cancelCountdown(info.id, "the session was deleted");
		this.decisions.clearRetry(info.id);
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
			if (fresh) this.decisions.cancelCountdown(info.sessionId, "the agent started answering");
			return;
		}
		if (!track.see(info.id)) return;
		// A user message chat.message never announced: OpenCode's own (overflow replay, compaction).
		this.decisions.cancelCountdown(info.sessionId, "a new message arrived");
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
		this.decisions.cancelCountdown(session, `a ${ask.kind} is waiting for the user`);
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

	// --- prompts ----------------------------------------------------------

	private async onPrompt(
		input: { sessionID: string; agent?: string; model?: unknown },
		output: { message: unknown; parts: unknown[] },
	): Promise<void> {
		try {
			const message = readMessageInfo(output.message);
			const session = input.sessionID;
			if (message?.role !== "user" || !this.seen.add(`prompt:${message.id}`)) return;
			const track = this.sessions.get(session);
			track.see(message.id);
			const origin = originOf(output.parts.map(readPart).filter((part) => part !== null));
			if (origin.kind === "answer") return;
			track.status = "busy";
			this.decisions.clearRetry(session);
			track.startTurn();
			// Before the turn starts: the context describes where the work was left, not the user's new turn.
			// A nudge names the open items itself, and counts as the session's first prompt all the same.
			const first = this.resume.firstPrompt(session);
			if (first && origin.kind !== "nudge") await this.addResumeContext(track, message, output);
			if (origin.kind === "nudge") {
				const delivered = this.decisions.confirm(origin.key);
				await this.waitBriefly(
					this.enqueue(session, async () => {
						if (await this.isChild(track)) return;
						const engine = await this.engine();
						if (delivered) await engine.delivered(track.ref(), origin.key);
						else await engine.turnStarted(track.ref(), "continuation");
					}),
				);
				return;
			}
			if (origin.kind === "user") {
				track.route = {
					agent: message.agent ?? input.agent ?? null,
					model: message.model ?? null,
				};
				this.decisions.cancelCountdown(session, "the user wrote");
			} else {
				this.decisions.cancelCountdown(session, "a new message arrived");
			}
			await this.waitBriefly(this.startTurn(track, origin.kind));
		} catch (error) {
			await this.recordError(null, "handling chat.message", error);
		}
	}

	/** The first prompt after a restart of a session bound to unfinished work carries its resume context. */
	private async addResumeContext(
		track: SessionTrack,
		message: { id: string; sessionId: string },
		output: { parts: unknown[] },
	): Promise<void> {
		const text = await this.resumeText(track, "restart");
		if (text !== null) output.parts.push(resumePart(message, output.parts, harnessSafe(text)));
	}

	/** A compaction's summary keeps where the unfinished work stands: the resume context goes into its prompt. */
	private async onCompacting(session: string, output: { context: string[] }): Promise<void> {
		const text = await this.resumeText(this.sessions.get(session), "compact");
		if (text !== null && Array.isArray(output.context)) output.context.push(text);
	}

	/**
	 * The engine's resume context for a root session, if it comes while
	 * OpenCode waits on the hook (a late answer is dropped: OpenCode has gone
	 * on). The deciding engine, since the user's config (switched off,
	 * skip-listed agents) says whether to speak.
	 */
	private async resumeText(track: SessionTrack, how: ResumeHow): Promise<string | null> {
		const found = { text: null as string | null, late: false };
		await this.waitBriefly(
			this.enqueue(track.id, async () => {
				if (found.late || (await this.isChild(track))) return;
				const text = await (await this.workspace.deciding()).resumeContext(track.ref(), how);
				if (!found.late) found.text = text;
			}),
		);
		found.late = true;
		return found.text;
	}

	/** What `/boulder` may do to a session: stop its countdown and retry, or decide it again. */
	private commandSession(track: SessionTrack): CommandSession {
		return {
			ref: () => track.ref(),
			engine: () => this.engine(),
			route: () => this.backfill.route(track),
			stopped: () => {
				this.decisions.cancelCountdown(track.id, "/boulder stop");
				this.decisions.clearRetry(track.id);
			},
			resumed: () => {
				if (track.status !== "idle") return;
				this.enqueue(track.id, async () => {
					if (!(await this.isChild(track))) await this.decisions.decide(track, track.lastAssistantText());
				});
			},
			recordError: (where, error) => this.recordError(track.ref(), where, error),
		};
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
			await job(await this.engine(), track.ref());
		});
	}

	private enqueue(session: string, job: () => Promise<void>): Promise<void> {
		return this.queue.enqueue(session, job);
	}

	private async waitBriefly(work: Promise<void>): Promise<void> {
		await withTimeout(work, HOOK_WAIT_MS, "recording the prompt", { scheduler: this.scheduler }).catch(
			(error: unknown) => this.recordError(null, "recording the prompt", error),
		);
	}

	private async engine(): Promise<Engine> {
		return this.workspace.bookkeeping();
	}

	/** Fails closed: a session whose parent cannot be read is treated as a child. */
	private async isChild(track: SessionTrack): Promise<boolean> {
		return (await this.backfill.parentOf(track)) !== null;
	}

	private withParent(track: SessionTrack, then: (parent: string | null) => void): void {
		if (track.parentId !== undefined) {
			then(track.parentId);
			return;
		}
		void this.backfill.parentOf(track).then((parent) => {
			if (parent !== "unknown") then(parent);
		});
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
