/**
 * Invariants of the policy, for any configuration and any sequence of events.
 * Run counts are explicit so the closing note can quote them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Config } from "../../src/core/config.js";
import { type Decision, decide, type SessionFacts } from "../../src/core/policy.js";
import type { Todo } from "../../src/core/todos.js";
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
	type TurnOutcome,
} from "../../src/core/turns.js";
import { todosView } from "../../src/core/work-view.js";
import { T0 } from "./builders.js";

const RUNS = 1000;

const configArb = fc
	.record({
		stagnationLimit: fc.integer({ min: 1, max: 20 }),
		activityGrace: fc.integer({ min: 0, max: 10 }),
		autoTurns: fc.integer({ min: 1, max: 1000 }),
		tokens: fc.integer({ min: 1, max: 10_000_000 }),
		wallClockMs: fc.integer({ min: 1, max: 10 * 3_600_000 }),
		perItemTurns: fc.integer({ min: 0, max: 20 }),
		ceilingTurns: fc.option(fc.integer({ min: 1, max: 2000 })),
		ceilingTokens: fc.option(fc.integer({ min: 1, max: 100_000_000 })),
		baseMs: fc.integer({ min: 1, max: 60_000 }),
		capMs: fc.integer({ min: 1, max: 3_600_000 }),
		maxFailures: fc.integer({ min: 1, max: 10 }),
		questionDetection: fc.boolean(),
	})
	.map((c) =>
		Config.parse({
			stagnationLimit: c.stagnationLimit,
			activityGrace: c.activityGrace,
			budgets: {
				autoTurns: c.autoTurns,
				tokens: c.tokens,
				wallClockMs: c.wallClockMs,
				perItem: { autoTurns: c.perItemTurns },
				ceiling: { autoTurns: c.ceilingTurns, tokens: c.ceilingTokens },
			},
			backoff: { baseMs: c.baseMs, capMs: Math.max(c.baseMs, c.capMs), maxFailures: c.maxFailures },
			questionDetection: c.questionDetection,
		}),
	);

const outcomeArb = fc.oneof(
	{ arbitrary: fc.constant<TurnOutcome>("end"), weight: 6 },
	{ arbitrary: fc.constantFrom<TurnOutcome>("error", "length", "unknown", "context-overflow"), weight: 1 },
);

/** Things the agent, the harness and the clock may do, except a real user turn. */
const eventArb = fc.oneof(
	{ arbitrary: fc.record({ type: fc.constant("idle" as const), dupes: fc.integer({ min: 0, max: 2 }) }), weight: 6 },
	{
		arbitrary: fc.record({
			type: fc.constant("agent-turn" as const),
			outcome: outcomeArb,
			activity: fc.integer({ min: 0, max: 3 }),
			tokens: fc.integer({ min: 0, max: 50_000 }),
		}),
		weight: 6,
	},
	fc.record({ type: fc.constant("deliver-fails" as const) }),
	fc.record({ type: fc.constant("system-turn" as const), outcome: outcomeArb }),
	fc.record({ type: fc.constant("restart" as const) }),
	fc.record({ type: fc.constant("restart-signal" as const) }),
	fc.record({ type: fc.constant("churn" as const), how: fc.constantFrom("reorder", "flip", "reword", "add") }),
	fc.record({ type: fc.constant("background" as const), count: fc.integer({ min: 0, max: 2 }) }),
	fc.record({ type: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 600_000 }) }),
);
type Event = typeof eventArb extends fc.Arbitrary<infer E> ? E : never;

interface World {
	state: ContinuationState;
	list: Todo[];
	facts: SessionFacts;
	now: number;
	pendingKey: string | null;
	/** Nudges delivered to the agent: each started a continuation turn. */
	delivered: number;
	/** Of those, the ones whose turn died on an API error. */
	erroredNudges: number;
	/** The harness's own cap on continuations in a row, when it has one: the facts carry where the run stands. */
	harnessCap?: number;
}

function startList(): Todo[] {
	return [
		{ content: "write the parser", status: "completed" },
		{ content: "write the tests", status: "in_progress" },
		{ content: "update the docs", status: "pending" },
	];
}

/** Changes the list without real progress: the open set never shrinks and nothing new is completed. */
function churn(list: Todo[], how: string, step: number): Todo[] {
	const copy = list.map((todo) => ({ ...todo }));
	if (how === "reorder") return copy.reverse();
	if (how === "add") return [...copy, { content: `found more work ${step}`, status: "pending" }];
	const openIndex = copy.findIndex((todo) => todo.status === "pending" || todo.status === "in_progress");
	const target = copy[openIndex];
	if (!target) return copy;
	if (how === "flip") target.status = target.status === "pending" ? "in_progress" : "pending";
	if (how === "reword") target.content = `  ${target.content}  (reworded ${step})`;
	return copy;
}

