/**
 * Turn bookkeeping: the persisted continuation state of one scope and the pure
 * transitions adapters trigger through the engine (turn start with provenance,
 * turn outcome with real token spend, abort, delivery reports).
 *
 * Contract: every function returns a new state and never mutates its input.
 */
import { arrayOf, bool, exactly, fields, int, nullOr, num, oneOf, optional, orDefault, str } from "./hand-check.js";
import { handTodo, Todo } from "./todos.js";
import { z } from "./zod.js";

export const Provenance = z.lazy(() => z.enum(["user", "continuation", "system", "restart"]));
export type Provenance = z.infer<typeof Provenance>;

export const TurnOutcome = z.lazy(() => z.enum(["end", "aborted", "error", "length", "context-overflow", "unknown"]));
export type TurnOutcome = z.infer<typeof TurnOutcome>;

const count = z.lazy(() => z.int().check(z.minimum(0)));

/** A running subagent or background task, as the watchdog needs it. */
export const BackgroundTask = z.lazy(() =>
	z.object({
		id: z.string(),
		/** Its agent type, for a per-agent limit. */
		agent: z.nullable(z.string()),
		startedAt: z.number(),
	}),
);
export type BackgroundTask = z.infer<typeof BackgroundTask>;
const time = z.lazy(() => z.number());

/** Real spend of one model call or turn; cache reads are not spend. */
export const TokenSpend = z.lazy(() => z.object({ input: count, output: count, cacheWrite: count }));
export type TokenSpend = z.infer<typeof TokenSpend>;

export function spendTotal(spend: TokenSpend | undefined): number {
	return spend ? spend.input + spend.output + spend.cacheWrite : 0;
}

export const Turn = z.lazy(() =>
	z.object({
		seq: count,
		provenance: Provenance,
		startedAt: time,
		/** null while the turn is running. */
		outcome: z.nullable(TurnOutcome),
		endedAt: z.nullable(time),
		tokens: count,
		/** Tool calls that changed files: work the list may not show yet. */
		activity: count,
		/** The idempotency key of the nudge that started this turn, for continuation turns. */
		nudgeKey: z.nullable(z.string()),
	}),
);
export type Turn = z.infer<typeof Turn>;

export const Episode = z.lazy(() =>
	z.object({
		/** Opened at the first nudge after a real user turn; only a real user turn closes it. */
		id: z.string(),
		startedAt: time,
		autoTurns: count,
		tokens: count,
		/** Nudges in a row that brought no real progress. */
		stagnation: count,
		graceUsed: count,
		/** Nudged turns that died on an API error since the last progress: not judged, but capped. */
		errors: z._default(count, 0),
		/** Items completed (or closed) beyond the best seen in this episode: what earns more budget. */
		earned: z._default(count, 0),
		/** High-water marks: progress means beating them, so churn never counts twice. */
		bestOpen: count,
		bestDone: count,
	}),
);
export type Episode = z.infer<typeof Episode>;

export const DecisionKind = z.lazy(() => z.enum(["inject", "verify", "complete", "skip"]));
export type DecisionKind = z.infer<typeof DecisionKind>;

export const LastDecision = z.lazy(() =>
	z.object({
		turnSeq: count,
		kind: DecisionKind,
		reason: z.string(),
		key: z.nullable(z.string()),
		at: time,
		/** For injects: written before delivery, then reported by the adapter. */
		delivery: z.nullable(z.enum(["pending", "delivered", "failed"])),
	}),
);
export type LastDecision = z.infer<typeof LastDecision>;

export const Failures = z.lazy(() =>
	z.object({
		count: z.int().check(z.minimum(1)),
		lastAt: time,
		kind: z.enum(["delivery", "api"]),
	}),
);
export type Failures = z.infer<typeof Failures>;

export const Verification = z.lazy(() =>
	z.object({
		fingerprint: z.string(),
		turnSeq: count,
		passed: z.boolean(),
		at: time,
		/** The first command that failed, its exit code (null: timed out) and trimmed output. */
		command: z.nullable(z.string()),
		exitCode: z.nullable(z.int()),
		output: z.string(),
	}),
);
export type Verification = z.infer<typeof Verification>;

