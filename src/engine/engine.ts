/**
 * The one API adapters call. It wires the store, the pure policy and the clock,
 * and is the only place that sequences them: every change is a locked
 * read-modify-write of the scope's state, every decision is persisted (with
 * its idempotency key) before the adapter delivers it, and every decision and
 * notable event is one line of the decision log.
 *
 * Contract: methods throw only `BoulderError`s or I/O errors; adapters catch
 * everything and let the agent stop.
 */
import path from "node:path";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import { type DecisionRecord, eventRecord } from "../core/decision-record.js";
import type { EventReason } from "../core/event-reasons.js";
import type { FileChange, ToolVerdict } from "../core/orchestrate.js";
import { type Decision, decide, type PendingInput } from "../core/policy.js";
import type { ResumeHow } from "../core/resume.js";
import type { Todo } from "../core/todos.js";
import {
	type BackgroundTask,
	CONTINUATION_UNREACHED,
	type ContinuationState,
	emptyContinuationState,
	isUnreachedContinuation,
	onActivity,
	onContinuationUnreached,
	onDelivered,
	onDeliveryFailed,
	onRestart,
	onTurnEnd,
	onTurnStart,
	onUserAbort,
	onVerified,
	type Provenance,
	type TokenSpend,
	type TurnEnd,
} from "../core/turns.js";
import {
	AT_DEADLINE,
	type BackgroundWait,
	backgroundWait,
	type NamedTask,
	timedFromFirstSight,
} from "../core/watchdog.js";
import { todosView } from "../core/work-view.js";
import { type Read, type Store, systemClock } from "../state/store.js";
import type { Work } from "../state/works.js";
import type { IdleFacts, IdleResult, PlanSource, SessionEvent, SessionRef } from "./engine-types.js";
import { type FileChangeAnswer, fileChangeAsked } from "./hygiene-ops.js";
import { checkToolChange, type SubagentResult, subagentReturned } from "./orchestrate-ops.js";
import { readSessionSwitch, readSessionTodos, readWhy, type SessionSwitch, type WhyQuery } from "./read-models.js";
import { recordError, sessionScope } from "./record-error.js";
import { resumeContextFor } from "./resume-ops.js";
import { type Runner, shellRunner } from "./runner.js";
import { readWorktreeStatus, type WorktreeStatusView } from "./status.js";
import { completeWork, runVerify, type VerifyOutcome } from "./verify-work.js";
import { readWorkContext, type WorkContext } from "./work-context.js";
import { setStopped } from "./works-ops.js";

export type { FileChange, ToolVerdict } from "../core/orchestrate.js";
export type { ResumeHow } from "../core/resume.js";
export type { IdleFacts, IdleResult, PlanSource, SessionEvent, SessionRef } from "./engine-types.js";
export type { FileChangeAnswer } from "./hygiene-ops.js";
export type { SubagentResult } from "./orchestrate-ops.js";

export interface EngineOptions {
	store: Store;
	config: Config;
	clock?: Clock;
	runner?: Runner;
	plans: PlanSource;
}

export class Engine {
	readonly store: Store;
	readonly config: Config;
	private readonly clock: Clock;
	private readonly runner: Runner;
	private readonly plans: PlanSource;

	constructor(options: EngineOptions) {
		this.store = options.store;
		this.config = options.config;
		this.clock = options.clock ?? systemClock;
		this.runner = options.runner ?? shellRunner;
		this.plans = options.plans;
	}

	scopeOf(ref: SessionRef): string | null {
		return sessionScope(ref);
	}

	async turnStarted(ref: SessionRef, provenance: Provenance): Promise<void> {
		await this.change(ref, (state, now) => onTurnStart(observe(state, ref), provenance, now));
		if (provenance === "user") await this.event(ref, "user-turn", "the user wrote; a new episode begins");
	}

	async turnEnded(ref: SessionRef, end: TurnEnd): Promise<void> {
		await this.change(ref, (state, now) => onTurnEnd(observe(state, ref), end, now));
	}

