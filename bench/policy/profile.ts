/**
 * A profile is a kind of session: an agent's habits, the user's behaviour, the
 * harness's faults, and the right outcome, stated about the work and the
 * user, not about any policy's rules. `setup` draws one scenario from the
 * profile's parameter ranges.
 */
import type { Agent, Item } from "./agent.js";
import type { Rng } from "./prng.js";

export type StopKind =
	/** Nothing to stop for: the work should get finished. */
	| "none"
	/** The user asked something or took over: wait for them. */
	| "wait-for-user"
	/** The user told it to stop: stay stopped. */
	| "stopped"
	/** What is left needs someone outside the session: stop and report it. */
	| "blocked"
	/** The agent cannot make progress: stop instead of pushing. */
	| "stuck"
	/**
	 * The harness ends the prompt's run at its own cap on continuations in a
	 * row before the list is done: stop before the cap (never a nudge it
	 * swallows) and let the user go on.
	 */
	| "harness-cap";

export interface Expectation {
	/** Every item within the agent's reach should end up really done. */
	finish: boolean;
	stop: StopKind;
	/** The right outcome in words, for the report. */
	text: string;
}

export interface UserScript {
	/** How long the user takes to answer a question, in ms. */
	answerDelayMs: number;
	/** Esc during the main session's `turn`-th turn (1-based), at `at` (0..1) of it; a message after `resumeAfterMs`. */
	esc: { turn: number; at: number; resumeAfterMs: number } | null;
	/** The stop command during the `turn`-th turn; a status question after `followUpAfterMs`. */
	stop: { turn: number; at: number; followUpAfterMs: number } | null;
}

export interface HarnessParams {
	/** Copies of each idle event of the main session (paired `session.idle` + `session.status`). */
	idleCopies: number;
	/** Chance of one more copy arriving late (0.5–4 s). */
	lateDuplicate: number;
	/** Chance that a turn fails on an API error after the harness's own retries. */
	apiErrorRate: number;
	/** A window in which every model call fails. */
	outage: { start: number; length: number } | null;
	deliveryFailRate: number;
	contextStart: number;
	contextLimit: number;
	/**
	 * The provider reads the context a model call carries over from its prompt
	 * cache (cache reads are not spend). false: it reports no cache reads, so
	 * every model call of a turn bills the whole context again as input.
	 */
	promptCache: boolean;
	/** One tool output this big in the main session's `turn`-th turn (a huge log, a generated file). */
	hugeOutput: { turn: number; tokens: number } | null;
	/** The harness restarts during the `turn`-th turn of the main session, at `at` of it. */
	restart: { turn: number; at: number; bootMs: number } | null;
	/**
	 * The harness's own cap on continuations in a row for one prompt (Qwen
	 * Code, Copilot CLI): the block in a row that it overrides, or null.
	 * A plugin can read where the run stands against it.
	 */
	continuationCap: number | null;
}

export interface Scenario {
	items: Item[];
	agent: Agent;
	user: UserScript;
	harness: HarnessParams;
	/** The plan asks for orchestrate mode: the main session should delegate its items, not do them itself. */
	orchestrating?: boolean;
	/** How long a subagent may run before its parent should stop waiting for it (the watchdog's default). */
	childLimitMs?: number;
	/** The drawn parameters, for the report. */
	params: Record<string, string | number | boolean>;
}

export interface Profile {
	name: string;
	summary: string;
	expect: Expectation;
	setup(rng: Rng): Scenario;
}

export function defaultUser(rng: Rng): UserScript {
	return { answerDelayMs: rng.int(2, 20) * 60_000, esc: null, stop: null };
}

export function defaultHarness(rng: Rng): HarnessParams {
	return {
		idleCopies: 1,
		lateDuplicate: 0,
		apiErrorRate: 0,
		outage: null,
		deliveryFailRate: 0,
		contextStart: rng.int(12, 30) * 1000,
		contextLimit: 200_000,
		promptCache: true,
		hugeOutput: null,
		restart: null,
		continuationCap: null,
	};
}

/** The time limit on a subagent a person would allow before calling it wedged: boulder's default. */
export const CHILD_LIMIT_MS = 30 * 60_000;

export const FINISH: Expectation = { finish: true, stop: "none", text: "finish the list" };