export const ContinuationState = z.lazy(() =>
	z.object({
		turn: z.nullable(Turn),
		/** Highest turn seq ever used, so seqs never repeat even if `turn` is reset. */
		seq: count,
		episode: z.nullable(Episode),
		/** The user aborted: durable until the next real user turn, survives restarts. */
		abortBlock: z.nullable(z.object({ at: time, how: z.enum(["abort", "interrupt"]) })),
		/** One-shot: the next abort is a restart's, not the user's. */
		restartAbortPending: z.boolean(),
		/** One-shot: the next idle is the stale one of a turn a restart interrupted. */
		suppressNextIdle: z.nullable(z.literal("restart")),
		failures: z.nullable(Failures),
		lastDecision: z.nullable(LastDecision),
		/**
		 * A delivered nudge whose effect is not yet judged: the next idle after a
		 * finished turn checks it for progress once, whatever turns came between.
		 */
		pendingCheck: z.nullable(z.object({ key: z.string(), activity: count })),
		completed: z.nullable(z.object({ fingerprint: z.string(), at: time })),
		verification: z.nullable(Verification),
		/**
		 * The harness's own identity of the last turn that ended, when it gives one:
		 * a second report of that end (two hook registrations) changes nothing.
		 */
		endedMarker: z._default(z.nullable(z.string()), null),
		/**
		 * Continuation turned off for this scope: by the user (holds until they turn
		 * it on), or by boulder failing closed (lifted by the next real user turn).
		 */
		disabled: z.nullable(z.object({ at: time, by: z.string(), untilUserTurn: z.optional(z.boolean()) })),
		/** The agent's own list as last reported by its harness (null: never seen). */
		todos: z.nullable(z.array(Todo)),
		/** What the adapter observed between events, for harnesses that start a process per event. */
		observed: z.object({
			harness: z.nullable(z.string()),
			sessionId: z.nullable(z.string()),
			agent: z.nullable(z.string()),
			backgroundTasks: count,
			/** The running subagents and background tasks the adapter knows by name and start (the watchdog reads them). */
			background: z.optional(z.array(BackgroundTask)),
			pendingInput: z.nullable(
				z.object({ kind: z.enum(["question", "permission", "wait"]), detail: z.optional(z.string()) }),
			),
			/**
			 * Where the harness keeps the session's transcript, when its events say
			 * (Claude Code's `transcript_path`): shown to copy, never read or served
			 * by a face. Optional, so a file written before it reads as it is.
			 */
			transcriptPath: z.optional(z.string()),
		}),
	}),
);
export type ContinuationState = z.infer<typeof ContinuationState>;

const STATE_KEYS = [
	"turn",
	"seq",
	"episode",
	"abortBlock",
	"restartAbortPending",
	"suppressNextIdle",
	"failures",
	"lastDecision",
	"pendingCheck",
	"completed",
	"verification",
	"endedMarker",
	"disabled",
	"todos",
	"observed",
] as const;

const handCount = (value: unknown) => int(value, 0);

/**
 * `ContinuationState`'s well-formed case by hand (`hand-check.ts`): the hook
 * reads and writes the scope state on every event. Throws the check's defer.
 */
export function handContinuationState(value: unknown): ContinuationState {
	const state = fields(value, STATE_KEYS);
	return {
		turn: nullOr(state.turn, handTurn),
		seq: handCount(state.seq),
		episode: nullOr(state.episode, handEpisode),
		abortBlock: nullOr(state.abortBlock, (item) => {
			const block = fields(item, ["at", "how"]);
			return { at: num(block.at), how: oneOf(block.how, ["abort", "interrupt"]) };
		}),
		restartAbortPending: bool(state.restartAbortPending),
		suppressNextIdle: nullOr(state.suppressNextIdle, (item) => exactly(item, "restart")),
		failures: nullOr(state.failures, (item) => {
			const failures = fields(item, ["count", "lastAt", "kind"]);
			return {
				count: int(failures.count, 1),
				lastAt: num(failures.lastAt),
				kind: oneOf(failures.kind, ["delivery", "api"]),
			};
		}),
		lastDecision: nullOr(state.lastDecision, handLastDecision),
		pendingCheck: nullOr(state.pendingCheck, (item) => {
			const check = fields(item, ["key", "activity"]);
			return { key: str(check.key), activity: handCount(check.activity) };
		}),
		completed: nullOr(state.completed, (item) => {
			const completed = fields(item, ["fingerprint", "at"]);
			return { fingerprint: str(completed.fingerprint), at: num(completed.at) };
		}),
		verification: nullOr(state.verification, handVerification),
		endedMarker: orDefault(state.endedMarker, null, (item) => nullOr(item, str)),
		disabled: nullOr(state.disabled, (item) => {
			const disabled = fields(item, ["at", "by", "untilUserTurn"]);
			return { at: num(disabled.at), by: str(disabled.by), ...optional(disabled, "untilUserTurn", bool) };
		}),
		todos: nullOr(state.todos, (items) => arrayOf(items, handTodo)),
		observed: handObserved(state.observed),
	};
}