	/**
	 * Like `turnEnded`, but only when a turn is running; returns whether one
	 * was. For harnesses whose idle event can arrive twice for one turn (two
	 * hook registrations, a retried hook): the second must not invent a turn.
	 * A scope that has never seen a turn still records one, as `turnEnded` does.
	 */
	async turnEndedIfRunning(ref: SessionRef, end: TurnEnd): Promise<boolean> {
		const scope = this.scopeOf(ref);
		if (scope === null) return false;
		return this.store.updateScope(scope, (current) => {
			const now = this.clock.now();
			const state = stateOf(current, now);
			if (state.turn && state.turn.outcome !== null) return { result: false, next: null };
			return { result: true, next: onTurnEnd(observe(state, ref), end, now) };
		});
	}

	async activity(ref: SessionRef, amount = 1): Promise<void> {
		await this.change(ref, (state) => onActivity(state, amount));
	}

	async todosChanged(ref: SessionRef, todos: Todo[]): Promise<void> {
		await this.change(ref, (state) => ({ ...observe(state, ref), todos }));
	}

	/**
	 * Changes the agent's list from what it was, under the scope's lock: for
	 * harnesses that report single edits (Claude Code's Task tools), so two
	 * events handled at once by two processes cannot lose each other's change.
	 */
	async todosUpdated(ref: SessionRef, update: (current: readonly Todo[]) => Todo[]): Promise<void> {
		await this.change(ref, (state) => ({ ...observe(state, ref), todos: update(state.todos ?? []) }));
	}

	/**
	 * A background task the session knew by name has ended (Claude Code's
	 * SubagentStop names its subagent): it no longer runs, and a watcher
	 * waiting on it ends. Nothing changes for a task the session did not list.
	 */
	async backgroundTaskEnded(ref: SessionRef, id: string): Promise<void> {
		const scope = this.scopeOf(ref);
		if (scope === null) return;
		await this.store.updateScope(scope, (current) => {
			if (current.kind !== "ok") return { result: undefined, next: null };
			const state = current.value;
			const background = state.observed.background ?? [];
			if (!background.some((task) => task.id === id)) return { result: undefined, next: null };
			const observed = {
				...state.observed,
				background: background.filter((task) => task.id !== id),
				backgroundTasks: Math.max(0, state.observed.backgroundTasks - 1),
			};
			return { result: undefined, next: { ...state, observed } };
		});
	}

	/** How many subagents or background tasks run; `tasks` names those the adapter knows by start, for the watchdog. */
	async backgroundChanged(ref: SessionRef, running: number, tasks?: readonly BackgroundTask[]): Promise<void> {
		await this.change(ref, (state) => ({
			...state,
			observed: {
				...state.observed,
				backgroundTasks: running,
				...(tasks !== undefined ? { background: [...tasks] } : {}),
			},
		}));
	}

	async pendingInputChanged(ref: SessionRef, input: PendingInput | null): Promise<void> {
		await this.change(ref, (state) => ({ ...state, observed: { ...state.observed, pendingInput: input } }));
	}

	async sessionEvent(ref: SessionRef, event: SessionEvent): Promise<void> {
		const now = this.clock.now();
		switch (event.type) {
			case "abort":
			case "interrupt":
				await this.change(ref, (state) => onUserAbort(state, event.type, now));
				await this.event(
					ref,
					"user-aborted",
					event.type === "interrupt" ? "the user interrupted the agent" : "the user aborted the turn",
				);
				return;
			case "api-error":
				await this.change(ref, (state) => onTurnEnd(state, withSpend("error", event.spend), now));
				await this.event(ref, "api-error", `the model's API failed${event.message ? `: ${event.message}` : ""}`);
				return;
			case "context-overflow":
				await this.change(ref, (state) => onTurnEnd(state, withSpend("context-overflow", event.spend), now));
				await this.event(ref, "context-overflow", "the turn ran out of context");
				return;
			case "compaction":
				await this.event(ref, "compaction", "the harness compacted the conversation (not a user turn)");
				return;
			case "deleted":
				await this.event(ref, "session-deleted", "the harness deleted the session; its state is kept");
				return;
			case "restart":
				await this.change(ref, (state) => onRestart(state));
				return;
		}
	}

