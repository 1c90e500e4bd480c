/**
 * The decision on idle: one pure function from the continuation state, the
 * work, the session's facts, the config and `now` to a decision with a reason
 * code, the figures behind it and the next state to persist. The guards run in
 * the order of the decision table (README, "How it decides"); the first that matches answers.
 */
import { allowanceOf, type BudgetKind, elapsedSince, timeLeft } from "./budget.js";
import type { Config } from "./config.js";
import {
	continuationPrompt,
	type FailedCheck,
	verifyFailedPrompt,
	watchdogNote,
	workCompleteMessage,
} from "./prompts.js";
import { detectsQuestion } from "./question-detect.js";
import { type BackgroundTask, backoffDelay, type ContinuationState, type DecisionKind, type Episode } from "./turns.js";
import { nextDeadline, overdueTasks, overdueText } from "./watchdog.js";
import { doneCount, type WorkView } from "./work-view.js";

export const SKIP_REASONS = [
	"disabled",
	"not-eligible",
	"no-open-work",
	"user-aborted",
	"awaiting-user",
	"turn-unsafe",
	"context-overflow",
	"background-busy",
	"duplicate",
	"backoff",
	"budget-turns",
	"budget-tokens",
	"budget-time",
	"stagnation",
	"harness-cap",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export type ReasonCode = SkipReason | "continue" | "verify-failed" | "verify" | "complete";

/** Skips the user is told about: the agent was let stop on a limit, not because the work is done. */
const NOTICED: ReadonlySet<SkipReason> = new Set([
	"stagnation",
	"budget-turns",
	"budget-tokens",
	"budget-time",
	"harness-cap",
]);

/** Whether the user should hear about this skip (a toast, a one-line notice), not only find it in `boulder why`. */
export function isNoticed(reason: SkipReason): boolean {
	return NOTICED.has(reason);
}

/** Why continuation is switched off around this session, as the engine found it in the works file. */
export type SwitchedOff =
	| { kind: "worktree-stopped"; by: string }
	| { kind: "work-paused"; work: string }
	| { kind: "works-unreadable"; movedTo: string | null };

/** Why the bound work's plan cannot be used: the file is gone, cannot be read, or has errors. */
export interface PlanUnusable {
	path: string;
	problem: "missing" | "unreadable" | "errors";
	detail?: string;
}

/** The active work of the worktree is another session's. */
export interface BoundElsewhere {
	work: string;
	harness: string;
	sessionId: string;
	/** The work's plan, relative to the worktree: `boulder start` on it hands the work over. Absent: not known. */
	planPath?: string;
}

/**
 * The active work is not this user's to act on (see Trust in DESIGN.md):
 * boulder did not record it for this user on this machine (it came with a
 * checkout, a copy, or a boulder before trust records), or it names another
 * folder as its worktree.
 */
export interface ForeignWork {
	work: string;
	planPath: string;
	why: "not-recorded" | "other-worktree";
}

/** Verify commands of the bound work that the user has not approved on this machine: held back, never run. */
export interface VerifyHeld {
	commands: number;
}

/**
 * A harness's own limit on continuations in a row (Qwen Code's and Copilot
 * CLI's Stop-hook block caps), and where this session stands against it.
 */
export interface HarnessCap {
	/** The harness, as `why` names it ("Qwen Code"). */
	harness: string;
	/**
	 * The block in a row, for one prompt, that the harness overrides: Qwen
	 * Code's `stopHookBlockingCap` (8 by default, so 7 continuations get
	 * through); 9 for Copilot CLI, which lets 8 through.
	 */
	limit: number;
	/** The continuations it has honoured in a row for this prompt: the next is overridden when `inRow + 1 >= limit`. */
	inRow: number;
	/** How a user raises or lifts the cap, when that can be done (a setting, where), else null. */
	lift: string | null;
}

export interface PendingInput {
	kind: "question" | "permission" | "wait";
	detail?: string;
}

/** What the adapter knows about the session at this idle. */
export interface SessionFacts {
	/** Set when the user turned continuation off for this worktree, paused the work, or the works file is unreadable. */
	switchedOff?: SwitchedOff | null;
	subagent?: boolean;
	agent?: string | null;
	/** The active work belongs to another session: never hijack it (this session may still roll a list of its own). */
	boundElsewhere?: BoundElsewhere | null;
	/** The active work is foreign: never nudged, verified or completed (this session may still roll a list of its own). */
	foreign?: ForeignWork | null;
	/** The work's verify commands are not approved here: they are held back, and the work does not complete. */
	verifyHeld?: VerifyHeld | null;
	/** The work's verify commands already run in another process (another Stop's): never a second run beside it. */
	verifyRunning?: { pid: number } | null;
	/** The bound work's plan cannot be used as it is: nothing is read as open, nothing verifies or completes. */
	planUnusable?: PlanUnusable | null;
	/** The adapter could not see how the last turn went (its transcript is unreadable, say): why. */
	turnUnseen?: string | null;
	/** The harness's own goal mode drives this session: its name and what it pursues (`Claude Code's /goal "…"`). */
	otherDriver?: string | null;
	/** The harness's own continuation cap: a nudge it would override is never sent (guard 13). */
	harnessCap?: HarnessCap | null;
	pendingInput?: PendingInput | null;
	lastAssistantText?: string | null;
	backgroundTasks?: number;
	/** The running tasks known by name and start (a subset of `backgroundTasks`): the watchdog reads them. */
	background?: readonly BackgroundTask[];
	/** The adapter can abort a child session that ran past its limit (OpenCode), and will when `watchdog.abort` is on. */
	canAbortChildren?: boolean;
}

export interface IdleInput {
	state: ContinuationState;
	/** null when the session has no list and no plan. */
	work: WorkView | null;
	facts: SessionFacts;
	config: Config;
	now: number;
	/** Prefix of idempotency keys: the scope key. */
	scope: string;
}

export interface Figures {
	open: number;
	done: number;
	blocked: number;
	total: number;
	autoTurnsLeft: number;
	tokensLeft: number;
	msLeft: number;
	stagnation: number;
	graceLeft: number;
	/** Items completed in the episode beyond its best: what earned more budget. */
	earned: number;
}

/**
 * The answer on idle, as data. `key` is the idempotency key of an inject or a
 * complete; `text` is the nudge (inject) or the message for the user
 * (complete); a skip may carry the key of the nudge it refers to (duplicate),
 * `retryAt` (backoff) and whether the user should be told (`notice`).
 */
export type Verdict =
	| {
			kind: "inject";
			reason: "continue" | "verify-failed";
			detail: string;
			key: string;
			text: string;
			retryAt: null;
			/** Tasks past their time limit that the adapter should abort (OpenCode, `watchdog.abort`). */
			abort?: string[];
	  }
	| { kind: "complete"; reason: "complete"; detail: string; key: string; text: string; retryAt: null }
	| { kind: "verify"; reason: "verify"; detail: string; key: null; text: null; retryAt: null }
	| {
			kind: "skip";
			reason: SkipReason;
			detail: string;
			key: string | null;
			text: null;
			retryAt: number | null;
			notice: boolean;
	  };

/** A verdict with the figures behind it and the next state to persist. */
export type Decision = Verdict & { figures: Figures; next: ContinuationState };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The persisted `DecisionKind` and the verdicts' kinds are one set: this fails to compile when they drift. */
export const KINDS_AGREE: Same<DecisionKind, Verdict["kind"]> = true;

export function decide(input: IdleInput): Decision {
	const accounted = account(input);
	const { config, facts, now, work } = input;
	const state = accounted;
	const skip = (reason: SkipReason, detail: string, extra: { key?: string | null; retryAt?: number } = {}): Decision =>
		finish(input, state, {
			kind: "skip",
			reason,
			detail,
			key: extra.key ?? null,
			text: null,
			retryAt: extra.retryAt ?? null,
			notice: isNoticed(reason),
		});

	// 1
	if (!config.enabled) return skip("disabled", "continuation is turned off in the config");
	if (state.disabled) return skip("disabled", `continuation was turned off by ${state.disabled.by}`);
	if (facts.switchedOff) return skip("disabled", switchedOffText(facts.switchedOff));

	// 2
	if (facts.subagent) return skip("not-eligible", "subagent sessions own no continuation; their parent decides");
	const agent = facts.agent?.trim().toLowerCase();
	if (agent && config.skipAgents.some((name) => name.toLowerCase() === agent)) {
		return skip("not-eligible", `the agent "${facts.agent}" is never continued`);
	}
	if (facts.otherDriver && config.builtInGoals === "stand-down") {
		return skip(
			"not-eligible",
			`${facts.otherDriver} drives this session and continues the agent itself; boulder stands down while it is active (builtInGoals: "take-over" lets boulder drive too)`,
		);
	}
	const ownList = work !== null && work.counts.total > 0;
	if (facts.foreign && !ownList) return skip("not-eligible", foreignText(facts.foreign));
	if (facts.boundElsewhere && !ownList) {
		const owner = facts.boundElsewhere;
		return skip(
			"not-eligible",
			`the active work "${owner.work}" belongs to ${owner.harness} session ${owner.sessionId}, and this session has no list of its own${handoverHint(owner)}`,
		);
	}

	// 3
	if (facts.planUnusable) return skip("no-open-work", planUnusableText(facts.planUnusable));
	if (!work || work.counts.total === 0) return skip("no-open-work", "there is no todo list or plan");
	let failedCheck: FailedCheck | null = null;
	if (work.counts.open === 0) {
		if (work.counts.blocked > 0) {
			return skip("no-open-work", `nothing left that can be done: ${work.counts.blocked} blocked, waiting on you`);
		}
		if (state.completed?.fingerprint === work.fingerprint) {
			return skip("no-open-work", "the work is complete (already reported)");
		}
		const verification =
			state.verification && state.verification.fingerprint === work.fingerprint ? state.verification : null;
		const fresh = verification !== null && (verification.passed || verification.turnSeq === state.turn?.seq);
		if (work.verify.length > 0 && !fresh) {
			if (facts.verifyHeld) return skip("no-open-work", verifyHeldText(facts.verifyHeld));
			if (facts.verifyRunning) {
				return skip(
					"background-busy",
					`every item is done; its verify commands are already running (process ${facts.verifyRunning.pid}); not starting them twice`,
				);
			}
			// A verify runs commands: never on a turn that could not be seen (fail closed, as guard 6).
			if (facts.turnUnseen) return skip("turn-unsafe", `how the last turn went cannot be seen: ${facts.turnUnseen}`);
			return finish(input, state, {
				kind: "verify",
				reason: "verify",
				detail: `every item is done; running ${work.verify.length} verify command(s)`,
				key: null,
				text: null,
				retryAt: null,
			});
		}
		if (work.verify.length === 0 || verification?.passed) {
			const key = `${input.scope}#complete.${work.fingerprint}`;
			return finish(
				input,
				{ ...state, completed: { fingerprint: work.fingerprint, at: now } },
				{
					kind: "complete",
					reason: "complete",
					detail: work.verify.length > 0 ? "every item is done and verified" : "every item is done",
					key,
					text: workCompleteMessage(work),
					retryAt: null,
				},
			);
		}
		failedCheck = {
			command: verification?.command ?? work.verify[0] ?? "",
			exitCode: verification?.exitCode ?? null,
			output: verification?.output ?? "",
		};
	}

	// 4
	if (state.abortBlock) {
		const how = state.abortBlock.how === "interrupt" ? "interrupted the agent" : "aborted the turn";
		return skip("user-aborted", `the user ${how}; waiting for their next message`);
	}

	// 5
	if (facts.pendingInput) {
		const what = { question: "a question", permission: "a permission request", wait: "an explicit wait" }[
			facts.pendingInput.kind
		];
		return skip("awaiting-user", `${what} is waiting for the user${suffix(facts.pendingInput.detail)}`);
	}
	if (config.questionDetection && facts.lastAssistantText && detectsQuestion(facts.lastAssistantText)) {
		return skip("awaiting-user", "the agent asked the user something and is waiting for the answer");
	}

	// 6
	const turn = state.turn;
	if (state.suppressNextIdle === "restart") {
		return finish(
			input,
			{ ...state, suppressNextIdle: null },
			{
				kind: "skip",
				reason: "turn-unsafe",
				detail: "this idle is left over from a turn the restart interrupted",
				key: null,
				text: null,
				retryAt: null,
				notice: false,
			},
		);
	}
	if (facts.turnUnseen) return skip("turn-unsafe", `how the last turn went cannot be seen: ${facts.turnUnseen}`);
	if (!turn) return skip("turn-unsafe", "no turn was seen yet; not continuing blind");
	if (turn.outcome === null) return skip("turn-unsafe", "the turn is still running");
	if (turn.outcome === "unknown") return skip("turn-unsafe", "how the last turn ended is unknown");
	if (turn.outcome === "aborted") return skip("turn-unsafe", "the last turn was aborted");

	// 7
	if (turn.outcome === "context-overflow") {
		return skip("context-overflow", "the last turn ran out of context; a nudge would fail the same way");
	}

	// 8
	const overdue = overdueTasks(facts.background ?? [], config.watchdog, now);
	const background = Math.max(0, (facts.backgroundTasks ?? 0) - overdue.length);
	if (background > 0) {
		const deadline = nextDeadline(facts.background ?? [], config.watchdog, now);
		const stale = overdue.length > 0 ? ` (not waiting for ${overdueText(overdue)})` : "";
		return skip(
			"background-busy",
			`${background} background task(s) still running${stale}; deciding again when they finish${deadline !== null ? " or run past their time limit" : ""}`,
			deadline !== null ? { retryAt: deadline } : {},
		);
	}
	const aborting = overdue.length > 0 && config.watchdog.abort && facts.canAbortChildren === true;
	const watchdog =
		overdue.length > 0
			? {
					detail: `; ${aborting ? "aborted" : "not waiting for"} ${overdueText(overdue)}`,
					text: `\n\n${watchdogNote(overdue, aborting)}`,
					...(aborting ? { abort: overdue.map((entry) => entry.task.id) } : {}),
				}
			: { detail: "", text: "" };

	// 9
	const last = state.lastDecision;
	if (last && last.turnSeq === turn.seq && last.kind === "inject" && last.delivery !== "failed") {
		return skip("duplicate", "a nudge was already sent for this turn", { key: last.key });
	}

	// 10
	if (state.failures?.kind === "delivery" && state.failures.count >= config.backoff.maxFailures) {
		return skip(
			"backoff",
			`gave up after ${state.failures.count} failed deliveries in a row; waiting for your next message`,
		);
	}
	if (state.episode && state.episode.errors >= config.backoff.maxFailures) {
		return skip(
			"backoff",
			`gave up after ${state.episode.errors} nudged turns failed on API errors; waiting for your next message`,
		);
	}
	if (state.failures) {
		const retryAt =
			state.failures.lastAt + backoffDelay(state.failures.count, config.backoff.baseMs, config.backoff.capMs);
		if (now < retryAt) {
			const what = state.failures.kind === "api" ? "API error" : "failed delivery";
			return skip("backoff", `backing off after ${state.failures.count} ${what}(s)`, { retryAt });
		}
	}

	// 11
	const found = state.episode ?? openEpisode(state, work, now);
	// Stamped ahead of now (the clock stepped back, or the file was forged): its time counts from here.
	const episode = found.startedAt > now ? { ...found, startedAt: now } : found;
	const spent: Record<BudgetKind, number> = {
		autoTurns: episode.autoTurns,
		tokens: episode.tokens,
		wallClockMs: elapsedSince(episode.startedAt, now),
	};
	const allowance = allowanceOf(config.budgets, episode.earned);
	for (const [kind, reason] of BUDGET_REASONS) {
		if (spent[kind] >= allowance.limit[kind]) {
			return skip(reason, budgetText(kind, spent[kind], allowance, config.budgets, episode.earned));
		}
	}

	// 12
	if (episode.stagnation >= config.stagnationLimit) {
		return skip("stagnation", `the last ${episode.stagnation} nudges brought no progress`);
	}

	// 13
	if (facts.harnessCap && facts.harnessCap.inRow + 1 >= facts.harnessCap.limit) {
		return skip("harness-cap", harnessCapText(facts.harnessCap, work.counts.open));
	}

	const key = `${input.scope}#${turn.seq}.${state.failures?.count ?? 0}`;
	const next: ContinuationState = {
		...state,
		episode: { ...episode, autoTurns: episode.autoTurns + 1 },
		lastDecision: { turnSeq: turn.seq, kind: "inject", reason: "", key, at: now, delivery: "pending" },
	};
	if (failedCheck) {
		return finish(input, next, {
			kind: "inject",
			reason: "verify-failed",
			detail: `every item is done but \`${failedCheck.command}\` fails; sending the failure back${watchdog.detail}`,
			key,
			text: verifyFailedPrompt(work, failedCheck) + watchdog.text,
			retryAt: null,
			...(watchdog.abort ? { abort: watchdog.abort } : {}),
		});
	}
	return finish(input, next, {
		kind: "inject",
		reason: "continue",
		detail: `${work.counts.open} item(s) still open; continuing with: ${work.next[0] ?? "the next item"}${watchdog.detail}`,
		key,
		text: continuationPrompt(work) + watchdog.text,
		retryAt: null,
		...(watchdog.abort ? { abort: watchdog.abort } : {}),
	});
}

/**
 * Progress accounting at every idle after a finished turn: beating the
 * episode's high-water marks is progress (churn never beats them twice), and
 * refills the grace. A delivered nudge that brought none counts toward
 * stagnation once, unless the agent changed files and grace is left. A nudge
 * whose turn died on an API error is not judged: the backoff and its cap
 * bound those.
 */
function account(input: IdleInput): ContinuationState {
	const { state, work, config } = input;
	const episode = state.episode;
	const turn = state.turn;
	if (!episode || !work || !turn || turn.outcome === null) return state;
	const open = work.counts.open;
	const done = doneCount(work);
	const marks = { bestOpen: Math.min(open, episode.bestOpen), bestDone: Math.max(done, episode.bestDone) };
	if (open < episode.bestOpen || done > episode.bestDone) {
		const gained = Math.max(episode.bestOpen - open, done - episode.bestDone);
		const earned = episode.earned + gained;
		return {
			...state,
			pendingCheck: null,
			episode: { ...episode, ...marks, earned, stagnation: 0, graceUsed: 0, errors: 0 },
		};
	}
	const check = state.pendingCheck;
	if (!check) return { ...state, episode: { ...episode, ...marks } };
	if (turn.outcome === "error") {
		return { ...state, pendingCheck: null, episode: { ...episode, ...marks, errors: episode.errors + 1 } };
	}
	if (check.activity > 0 && episode.graceUsed < config.activityGrace) {
		return { ...state, pendingCheck: null, episode: { ...episode, ...marks, graceUsed: episode.graceUsed + 1 } };
	}
	return { ...state, pendingCheck: null, episode: { ...episode, ...marks, stagnation: episode.stagnation + 1 } };
}

function openEpisode(state: ContinuationState, work: WorkView, now: number): Episode {
	return {
		id: `e${state.turn?.seq ?? 0}`,
		startedAt: now,
		autoTurns: 0,
		tokens: 0,
		stagnation: 0,
		graceUsed: 0,
		errors: 0,
		earned: 0,
		bestOpen: work.counts.open,
		bestDone: doneCount(work),
	};
}

function finish(input: IdleInput, next: ContinuationState, core: Verdict): Decision {
	const { config, now, work } = input;
	const episode = next.episode;
	const allowance = allowanceOf(config.budgets, episode?.earned ?? 0);
	const recorded: ContinuationState =
		core.kind === "inject"
			? next
			: {
					...next,
					lastDecision: {
						turnSeq: next.turn?.seq ?? 0,
						kind: core.kind,
						reason: core.reason,
						key: core.key,
						at: now,
						delivery: null,
					},
				};
	if (core.kind === "inject" && recorded.lastDecision) {
		recorded.lastDecision = { ...recorded.lastDecision, reason: core.reason };
	}
	// A skip must never erase a pending nudge's record, or its delivery report is lost.
	const keepPending =
		core.kind !== "inject" && next.lastDecision?.kind === "inject" && next.lastDecision.delivery === "pending";
	return {
		...core,
		figures: {
			open: work?.counts.open ?? 0,
			done: work?.counts.completed ?? 0,
			blocked: work?.counts.blocked ?? 0,
			total: work?.counts.total ?? 0,
			autoTurnsLeft: Math.max(0, allowance.limit.autoTurns - (episode?.autoTurns ?? 0)),
			tokensLeft: Math.max(0, allowance.limit.tokens - (episode?.tokens ?? 0)),
			msLeft: episode ? timeLeft(allowance.limit.wallClockMs, episode.startedAt, now) : allowance.limit.wallClockMs,
			stagnation: episode?.stagnation ?? 0,
			graceLeft: Math.max(0, config.activityGrace - (episode?.graceUsed ?? 0)),
			earned: episode?.earned ?? 0,
		},
		next: keepPending ? { ...recorded, lastDecision: next.lastDecision } : recorded,
	};
}

function harnessCapText(cap: HarnessCap, open: number): string {
	const most = Math.max(0, cap.limit - 1);
	const lift = cap.lift ? `raise ${cap.lift} to allow more` : "no setting raises it";
	return `${cap.harness} lets at most ${most} continuation(s) in a row through for one prompt and would override this nudge (${cap.inRow} went through), so the agent stops with ${open} item(s) open; ${lift}`;
}

function foreignText(foreign: ForeignWork): string {
	const what = `the active work "${foreign.work}" (${foreign.planPath})`;
	const fix = `\`boulder start ${foreign.planPath}\` (or \`boulder trust\`) takes it on; \`boulder doctor\` explains`;
	if (foreign.why === "other-worktree") {
		return `foreign state: ${what} names another folder as its worktree, so boulder does not act on it; ${fix}`;
	}
	return `foreign state: ${what} was not started by you on this machine (it came with the checkout or a copy), so boulder neither nudges nor verifies it; ${fix}`;
}

function verifyHeldText(held: VerifyHeld): string {
	return `every item is done, but its ${held.commands} verify command(s) were held back: you have not approved this command list on this machine; \`boulder trust\` shows and approves it`;
}

function planUnusableText(plan: PlanUnusable): string {
	switch (plan.problem) {
		case "missing":
			return `the plan file ${plan.path} is missing`;
		case "unreadable":
			return `the plan file ${plan.path} cannot be read${suffix(plan.detail)}`;
		case "errors":
			return `the plan ${plan.path} has errors${suffix(plan.detail)}; fix it: a plan boulder cannot read fully is never continued, verified or completed`;
	}
}

function switchedOffText(off: SwitchedOff): string {
	switch (off.kind) {
		case "worktree-stopped":
			return `continuation is stopped in this worktree (by ${off.by}); \`boulder go\` turns it on`;
		case "work-paused":
			return `the work "${off.work}" is paused; \`boulder resume\` continues it`;
		case "works-unreadable":
			return `the works file was unreadable and was moved aside (${off.movedTo ?? "in place"}); run \`boulder doctor\``;
	}
}

function suffix(detail: string | undefined): string {
	return detail ? `: ${detail}` : "";
}

const BUDGET_REASONS: readonly [BudgetKind, "budget-turns" | "budget-tokens" | "budget-time"][] = [
	["autoTurns", "budget-turns"],
	["tokens", "budget-tokens"],
	["wallClockMs", "budget-time"],
];

const BUDGET_WORDS: Record<BudgetKind, { what: string; show(value: number): string }> = {
	autoTurns: { what: "automatic turns", show: (value) => String(value) },
	tokens: { what: "real tokens", show: formatTokens },
	wallClockMs: { what: "of time", show: formatMinutes },
};

/** Which limit stopped the episode, how much it used, and the key that moves it. */
function budgetText(
	kind: BudgetKind,
	used: number,
	allowance: ReturnType<typeof allowanceOf>,
	budgets: Config["budgets"],
	earned: number,
): string {
	const words = BUDGET_WORDS[kind];
	const limit = words.show(allowance.limit[kind]);
	if (allowance.atCeiling[kind]) {
		return `the episode reached its ceiling of ${limit} ${words.what} (used ${words.show(used)}; \`budgets.ceiling.${kind}\` raises it)`;
	}
	const how = `${words.show(budgets[kind])} to start, ${words.show(budgets.perItem[kind])} more for each item done, ${earned} done`;
	return `the episode used the ${limit} ${words.what} it had earned (${how}; used ${words.show(used)}; \`budgets.${kind}\` and \`budgets.perItem.${kind}\` raise it)`;
}

function formatTokens(tokens: number): string {
	if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10} M`;
	if (tokens >= 1_000) return `${Math.round(tokens / 100) / 10} k`;
	return String(tokens);
}

function formatMinutes(ms: number): string {
	return `${Math.round(ms / 60_000)} min`;
}

/** How the user hands a work bound to another session over to the next one (`docs/handover.md`). */
export function handoverHint(owner: BoundElsewhere): string {
	if (!owner.planPath) return "";
	return `; \`boulder start ${owner.planPath}\` hands it to the next session that goes idle in this worktree`;
}