function handTurn(value: unknown): Turn {
	const turn = fields(value, [
		"seq",
		"provenance",
		"startedAt",
		"outcome",
		"endedAt",
		"tokens",
		"activity",
		"nudgeKey",
	]);
	return {
		seq: handCount(turn.seq),
		provenance: oneOf(turn.provenance, ["user", "continuation", "system", "restart"]),
		startedAt: num(turn.startedAt),
		outcome: nullOr(turn.outcome, (outcome) =>
			oneOf(outcome, ["end", "aborted", "error", "length", "context-overflow", "unknown"]),
		),
		endedAt: nullOr(turn.endedAt, num),
		tokens: handCount(turn.tokens),
		activity: handCount(turn.activity),
		nudgeKey: nullOr(turn.nudgeKey, str),
	};
}

function handEpisode(value: unknown): Episode {
	const episode = fields(value, [
		"id",
		"startedAt",
		"autoTurns",
		"tokens",
		"stagnation",
		"graceUsed",
		"errors",
		"earned",
		"bestOpen",
		"bestDone",
	]);
	return {
		id: str(episode.id),
		startedAt: num(episode.startedAt),
		autoTurns: handCount(episode.autoTurns),
		tokens: handCount(episode.tokens),
		stagnation: handCount(episode.stagnation),
		graceUsed: handCount(episode.graceUsed),
		errors: orDefault(episode.errors, 0, handCount),
		earned: orDefault(episode.earned, 0, handCount),
		bestOpen: handCount(episode.bestOpen),
		bestDone: handCount(episode.bestDone),
	};
}

function handLastDecision(value: unknown): LastDecision {
	const last = fields(value, ["turnSeq", "kind", "reason", "key", "at", "delivery"]);
	return {
		turnSeq: handCount(last.turnSeq),
		kind: oneOf(last.kind, ["inject", "verify", "complete", "skip"]),
		reason: str(last.reason),
		key: nullOr(last.key, str),
		at: num(last.at),
		delivery: nullOr(last.delivery, (delivery) => oneOf(delivery, ["pending", "delivered", "failed"])),
	};
}

function handVerification(value: unknown): Verification {
	const run = fields(value, ["fingerprint", "turnSeq", "passed", "at", "command", "exitCode", "output"]);
	return {
		fingerprint: str(run.fingerprint),
		turnSeq: handCount(run.turnSeq),
		passed: bool(run.passed),
		at: num(run.at),
		command: nullOr(run.command, str),
		exitCode: nullOr(run.exitCode, (code) => int(code)),
		output: str(run.output),
	};
}

function handObserved(value: unknown): ContinuationState["observed"] {
	const observed = fields(value, [
		"harness",
		"sessionId",
		"agent",
		"backgroundTasks",
		"background",
		"pendingInput",
		"transcriptPath",
	]);
	return {
		harness: nullOr(observed.harness, str),
		sessionId: nullOr(observed.sessionId, str),
		agent: nullOr(observed.agent, str),
		backgroundTasks: handCount(observed.backgroundTasks),
		...optional(observed, "background", (items) =>
			arrayOf(items, (item) => {
				const task = fields(item, ["id", "agent", "startedAt"]);
				return { id: str(task.id), agent: nullOr(task.agent, str), startedAt: num(task.startedAt) };
			}),
		),
		pendingInput: nullOr(observed.pendingInput, (item) => {
			const pending = fields(item, ["kind", "detail"]);
			return { kind: oneOf(pending.kind, ["question", "permission", "wait"]), ...optional(pending, "detail", str) };
		}),
		...optional(observed, "transcriptPath", str),
	};
}