	/**
	 * An interrupt the adapter read after the fact (Claude Code's Esc fires no
	 * hook): recorded once, unless the state knows one as recent or the turn
	 * began after it (`at` null: time unknown). Returns whether it was new.
	 */
	async interruptSeen(ref: SessionRef, at: number | null): Promise<boolean> {
		const scope = this.scopeOf(ref);
		if (scope === null) return false;
		const fresh = await this.store.updateScope(scope, (current) => {
			const now = this.clock.now();
			const state = stateOf(current, now);
			if (!isNewInterrupt(state, at)) return { result: false, next: null };
			return { result: true, next: onUserAbort(state, "interrupt", now) };
		});
		if (fresh) await this.event(ref, "user-aborted", "the user interrupted the agent");
		return fresh;
	}

	/** Turns continuation off (`by` says who) for this session only, until turned on again. */
	async stopSession(ref: SessionRef, by: string): Promise<void> {
		await this.change(ref, (state, now) => ({ ...state, disabled: { at: now, by } }));
		await this.event(ref, "stopped", `continuation turned off for this session by ${by}`);
	}

	async goSession(ref: SessionRef, by: string): Promise<void> {
		await this.change(ref, (state) => ({ ...state, disabled: null }));
		await this.event(ref, "resumed", `continuation turned on for this session by ${by}`);
	}

	/**
	 * Turns the worktree-wide switch off or on (what `boulder stop`/`go` do
	 * without `--session`), logged like the CLI logs it. Returns whether it changed.
	 */
	async setWorktreeStopped(stopped: boolean, by: string): Promise<{ changed: boolean; warning: string | null }> {
		return setStopped(this.deps(), stopped, by);
	}

	/**
	 * Whether a file change this session is about to make is let through,
	 * warned about or refused (orchestrate mode); a warning or refusal is
	 * logged, and its `text` is what the model should read.
	 */
	async checkFileChange(ref: SessionRef, change: FileChange): Promise<ToolVerdict> {
		return checkToolChange(this.deps(), ref, change);
	}

	/**
	 * A file change this session is about to make: orchestrate mode's verdict,
	 * and, for a change that will run, todo hygiene's count, with the reminder
	 * to ride on the tool's result when it is due (logged).
	 */
	async fileChangeAsked(ref: SessionRef, change: FileChange): Promise<FileChangeAnswer> {
		return fileChangeAsked(this.deps(), ref, change);
	}

	/**
	 * One of this session's subagents returned: in orchestrate mode, its
	 * session is remembered for the plan item it worked on and the note asking
	 * the orchestrator to check that work comes back (to ride on the tool's
	 * result); otherwise null.
	 */
	async subagentReturned(ref: SessionRef, result: SubagentResult): Promise<string | null> {
		return subagentReturned(this.deps(), ref, result);
	}

	/**
	 * The session came back (resumed, compacted, restarted): the context that
	 * tells it where its unfinished work stands, logged, or null when it gets
	 * none. Not a turn, not a nudge: nothing is spent.
	 */
	async resumeContext(ref: SessionRef, how: ResumeHow): Promise<string | null> {
		return resumeContextFor(this.deps(), ref, how);
	}

	/** The decisions that explain the last moves, newest last (`why`). */
	async explain(query: WhyQuery): Promise<DecisionRecord[]> {
		return readWhy(this.store, query);
	}

	/** Whether continuation is turned off for this one session, and by whom. */
	async sessionSwitch(ref: SessionRef): Promise<SessionSwitch> {
		return readSessionSwitch(this.store, ref);
	}

	/** The agent's own list as boulder keeps it for this session (empty when none was written). */
	async sessionTodos(ref: SessionRef): Promise<Todo[]> {
		return readSessionTodos(this.store, ref);
	}

	/** The worktree's works, their progress and last decisions (`status`). */
	async worktreeStatus(): Promise<WorktreeStatusView> {
		return readWorktreeStatus(this.store, { now: this.clock.now(), plans: this.plans });
	}