function step(world: World, event: Event, config: Config, index: number, decisions: Decision[]): World {
	const { now } = world;
	switch (event.type) {
		case "idle": {
			let state = world.state;
			let pendingKey = world.pendingKey;
			for (let i = 0; i <= event.dupes; i++) {
				const harnessCap =
					world.harnessCap === undefined
						? null
						: { harness: "H", limit: world.harnessCap, inRow: world.delivered, lift: null };
				const decision = decide({
					state,
					work: todosView(world.list, 3),
					facts: { ...world.facts, harnessCap },
					config,
					now,
					scope: "p",
				});
				decisions.push(decision);
				state = decision.next;
				if (decision.kind === "inject") pendingKey = decision.key;
			}
			if (!pendingKey) return { ...world, state };
			return { ...world, state: onDelivered(state, pendingKey, now), pendingKey: null, delivered: world.delivered + 1 };
		}
		case "agent-turn": {
			const nudged = world.state.turn?.provenance === "continuation" && world.state.turn.outcome === null;
			const erroredNudges = world.erroredNudges + (nudged && event.outcome === "error" ? 1 : 0);
			const state = onTurnEnd(
				onActivity(world.state, event.activity),
				{ outcome: event.outcome, spend: { input: event.tokens, output: 0, cacheWrite: 0 } },
				now + 1,
			);
			return { ...world, state, now: now + 1, erroredNudges };
		}
		case "deliver-fails": {
			const last = world.state.lastDecision;
			if (last?.delivery !== "pending" || !last.key) return world;
			return { ...world, state: onDeliveryFailed(world.state, last.key, now) };
		}
		case "system-turn": {
			// A system turn that takes the place of a nudged turn still running is that nudge's answer:
			// when it dies on an API error, so did the nudge.
			const nudged = world.state.turn?.provenance === "continuation" && world.state.turn.outcome === null;
			const erroredNudges = world.erroredNudges + (nudged && event.outcome === "error" ? 1 : 0);
			return {
				...world,
				state: onTurnEnd(onTurnStart(world.state, "system", now), { outcome: event.outcome }, now + 1),
				erroredNudges,
			};
		}
		case "restart":
			return { ...world, state: onTurnStart(world.state, "restart", now) };
		case "restart-signal":
			return { ...world, state: onRestart(world.state) };
		case "churn":
			return { ...world, list: churn(world.list, event.how, index) };
		case "background":
			return { ...world, facts: { ...world.facts, backgroundTasks: event.count } };
		case "wait":
			return { ...world, now: now + event.ms };
	}
}

function play(config: Config, events: Event[], start: World): { decisions: Decision[]; world: World } {
	const decisions: Decision[] = [];
	let world = start;
	events.forEach((event, index) => {
		world = step(world, event, config, index, decisions);
	});
	return { decisions, world };
}

function userTurnWorld(): World {
	const state = onTurnEnd(onTurnStart(emptyContinuationState(), "user", T0), { outcome: "end" }, T0 + 1);
	return { state, list: startList(), facts: {}, now: T0 + 2, pendingKey: null, delivered: 0, erroredNudges: 0 };
}