export function emptyContinuationState(): ContinuationState {
	return {
		turn: null,
		seq: 0,
		episode: null,
		abortBlock: null,
		restartAbortPending: false,
		suppressNextIdle: null,
		failures: null,
		lastDecision: null,
		pendingCheck: null,
		completed: null,
		verification: null,
		disabled: null,
		endedMarker: null,
		todos: null,
		observed: { harness: null, sessionId: null, agent: null, backgroundTasks: 0, pendingInput: null },
	};
}

function newTurn(state: ContinuationState, provenance: Provenance, now: number, nudgeKey: string | null): Turn {
	return {
		seq: state.seq + 1,
		provenance,
		startedAt: now,
		outcome: null,
		endedAt: null,
		tokens: 0,
		activity: 0,
		nudgeKey,
	};
}

/**
 * A turn starts. Only a real user turn closes the episode and lifts the abort
 * block; any new turn supersedes a stale idle a restart left behind.
 */
export function onTurnStart(
	state: ContinuationState,
	provenance: Provenance,
	now: number,
	nudgeKey: string | null = null,
): ContinuationState {
	const turn = newTurn(state, provenance, now, nudgeKey);
	const next: ContinuationState = { ...state, turn, seq: turn.seq, suppressNextIdle: null };
	if (provenance !== "user") return next;
	return {
		...next,
		episode: null,
		pendingCheck: null,
		abortBlock: null,
		restartAbortPending: false,
		failures: null,
		observed: { ...state.observed, pendingInput: null },
		disabled: state.disabled?.untilUserTurn ? null : state.disabled,
	};
}

/**
 * The harness is going down to restart: the abort it causes is not the
 * user's, and the idle of the interrupted turn, seen after boot, is stale
 * (both one-shot). The restart's own kick then starts a `restart` turn.
 */
export function onRestart(state: ContinuationState): ContinuationState {
	return { ...state, restartAbortPending: true, suppressNextIdle: "restart" };
}

export interface TurnEnd {
	outcome: TurnOutcome;
	/** Real spend of the whole turn (all its model calls). */
	spend?: TokenSpend;
	activity?: number;
	/** The harness's identity of the turn (e.g. the transcript line that began it), when it has one. */
	marker?: string | null;
	/**
	 * The harness records a turn before it runs the hook (Gemini CLI writes
	 * its transcript synchronously): a turn end that repeats the last ended
	 * marker then means the running turn was never recorded, i.e. it made
	 * no model request.
	 */
	recordedBeforeHook?: boolean;
}

/** Why a continuation that never reached the model is not continued again, as `boulder why` says it. */
export const CONTINUATION_UNREACHED =
	"the harness ended the turn boulder's nudge began without a model request (Gemini CLI's loop detector stops every later turn of a prompt that way), so the nudge never reached the model; boulder stops nudging until the next prompt";

/**
 * Whether this turn end says the running continuation of ours never reached
 * the model: the harness ended it without a model request (Gemini CLI's loop
 * detector stops every later turn of the prompt before its request), so its
 * transcript shows the turn that was already ended.
 */
export function isUnreachedContinuation(state: ContinuationState, end: TurnEnd): boolean {
	return (
		end.recordedBeforeHook === true &&
		!!end.marker &&
		state.endedMarker === end.marker &&
		state.turn !== null &&
		state.turn.outcome === null &&
		state.turn.provenance === "continuation"
	);
}

/**
 * The running continuation ended without a model request: the turn's outcome
 * is unknown (nothing continues it), and the nudge that began it counts as
 * not delivered.
 */
export function onContinuationUnreached(state: ContinuationState, now: number): ContinuationState {
	const turn = state.turn;
	if (turn === null) return state;
	const last = state.lastDecision;
	const undelivered = last !== null && last.delivery === "delivered";
	return {
		...state,
		turn: { ...turn, outcome: "unknown", endedAt: now },
		lastDecision: undelivered ? { ...last, delivery: "failed" } : last,
	};
}

/**
 * The running turn ends. An abort that is not a restart's arms the durable
 * abort block; an API error counts toward the backoff. A turn end without a
 * seen start is recorded as a `system` turn: never mistaken for the user's.
 */