	/** Reports the delivery of the nudge with this key: its turn starts now. */
	async delivered(ref: SessionRef, key: string): Promise<void> {
		await this.change(ref, (state, now) => onDelivered(state, key, now));
	}

	/** Reports a nudge that could not be delivered: it is not retried blindly; the backoff applies. */
	async deliveryFailed(ref: SessionRef, key: string, reason: string): Promise<void> {
		await this.change(ref, (state, now) => onDeliveryFailed(state, key, now));
		await this.event(ref, "delivery-failed", `the nudge could not be delivered: ${reason}`, key);
	}

	/** Records an internal error so `boulder why` can tell it; never throws. */
	async recordError(ref: SessionRef | null, where: string, error: unknown): Promise<void> {
		await recordError(this.store, this.clock, ref, where, error);
	}

	/**
	 * The decision on idle. Persisted before it is returned; an `inject` must be
	 * followed by `delivered` or `deliveryFailed`. A `verify` is run here, and
	 * the decision that follows from its result is returned instead.
	 */
	async onIdle(ref: SessionRef, facts: IdleFacts = {}): Promise<IdleResult> {
		return this.idle(ref, facts, {});
	}

	/**
	 * A turn ended and the session is idle, in one locked write: for harnesses
	 * that start a process per event (Claude Code's Stop), where every write
	 * costs start-up time. Records an interrupt the adapter saw (unless the
	 * state already knows one as recent, or the turn began after it), ends the
	 * running turn (a second report for the same turn invents none), decides,
	 * and with `deliverNow` records an inject as delivered in the same write:
	 * the adapter delivers it synchronously (Claude Code prints it), so a crash
	 * can still only lose the nudge, never send it twice.
	 */
	async turnEndedAndIdle(
		ref: SessionRef,
		end: TurnEnd,
		facts: IdleFacts & { interruptAt?: number | null },
		options: { deliverNow?: boolean } = {},
	): Promise<IdleResult> {
		let interrupted = false;
		let unreached: string | null = null;
		const seen: IdleFacts = { ...facts };
		const prepare = (state: ContinuationState, now: number): ContinuationState => {
			let next = state;
			if (facts.interruptAt !== undefined && isNewInterrupt(state, facts.interruptAt)) {
				interrupted = true;
				next = onUserAbort(next, "interrupt", now);
			}
			if (isUnreachedContinuation(next, end)) {
				unreached = next.lastDecision?.delivery === "delivered" ? (next.lastDecision.key ?? null) : null;
				seen.turnUnseen = CONTINUATION_UNREACHED;
				return onContinuationUnreached(next, now);
			}
			const running = next.turn === null || next.turn.outcome === null;
			return running ? onTurnEnd(next, end, now) : next;
		};
		const result = await this.idle(ref, seen, { prepare, deliverNow: options.deliverNow ?? false });
		if (interrupted) await this.event(ref, "user-aborted", "the user interrupted the agent");
		if (unreached !== null) {
			await this.event(
				ref,
				"delivery-failed",
				`the nudge did not reach the model: ${CONTINUATION_UNREACHED}`,
				unreached,
			);
		}
		return result;
	}

	/**
	 * Whether the session waits on background work that no event will end in
	 * time (Claude Code), and until when (`core/watchdog.ts`). Reads without
	 * the lock; a state that cannot be read is a session not waiting.
	 */
	async backgroundWait(ref: SessionRef, watched: readonly string[]): Promise<BackgroundWait> {
		const scope = this.scopeOf(ref);
		if (scope === null) return { kind: "decided", at: 0 };
		const read = await this.store.readScope(scope);
		if (read.kind === "missing") return { kind: "running" };
		if (read.kind === "unreadable") return { kind: "decided", at: 0 };
		return backgroundWait(read.value, watched, this.config.watchdog);
	}