describe("policy invariants", () => {
	it(`(a) bounds nudges without progress by the stagnation limit plus grace (plus the cap on API-error turns), and by the turn budget (${RUNS} runs)`, () => {
		let runs = 0;
		let runsWithNudges = 0;
		let runsAtTheBound = 0;
		fc.assert(
			fc.property(configArb, fc.array(eventArb, { maxLength: 200 }), (config, events) => {
				runs++;
				const { decisions, world } = play(config, events, userTurnWorld());
				const injects = decisions.filter((decision) => decision.kind === "inject");
				if (world.delivered > 0) runsWithNudges++;
				if (
					world.delivered - world.erroredNudges ===
					Math.min(
						config.stagnationLimit + config.activityGrace,
						config.budgets.autoTurns,
						config.budgets.ceiling.autoTurns ?? Number.POSITIVE_INFINITY,
					)
				) {
					runsAtTheBound++;
				}
				const turnLimit = Math.min(
					config.budgets.autoTurns,
					config.budgets.ceiling.autoTurns ?? Number.POSITIVE_INFINITY,
				);
				expect(injects.length).toBeLessThanOrEqual(turnLimit);
				const bound = config.stagnationLimit + config.activityGrace + config.backoff.maxFailures;
				expect(world.delivered).toBeLessThanOrEqual(bound);
				// Nudges the agent answered (its turn did not die on an API error) obey the tighter bound.
				expect(world.delivered - world.erroredNudges).toBeLessThanOrEqual(
					config.stagnationLimit + config.activityGrace,
				);
				expect(world.delivered).toBeLessThanOrEqual(turnLimit);
			}),
			{ numRuns: RUNS },
		);
		// The property is only worth something if the runs really nudged (of the runs made: a time bound may stop short of RUNS).
		expect(runsWithNudges).toBeGreaterThan(runs / 2);
		expect(runsAtTheBound).toBeGreaterThan(0);
	});

	it(`(f) never sends a nudge past the harness's own cap, and says so as harness-cap, never as a failed delivery (${RUNS} runs)`, () => {
		let runsAtTheCap = 0;
		fc.assert(
			fc.property(
				configArb,
				fc.integer({ min: 1, max: 12 }),
				fc.array(eventArb, { maxLength: 200 }),
				(config, cap, events) => {
					const { decisions, world } = play(config, events, { ...userTurnWorld(), harnessCap: cap });
					expect(world.delivered).toBeLessThanOrEqual(cap - 1);
					const capped = decisions.filter((decision) => decision.reason === "harness-cap");
					if (capped.length > 0) runsAtTheCap++;
					for (const decision of capped) {
						expect(decision).toMatchObject({ kind: "skip", notice: true, key: null });
					}
				},
			),
			{ numRuns: RUNS },
		);
		expect(runsAtTheCap).toBeGreaterThan(0);
	});

	it(`(b) never nudges after an abort until a real user turn, whatever else happens (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				configArb,
				fc.constantFrom("abort", "interrupt"),
				fc.array(eventArb, { maxLength: 120 }),
				(config, how, events) => {
					const world = userTurnWorld();
					const aborted =
						how === "abort"
							? onTurnEnd(onTurnStart(world.state, "user", T0), { outcome: "aborted" }, T0 + 1)
							: onUserAbort(world.state, "interrupt", T0 + 1);
					const { decisions } = play(config, events, { ...world, state: aborted });
					expect(decisions.filter((decision) => decision.kind === "inject")).toEqual([]);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it(`(c) never nudges while a question or permission is pending (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				configArb,
				fc.constantFrom("question" as const, "permission" as const, "wait" as const),
				fc.array(eventArb, { maxLength: 120 }),
				(config, kind, events) => {
					const world = { ...userTurnWorld(), facts: { pendingInput: { kind } } };
					const { decisions } = play(config, events, world);
					expect(decisions.filter((decision) => decision.kind === "inject")).toEqual([]);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it(`(d) decides as a function of its inputs and never mutates them (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				configArb,
				fc.array(eventArb, { maxLength: 60 }),
				fc.integer({ min: 0, max: 1e9 }),
				(config, events, later) => {
					const world = userTurnWorld();
					const decisions: Decision[] = [];
					let current = world;
					events.forEach((event, index) => {
						current = step(current, event, config, index, decisions);
					});
					const input = {
						state: deepFreeze(structuredClone(current.state)),
						work: deepFreeze(todosView(current.list, 3)),
						facts: deepFreeze({ ...current.facts }),
						config: deepFreeze(structuredClone(config)),
						now: current.now + later,
						scope: "p",
					};
					expect(decide(input)).toEqual(decide(structuredClone(input)));
				},
			),
			{ numRuns: RUNS },
		);
	});

	it(`(e) prompts depend on the work alone: no time, no state, no chance (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(fc.array(eventArb, { maxLength: 40 }), fc.integer({ min: 0, max: 1e12 }), (events, later) => {
				const config = Config.parse({});
				const { world } = play(config, events, userTurnWorld());
				const work = todosView(world.list, 3);
				const fresh = userTurnWorld().state;
				const a = decide({ state: fresh, work, facts: {}, config, now: T0 + 5, scope: "p" });
				const b = decide({ state: fresh, work, facts: {}, config, now: T0 + 5 + later, scope: "q" });
				expect(a.kind).toBe("inject");
				expect(b.text).toBe(a.text);
				expect(a.text).not.toContain(String(T0 + 5));
				expect(a.text).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}/);
				// A new message only: the prompt is text to append, the state change is the caller's.
				expect(a.next.turn).toEqual(fresh.turn);
			}),
			{ numRuns: RUNS },
		);
	});
});

function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object") {
		for (const inner of Object.values(value)) deepFreeze(inner);
		Object.freeze(value);
	}
	return value;
}
