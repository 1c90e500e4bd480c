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
import type { Config } from "../core/config.js";
import type { DecisionRecord } from "../core/decision-record.js";
import { parsePlan, planView } from "../core/plan-parser.js";
import { type Decision, decide, type PendingInput, type SessionFacts } from "../core/policy.js";
import { scopeKey } from "../core/scope-key.js";
import type { Todo } from "../core/todos.js";
import {
	type ContinuationState,
	emptyContinuationState,
	onActivity,
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
import { todosView, type WorkView } from "../core/work-view.js";
import { type Clock, type Read, type Store, systemClock } from "../state/store.js";
import type { Work, WorksFile } from "../state/works.js";
import { type Runner, shellRunner } from "./runner.js";

/** Who is going idle: a harness session. */
export interface SessionRef {
	harness: string;
	sessionId: string;
	/** A subagent or child session: owns no continuation. */
	subagent?: boolean;
	agent?: string | null;
}

export interface IdleFacts {
	lastAssistantText?: string | null;
	/** When the harness says so directly; otherwise what was observed is used. */
	backgroundTasks?: number;
	pendingInput?: PendingInput | null;
}

export type SessionEvent =
	| { type: "abort" }
	| { type: "interrupt" }
	/** `spend`: what the failed turn's model calls cost, when the harness knows it. */
	| { type: "api-error"; message?: string; spend?: TokenSpend }
	| { type: "context-overflow"; spend?: TokenSpend }
	| { type: "compaction" }
	| { type: "deleted" }
	/** The harness is restarting: the abort it causes is not the user's. */
	| { type: "restart" };

/** The decision as the adapter needs it (without the persisted state). */
export interface IdleResult {
	kind: Decision["kind"];
	reason: Decision["reason"];
	detail: string;
	key: string | null;
	text: string | null;
	retryAt: number | null;
	figures: Decision["figures"];
	work: { id: string; name: string } | null;
}

export interface PlanSource {
	/** The plan's text, or null when the file does not exist. */
	read(worktree: string, planPath: string): Promise<string | null>;
}

export interface EngineOptions {
	store: Store;
	config: Config;
	clock?: Clock;
	runner?: Runner;
	plans: PlanSource;
}

interface WorkContext {
	view: WorkView | null;
	work: Work | null;
	facts: Pick<SessionFacts, "disabledBy" | "boundElsewhere">;
	/** Why there is no view although a work is bound (plan missing or invalid). */
	problem: string | null;
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
		if (ref.subagent) return null;
		return scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
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

	async backgroundChanged(ref: SessionRef, running: number): Promise<void> {
		await this.change(ref, (state) => ({ ...state, observed: { ...state.observed, backgroundTasks: running } }));
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
		const message = error instanceof Error ? error.message : String(error);
		try {
			await this.store.appendDecision(
				this.record(ref, null, { kind: "event", reason: "error", detail: `${where}: ${message}` }),
			);
		} catch {
			// The log itself failed: the caller's own stderr is all that is left.
		}
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
		const prepare = (state: ContinuationState, now: number): ContinuationState => {
			let next = state;
			if (facts.interruptAt !== undefined && isNewInterrupt(state, facts.interruptAt)) {
				interrupted = true;
				next = onUserAbort(next, "interrupt", now);
			}
			const running = next.turn === null || next.turn.outcome === null;
			return running ? onTurnEnd(next, end, now) : next;
		};
		const result = await this.idle(ref, facts, { prepare, deliverNow: options.deliverNow ?? false });
		if (interrupted) await this.event(ref, "user-aborted", "the user interrupted the agent");
		return result;
	}

	private async idle(
		ref: SessionRef,
		facts: IdleFacts,
		options: { prepare?: Prepare; deliverNow?: boolean },
	): Promise<IdleResult> {
		const scope = this.scopeOf(ref);
		if (scope === null) {
			return this.logged(ref, null, null, {
				kind: "skip",
				reason: "not-eligible",
				detail: "subagent sessions own no continuation; their parent decides",
			});
		}
		const context = await this.workContext(ref);
		let result = await this.decideLocked(ref, scope, context, facts, options);
		if (result.kind === "verify" && context.view && context.work) {
			await this.logResult(ref, scope, context.work, result);
			const verified = await this.verify(context.work, context.view);
			result = await this.decideLocked(ref, scope, context, facts, { ...options, prepare: undefined, verified });
		}
		if (result.kind === "complete" && context.work) await this.completeWork(context.work.id);
		return this.logResult(ref, scope, context.work, result);
	}

	private async decideLocked(
		ref: SessionRef,
		scope: string,
		context: WorkContext,
		facts: IdleFacts,
		options: { prepare?: Prepare | undefined; deliverNow?: boolean; verified?: VerifyOutcome },
	): Promise<Decision> {
		return this.store.updateScope(scope, (current) => {
			const now = this.clock.now();
			let state = observe(stateOf(current, now), ref);
			if (options.prepare) state = options.prepare(state, now);
			if (options.verified) state = onVerified(state, options.verified, now);
			const view = context.work ? context.view : todosView(state.todos ?? [], this.config.nextItems);
			const decision = decide({
				state,
				work: context.problem ? null : view,
				facts: {
					...context.facts,
					subagent: ref.subagent ?? false,
					agent: ref.agent ?? state.observed.agent,
					pendingInput: facts.pendingInput !== undefined ? facts.pendingInput : state.observed.pendingInput,
					lastAssistantText: facts.lastAssistantText ?? null,
					backgroundTasks: facts.backgroundTasks ?? state.observed.backgroundTasks,
				},
				config: this.config,
				now,
				scope,
			});
			const withProblem =
				context.problem && decision.reason === "no-open-work" ? { ...decision, detail: context.problem } : decision;
			const next =
				options.deliverNow && decision.kind === "inject" && decision.key
					? onDelivered(decision.next, decision.key, now)
					: decision.next;
			return { result: withProblem, next };
		});
	}

	/** Reads the works file and binds the session to the active work when it is the first to come. */
	private async workContext(ref: SessionRef): Promise<WorkContext> {
		const none: WorkContext = { view: null, work: null, facts: {}, problem: null };
		const works = await this.store.readWorks();
		if (works.kind === "unreadable") {
			return {
				...none,
				facts: {
					disabledBy: `the works file was unreadable and was moved aside (${works.problem.movedTo ?? "in place"}); run \`boulder doctor\``,
				},
			};
		}
		if (works.kind === "missing") return none;
		const file = works.value;
		const stopped = file.stopped
			? `continuation is stopped in this worktree (by ${file.stopped.by}); \`boulder go\` turns it on`
			: null;
		const active = file.activeWorkId ? file.works[file.activeWorkId] : undefined;
		if (!active || (active.status !== "active" && active.status !== "paused") || ref.subagent) {
			return { ...none, facts: { disabledBy: stopped } };
		}
		let work = active;
		if (!isBound(work, ref)) {
			if (work.sessions.length > 0 || work.status !== "active") {
				return { ...none, facts: { disabledBy: stopped } };
			}
			work = await this.bind(work.id, ref);
			if (!isBound(work, ref)) return { ...none, facts: { disabledBy: stopped } };
		}
		const disabledBy =
			stopped ??
			(work.status === "paused" ? `the work "${work.name}" is paused; \`boulder resume\` continues it` : null);
		const text = await this.plans.read(work.worktree, work.planPath);
		if (text === null) {
			return { view: null, work, facts: { disabledBy }, problem: `the plan file ${work.planPath} is missing` };
		}
		const plan = parsePlan(text, work.planPath);
		const view = planView(plan, work.name, this.config.nextItems);
		const verify = work.verify.length > 0 ? work.verify : view.verify;
		return { view: { ...view, verify }, work, facts: { disabledBy }, problem: null };
	}

	private async bind(workId: string, ref: SessionRef): Promise<Work> {
		return this.store.updateWorks((current) => {
			const file = current.kind === "ok" ? current.value : null;
			const work = file?.works[workId];
			if (!file || !work) throw new Error(`work ${workId} vanished while binding`);
			if (work.sessions.length > 0) return { result: work, next: null };
			const bound: Work = {
				...work,
				sessions: [{ harness: ref.harness, sessionId: ref.sessionId, how: "appended", at: this.clock.now() }],
				agent: work.agent ?? ref.agent ?? null,
			};
			return { result: bound, next: { ...file, works: { ...file.works, [workId]: bound } } };
		});
	}

	private async verify(work: Work, view: WorkView): Promise<VerifyOutcome> {
		const timeoutMs = work.verifyTimeoutMs ?? this.config.verifyTimeoutMs;
		let outcome: VerifyOutcome = {
			fingerprint: view.fingerprint,
			passed: true,
			command: null,
			exitCode: 0,
			output: "",
		};
		for (const command of view.verify) {
			const run = await this.runner.run(command, { cwd: work.worktree, timeoutMs });
			if (run.exitCode !== 0) {
				const output = run.timedOut ? `${run.output}\n(timed out after ${timeoutMs} ms)` : run.output;
				outcome = { fingerprint: view.fingerprint, passed: false, command, exitCode: run.exitCode, output };
				break;
			}
		}
		const at = this.clock.now();
		await this.store.updateWorks((current) => {
			if (current.kind !== "ok" || !current.value.works[work.id]) return { result: undefined, next: null };
			const file = current.value;
			const { fingerprint: _, ...verification } = outcome;
			const updated = { ...(file.works[work.id] as Work), lastVerification: { ...verification, at } };
			return { result: undefined, next: { ...file, works: { ...file.works, [work.id]: updated } } };
		});
		return outcome;
	}

	private async completeWork(workId: string): Promise<void> {
		await this.store.updateWorks((current) => {
			const work = current.kind === "ok" ? current.value.works[workId] : undefined;
			if (current.kind !== "ok" || !work || work.status === "completed") return { result: undefined, next: null };
			const now = this.clock.now();
			const done: Work = { ...work, status: "completed", endedAt: now, elapsedMs: Math.max(0, now - work.startedAt) };
			const file: WorksFile = { ...current.value, works: { ...current.value.works, [workId]: done } };
			return { result: undefined, next: file };
		});
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

	private async event(ref: SessionRef, reason: string, detail: string, key: string | null = null): Promise<void> {
		await this.store.appendDecision(this.record(ref, null, { kind: "event", reason, detail, key }));
	}

	private async logResult(ref: SessionRef, scope: string, work: Work | null, decision: Decision): Promise<IdleResult> {
		return this.logged(ref, scope, work, decision);
	}

	private async logged(
		ref: SessionRef,
		scope: string | null,
		work: Work | null,
		decision: Pick<Decision, "kind" | "reason" | "detail"> & Partial<Decision>,
	): Promise<IdleResult> {
		const figures = decision.figures;
		await this.store.appendDecision(
			this.record(ref, work, {
				kind: decision.kind,
				reason: decision.reason,
				detail: decision.detail,
				key: decision.key ?? null,
				retryAt: decision.retryAt ?? null,
				...(figures ? { figures: { ...figures } } : {}),
				scope,
			}),
		);
		return {
			kind: decision.kind,
			reason: decision.reason,
			detail: decision.detail,
			key: decision.key ?? null,
			text: decision.text ?? null,
			retryAt: decision.retryAt ?? null,
			figures: figures ?? emptyFigures(),
			work: work ? { id: work.id, name: work.name } : null,
		};
	}

	private record(
		ref: SessionRef | null,
		work: Work | null,
		fields: Pick<DecisionRecord, "kind" | "reason" | "detail"> & Partial<DecisionRecord>,
	): DecisionRecord {
		return {
			v: 1,
			at: this.clock.now(),
			worktree: this.store.worktree,
			scope: ref ? this.scopeOf(ref) : null,
			harness: ref?.harness ?? null,
			session: ref?.sessionId ?? null,
			work: work?.id ?? null,
			...fields,
		};
	}
}

type VerifyOutcome = Parameters<typeof onVerified>[1];
type Prepare = (state: ContinuationState, now: number) => ContinuationState;

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
	return { ...state, observed };
}

function isBound(work: Work, ref: SessionRef): boolean {
	return work.sessions.some((session) => session.harness === ref.harness && session.sessionId === ref.sessionId);
}

function emptyFigures(): Decision["figures"] {
	return {
		open: 0,
		done: 0,
		blocked: 0,
		total: 0,
		autoTurnsLeft: 0,
		tokensLeft: 0,
		msLeft: 0,
		stagnation: 0,
		graceLeft: 0,
	};
}