	/**
	 * The decision at a deadline: taken again as at the end of the turn, only
	 * if the session still waits as it did at `since` (no turn, no other
	 * decision since). An inject is recorded as delivered: the watcher wakes
	 * the agent with it at once. null when the session has moved on.
	 */
	async decideAtDeadline(ref: SessionRef, since: number): Promise<IdleResult | null> {
		const only = (state: ContinuationState) => state.lastDecision?.at === since;
		return this.idle(ref, {}, { only, deliverNow: true, detail: AT_DEADLINE });
	}

	private async idle(
		ref: SessionRef,
		facts: IdleFacts,
		options: IdleOptions & { only: (state: ContinuationState) => boolean },
	): Promise<IdleResult | null>;
	private async idle(ref: SessionRef, facts: IdleFacts, options: IdleOptions): Promise<IdleResult>;
	private async idle(ref: SessionRef, facts: IdleFacts, options: IdleOptions): Promise<IdleResult | null> {
		const scope = this.scopeOf(ref);
		if (scope === null) return this.logged(ref, null, null, this.decideSubagent(ref));
		const context = await readWorkContext(this.deps(), ref);
		let result = await this.decideLocked(ref, scope, context, facts, options);
		if (result === null) return null;
		if (result.kind === "verify" && context.view && context.work) {
			await this.logged(ref, scope, context.work, result);
			const verified = await runVerify(this.deps(), context.work, context.view);
			const again = { ...options, prepare: undefined, only: undefined };
			result =
				"running" in verified
					? await this.decideLocked(
							ref,
							scope,
							{ ...context, facts: { ...context.facts, verifyRunning: { pid: verified.running.pid } } },
							facts,
							again,
						)
					: await this.decideLocked(ref, scope, context, facts, { ...again, verified });
			if (result === null) return null;
		}
		if (result.kind === "complete" && context.work) await completeWork(this.deps(), context.work.id);
		if (options.detail) result = { ...result, detail: `${result.detail}; ${options.detail}` };
		return this.logged(ref, scope, context.work, result);
	}

	/** A subagent owns no state: the policy answers from an empty one. */
	private decideSubagent(ref: SessionRef): Decision {
		return decide({
			state: emptyContinuationState(),
			work: null,
			facts: { subagent: true, agent: ref.agent ?? null },
			config: this.config,
			now: this.clock.now(),
			scope: "",
		});
	}

	private async decideLocked(
		ref: SessionRef,
		scope: string,
		context: WorkContext,
		facts: IdleFacts,
		options: IdleOptions & { verified?: VerifyOutcome },
	): Promise<Decision | null> {
		return this.store.updateScope<Decision | null>(scope, (current) => {
			const now = this.clock.now();
			if (options.only && !(current.kind === "ok" && options.only(current.value))) return { result: null, next: null };
			let state = observe(stateOf(current, now), ref);
			if (options.prepare) state = options.prepare(state, now);
			if (options.verified) state = onVerified(state, options.verified, now);
			if (facts.named !== undefined) state = withNamedTasks(state, facts.named, facts.backgroundTasks, now);
			const view = context.work ? context.view : todosView(state.todos ?? [], this.config.nextItems);
			const decision = decide({
				state,
				work: view,
				facts: {
					...context.facts,
					subagent: ref.subagent ?? false,
					agent: ref.agent ?? state.observed.agent,
					pendingInput: facts.pendingInput !== undefined ? facts.pendingInput : state.observed.pendingInput,
					lastAssistantText: facts.lastAssistantText ?? null,
					backgroundTasks: facts.backgroundTasks ?? state.observed.backgroundTasks,
					background: facts.background ?? state.observed.background ?? [],
					canAbortChildren: facts.canAbortChildren ?? false,
					turnUnseen: facts.turnUnseen ?? null,
					otherDriver: facts.otherDriver ?? null,
					harnessCap: facts.harnessCap ?? null,
				},
				config: this.config,
				now,
				scope,
			});
			const next =
				options.deliverNow && decision.kind === "inject"
					? onDelivered(decision.next, decision.key, now)
					: decision.next;
			return { result: decision, next };
		});
	}

	private deps() {
		return { store: this.store, config: this.config, clock: this.clock, plans: this.plans, runner: this.runner };
	}