export function onTurnEnd(state: ContinuationState, end: TurnEnd, now: number): ContinuationState {
	if (end.marker && state.endedMarker === end.marker) return state;
	const base = state.turn && state.turn.outcome === null ? state : onTurnStart(state, "system", now);
	const running = base.turn as Turn;
	const tokens = spendTotal(end.spend);
	const turn: Turn = {
		...running,
		outcome: end.outcome,
		endedAt: now,
		tokens: running.tokens + tokens,
		activity: running.activity + (end.activity ?? 0),
	};
	let next: ContinuationState = {
		...base,
		turn,
		endedMarker: end.marker ?? null,
		restartAbortPending: false,
		pendingCheck: addActivity(base.pendingCheck, end.activity ?? 0),
	};
	if (next.episode && running.provenance === "continuation") {
		next = { ...next, episode: { ...next.episode, tokens: next.episode.tokens + tokens } };
	}
	if (end.outcome === "aborted" && !base.restartAbortPending) {
		next = { ...next, abortBlock: { at: now, how: "abort" } };
	}
	if (end.outcome === "error") {
		next = { ...next, failures: bumpFailures(next.failures, "api", now) };
	} else if (end.outcome !== "aborted" && next.failures?.kind === "api") {
		next = { ...next, failures: null };
	}
	return next;
}

/** Files changed while a turn runs, before its end is known. Commands alone do not count. */
export function onActivity(state: ContinuationState, amount = 1): ContinuationState {
	if (!state.turn || state.turn.outcome !== null) return state;
	return {
		...state,
		turn: { ...state.turn, activity: state.turn.activity + amount },
		pendingCheck: addActivity(state.pendingCheck, amount),
	};
}

function addActivity(check: ContinuationState["pendingCheck"], amount: number): ContinuationState["pendingCheck"] {
	return check && amount > 0 ? { ...check, activity: check.activity + amount } : check;
}

/**
 * The user interrupted (Esc) or aborted: the turn is over and no nudge may
 * follow until the user speaks again.
 */
export function onUserAbort(state: ContinuationState, how: "abort" | "interrupt", now: number): ContinuationState {
	if (state.restartAbortPending) {
		return { ...state, restartAbortPending: false };
	}
	const turn =
		state.turn && state.turn.outcome === null
			? { ...state.turn, outcome: "aborted" as const, endedAt: now }
			: state.turn;
	return { ...state, turn, abortBlock: { at: now, how } };
}

/** The adapter delivered the nudge with this key: its turn starts now. */
export function onDelivered(state: ContinuationState, key: string, now: number): ContinuationState {
	const last = state.lastDecision;
	if (!last || last.key !== key || last.delivery !== "pending") return state;
	const marked: ContinuationState = {
		...state,
		lastDecision: { ...last, delivery: "delivered" },
		failures: state.failures?.kind === "delivery" ? null : state.failures,
		pendingCheck: { key, activity: 0 },
	};
	return onTurnStart(marked, "continuation", now, key);
}

/** The adapter could not deliver the nudge with this key: back off, never retry blindly. */
export function onDeliveryFailed(state: ContinuationState, key: string, now: number): ContinuationState {
	const last = state.lastDecision;
	if (!last || last.key !== key || last.delivery !== "pending") return state;
	return {
		...state,
		lastDecision: { ...last, delivery: "failed" },
		failures: bumpFailures(state.failures, "delivery", now),
	};
}

export type VerifyResult = Omit<Verification, "turnSeq" | "at">;

export function onVerified(state: ContinuationState, result: VerifyResult, now: number): ContinuationState {
	const verification: Verification = { ...result, turnSeq: state.turn?.seq ?? 0, at: now };
	return { ...state, verification };
}

function bumpFailures(current: Failures | null, kind: Failures["kind"], now: number): Failures {
	return { count: current && current.kind === kind ? current.count + 1 : 1, lastAt: now, kind };
}

/** base × 2^(failures − 1), capped. */
export function backoffDelay(failures: number, baseMs: number, capMs: number): number {
	if (failures <= 0) return 0;
	const exponent = Math.min(failures - 1, 30);
	return Math.min(capMs, baseMs * 2 ** exponent);
}