	private async change(
		ref: SessionRef,
		fn: (state: ContinuationState, now: number) => ContinuationState,
	): Promise<void> {
		const scope = this.scopeOf(ref);
		if (scope === null) return;
		await this.store.updateScope(scope, (current) => {
			const now = this.clock.now();
			return { result: undefined, next: fn(stateOf(current, now), now) };
		});
	}

	private async event(ref: SessionRef, reason: EventReason, detail: string, key: string | null = null): Promise<void> {
		await this.store.appendDecision(
			eventRecord({
				at: this.clock.now(),
				worktree: this.store.worktree,
				scope: this.scopeOf(ref),
				harness: ref.harness,
				session: ref.sessionId,
				reason,
				detail,
				key,
				promptId: ref.promptId,
			}),
		);
	}

	private async logged(
		ref: SessionRef,
		scope: string | null,
		work: Work | null,
		decision: Decision,
	): Promise<IdleResult> {
		const { next: _, ...verdict } = decision;
		await this.store.appendDecision({
			v: 1,
			at: this.clock.now(),
			worktree: this.store.worktree,
			scope,
			harness: ref.harness,
			session: ref.sessionId,
			work: work?.id ?? null,
			kind: decision.kind,
			reason: decision.reason,
			detail: decision.detail,
			key: decision.key,
			retryAt: decision.retryAt,
			figures: { ...decision.figures },
			...(ref.promptId ? { promptId: ref.promptId } : {}),
		});
		return { ...verdict, work: work ? { id: work.id, name: work.name } : null };
	}
}

type Prepare = (state: ContinuationState, now: number) => ContinuationState;

interface IdleOptions {
	prepare?: Prepare | undefined;
	deliverNow?: boolean;
	/** Decide only when the state read under the lock passes; otherwise nothing is decided or written. */
	only?: ((state: ContinuationState) => boolean) | undefined;
	/** Added to the logged decision's detail: how it came to be taken. */
	detail?: string;
}

function withSpend(outcome: TurnEnd["outcome"], spend: TokenSpend | undefined): TurnEnd {
	return spend ? { outcome, spend } : { outcome };
}

/** An interrupt seen at `at` (null: time unknown) that the state does not know yet. */
function isNewInterrupt(state: ContinuationState, at: number | null): boolean {
	if (state.abortBlock && (at === null || state.abortBlock.at >= at)) return false;
	if (at !== null && state.turn && state.turn.startedAt > at) return false;
	return true;
}

/**
 * A scope whose file could not be read fails closed: no nudges until the user
 * writes again, and the file itself is kept aside for `boulder doctor`.
 */
function stateOf(current: Read<ContinuationState>, now: number): ContinuationState {
	if (current.kind === "ok") return current.value;
	const fresh = emptyContinuationState();
	if (current.kind === "missing") return fresh;
	const where = current.problem.movedTo ? `moved to ${path.basename(current.problem.movedTo)}` : "left in place";
	return {
		...fresh,
		disabled: {
			at: now,
			by: `boulder, because its state file was unreadable (${current.problem.reason}; ${where})`,
			untilUserTurn: true,
		},
	};
}

function observe(state: ContinuationState, ref: SessionRef): ContinuationState {
	const observed = { ...state.observed, harness: ref.harness, sessionId: ref.sessionId };
	if (ref.agent) observed.agent = ref.agent;
	if (ref.transcriptPath) observed.transcriptPath = ref.transcriptPath;
	return { ...state, observed };
}

/**
 * The named tasks timed from first sight, kept in the record so the next idle
 * measures from the same start, with the count of running tasks reported
 * beside them: a decision taken again at a deadline, with no event, reads both.
 */
function withNamedTasks(
	state: ContinuationState,
	named: readonly NamedTask[],
	running: number | undefined,
	now: number,
): ContinuationState {
	const background = timedFromFirstSight(named, state.observed.background ?? [], now);
	const backgroundTasks = running ?? state.observed.backgroundTasks;
	return { ...state, observed: { ...state.observed, background, backgroundTasks } };
}
