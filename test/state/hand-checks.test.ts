/**
 * The drift guard of the hand-written checks (`core/hand-check.ts`) of the
 * files a hook reads on every event: for well-formed documents and for the
 * same documents mutated (a value replaced, a key dropped or added, keys
 * reordered, an undefined, a `__proto__`, a number one past where it was), each check either returns exactly
 * what its zod schema's parse returns (same value, same key order) or defers
 * to the schema: it never accepts what the schema rejects. Bounded by time
 * (`test/support/property-bounds.ts`); a failure prints fast-check's seed.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Config, handConfig } from "../../src/core/config.js";
import { DecisionRecord, handDecisionRecord } from "../../src/core/decision-record.js";
import { PLAN_MODES } from "../../src/core/front-matter.js";
import { scopeFileSpec } from "../../src/state/file-store.js";
import { trustFileSpec } from "../../src/state/trust.js";
import type { VersionedFileSpec } from "../../src/state/versioned-file.js";
import { worksFileSpec } from "../../src/state/works.js";
import { worktreeIndexSpec } from "../../src/state/worktree-index.js";

const RUNS = 1000;

const time = fc.oneof(
	fc.integer({ min: 0, max: 2_000_000_000_000 }),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const count = fc.nat({ max: 1000 });
const text = fc.string({ maxLength: 6 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 6 });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
/** A record keyed by arbitrary strings (`__proto__` among them now and then). */
const keyed = <T>(arb: fc.Arbitrary<T>) =>
	fc.dictionary(fc.oneof({ arbitrary: text, weight: 10 }, fc.constant("__proto__"), fc.constant("constructor")), arb, {
		maxKeys: 3,
		noNullPrototype: true,
	});
/** Objects as `JSON.parse` makes them (fast-check also makes null-prototype ones, which the checks leave to zod). */
const record = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, required?: (keyof T)[]) =>
	fc.record(model, { noNullPrototype: true, ...(required ? { requiredKeys: required } : {}) });

/** What a mutation may put in: JSON of every kind, and the values JSON cannot make but a writer could. */
const anyValue = fc.oneof(
	{ arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			undefined,
			Number.NaN,
			Number.POSITIVE_INFINITY,
			-0,
			2 ** 53,
			-1,
			0,
			0.5,
			"",
			"__proto__",
			[],
			{},
		),
	},
);

const NEAR_NUMBERS = [-1, 0, -0, 0.5, 2 ** 53, Number.NaN];

type Mutation =
	| { kind: "replace"; at: number; value: unknown }
	| { kind: "drop"; at: number; pick: number }
	| { kind: "add"; at: number; key: string; value: unknown }
	| { kind: "reorder"; at: number }
	| { kind: "near"; at: number; pick: number }
	| { kind: "step"; at: number; pick: number }
	| { kind: "undefined"; at: number; pick: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: anyValue }),
	fc.record({ kind: fc.constant("drop" as const), at: fc.nat(), pick: fc.nat() }),
	fc.record({
		kind: fc.constant("add" as const),
		at: fc.nat(),
		key: fc.oneof(text, fc.constant("__proto__")),
		value: anyValue,
	}),
	fc.record({ kind: fc.constant("reorder" as const), at: fc.nat() }),
	fc.record({ kind: fc.constant("near" as const), at: fc.nat(), pick: fc.nat() }),
	fc.record({ kind: fc.constant("step" as const), at: fc.nat(), pick: fc.nat() }),
	fc.record({ kind: fc.constant("undefined" as const), at: fc.nat(), pick: fc.nat() }),
);

/** Every object and array inside `value`, itself first. */
function containers(value: unknown, into: object[] = []): object[] {
	if (typeof value !== "object" || value === null) return into;
	into.push(value);
	for (const child of Object.values(value)) containers(child, into);
	return into;
}

/** Sets an own key (`__proto__` too); the value copied, as fast-check hands out the same constants every run. */
function define(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value: structuredClone(value),
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** `doc` (a fresh copy) with the mutations applied. */
function mutated(doc: unknown, mutations: readonly Mutation[]): unknown {
	let root: unknown = structuredClone(doc);
	for (const change of mutations) {
		const all = containers(root);
		if (all.length === 0 || change.kind === "replace") {
			if (change.kind === "replace" && all.length > 0) {
				const parent = all[change.at % all.length] as Record<string, unknown>;
				const keys = Object.keys(parent);
				if (keys.length === 0) continue;
				define(parent, keys[change.at % keys.length] as string, change.value);
			} else if (change.kind === "replace") root = structuredClone(change.value);
			continue;
		}
		const target = all[change.at % all.length] as Record<string, unknown>;
		const keys = Object.keys(target);
		if (change.kind === "add") {
			// An array's `length` is no key a file can hold: it cannot be redefined, only set by the array.
			if (!(Array.isArray(target) && change.key === "length")) define(target, change.key, change.value);
		} else if (keys.length === 0) continue;
		else if (change.kind === "near") {
			// A leaf just outside what a check may take: an empty string, a negative, fractional or unsafe number.
			const key = keys[change.at % keys.length] as string;
			const value = target[key];
			if (typeof value === "string") target[key] = "";
			else if (typeof value === "number") target[key] = NEAR_NUMBERS[change.pick % NEAR_NUMBERS.length];
		} else if (change.kind === "step") {
			// A number one past a bound the document may sit on (a range's edge, a minimum).
			const key = keys[change.at % keys.length] as string;
			const value = target[key];
			if (typeof value === "number") target[key] = value + (change.pick % 2 === 0 ? 1 : -1);
		} else if (change.kind === "drop") {
			if (Array.isArray(target)) target.splice(change.pick % target.length, 1);
			else delete target[keys[change.pick % keys.length] as string];
		} else if (change.kind === "undefined") target[keys[change.pick % keys.length] as string] = undefined;
		else if (!Array.isArray(target)) {
			const entries = Object.entries(target).reverse();
			for (const key of keys) delete target[key];
			for (const [key, value] of entries) define(target, key, value);
		}
	}
	return root;
}

interface Tally {
	accepted: number;
	deferred: number;
	rejectedByZod: number;
}

/** The check's contract on one document; counts what happened so the property can show it is not vacuous. */
function holds<T>(spec: VersionedFileSpec<T>, doc: unknown, tally: Tally): void {
	const quick = spec.quick;
	if (!quick) throw new Error(`${spec.label} has no hand check`);
	const hand = quick(doc);
	const parsed = spec.schema.safeParse(doc);
	if (!parsed.success) tally.rejectedByZod++;
	if (hand === undefined) {
		tally.deferred++;
		return;
	}
	tally.accepted++;
	expect(parsed.success, `${spec.label}: accepted what zod rejects`).toBe(true);
	if (!parsed.success) return;
	// Node's deep equality, not vitest's: a record key named `constructor` confuses the latter's type check.
	expect(isDeepStrictEqual(hand, parsed.data), `${spec.label}: returned something else than zod`).toBe(true);
	expect(JSON.stringify(hand)).toBe(JSON.stringify(parsed.data));
}

function guard<T>(spec: VersionedFileSpec<T>, valid: fc.Arbitrary<unknown>): void {
	describe(`the hand check of the ${spec.label}`, () => {
		it("returns exactly what the schema returns for a well-formed file", () => {
			const tally: Tally = { accepted: 0, deferred: 0, rejectedByZod: 0 };
			fc.assert(
				fc.property(valid, (doc) => holds(spec, doc, tally)),
				{ numRuns: RUNS },
			);
			expect(tally.rejectedByZod).toBe(0);
			// Not vacuous: the well-formed case is taken by hand, not left to zod.
			expect(tally.accepted).toBeGreaterThan((tally.accepted + tally.deferred) / 2);
		});

		it("never accepts a mutated file the schema rejects, nor returns anything else", () => {
			const tally: Tally = { accepted: 0, deferred: 0, rejectedByZod: 0 };
			fc.assert(
				fc.property(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }), (doc, mutations) =>
					holds(spec, mutated(doc, mutations), tally),
				),
				{ numRuns: RUNS },
			);
			// Not vacuous: the mutations make files zod rejects, and some the hand check still takes.
			expect(tally.rejectedByZod).toBeGreaterThan(0);
			expect(tally.accepted).toBeGreaterThan(0);
		});
	});
}

const worktreeIndex = record({
	schemaVersion: fc.constant(1),
	worktrees: keyed(record({ root: nonEmpty, firstSeen: time, lastSeen: time })),
});

const trustFile = record({
	schemaVersion: fc.constant(1),
	root: nonEmpty,
	works: keyed(record({ startedAt: time, at: time })),
	verify: fc.array(record({ commands: fc.array(text, { maxLength: 3 }), at: time }), { maxLength: 3 }),
});

const byWhom = record({ at: time, by: text });
const work = record(
	{
		id: nonEmpty,
		planPath: nonEmpty,
		name: text,
		status: fc.constantFrom("active", "paused", "completed", "abandoned"),
		startedAt: time,
		endedAt: nullable(time),
		elapsedMs: nullable(count),
		sessions: fc.array(
			record({ harness: text, sessionId: text, how: fc.constantFrom("direct", "appended"), at: time }),
			{ maxLength: 2 },
		),
		agent: nullable(text),
		worktree: text,
		subagentSessions: keyed(text),
		verify: fc.array(text, { maxLength: 2 }),
		verifyTimeoutMs: nullable(fc.integer({ min: 1, max: 1_000_000 })),
		lastVerification: nullable(
			record({
				at: time,
				passed: fc.boolean(),
				command: nullable(text),
				exitCode: nullable(fc.integer({ min: -255, max: 255 })),
				output: text,
			}),
		),
		mode: fc.constantFrom(...PLAN_MODES),
		handover: nullable(byWhom),
	},
	[
		"id",
		"planPath",
		"name",
		"status",
		"startedAt",
		"endedAt",
		"elapsedMs",
		"sessions",
		"agent",
		"worktree",
		"subagentSessions",
		"verify",
		"verifyTimeoutMs",
		"lastVerification",
	],
);

const worksFile = fc
	.tuple(fc.uniqueArray(work, { selector: (item) => item.id, maxLength: 3 }), fc.nat(), fc.boolean(), nullable(byWhom))
	.map(([works, pick, active, stopped]) => {
		const byId: Record<string, unknown> = {};
		for (const item of works) define(byId, item.id, item);
		const ids = Object.keys(byId);
		return {
			schemaVersion: 2,
			activeWorkId: active && ids.length > 0 ? ids[pick % ids.length] : null,
			stopped,
			works: byId,
		};
	});

const todo = record(
	{
		content: nonEmpty,
		status: fc.constantFrom("pending", "in_progress", "completed", "cancelled", "blocked"),
		id: text,
		priority: fc.constantFrom("high", "medium", "low"),
	},
	["content", "status"],
);

const continuationState = record(
	{
		turn: nullable(
			record({
				seq: count,
				provenance: fc.constantFrom("user", "continuation", "system", "restart"),
				startedAt: time,
				outcome: nullable(fc.constantFrom("end", "aborted", "error", "length", "context-overflow", "unknown")),
				endedAt: nullable(time),
				tokens: count,
				activity: count,
				nudgeKey: nullable(text),
			}),
		),
		seq: count,
		episode: nullable(
			record(
				{
					id: text,
					startedAt: time,
					autoTurns: count,
					tokens: count,
					stagnation: count,
					graceUsed: count,
					errors: count,
					earned: count,
					bestOpen: count,
					bestDone: count,
				},
				["id", "startedAt", "autoTurns", "tokens", "stagnation", "graceUsed", "bestOpen", "bestDone"],
			),
		),
		abortBlock: nullable(record({ at: time, how: fc.constantFrom("abort", "interrupt") })),
		restartAbortPending: fc.boolean(),
		suppressNextIdle: nullable(fc.constant("restart")),
		failures: nullable(
			record({ count: fc.integer({ min: 1, max: 9 }), lastAt: time, kind: fc.constantFrom("delivery", "api") }),
		),
		lastDecision: nullable(
			record({
				turnSeq: count,
				kind: fc.constantFrom("inject", "verify", "complete", "skip"),
				reason: text,
				key: nullable(text),
				at: time,
				delivery: nullable(fc.constantFrom("pending", "delivered", "failed")),
			}),
		),
		pendingCheck: nullable(record({ key: text, activity: count })),
		completed: nullable(record({ fingerprint: text, at: time })),
		verification: nullable(
			record({
				fingerprint: text,
				turnSeq: count,
				passed: fc.boolean(),
				at: time,
				command: nullable(text),
				exitCode: nullable(fc.integer({ min: -255, max: 255 })),
				output: text,
			}),
		),
		endedMarker: nullable(text),
		disabled: nullable(record({ at: time, by: text, untilUserTurn: fc.boolean() }, ["at", "by"])),
		todos: nullable(fc.array(todo, { maxLength: 4 })),
		observed: record(
			{
				harness: nullable(text),
				sessionId: nullable(text),
				agent: nullable(text),
				backgroundTasks: count,
				background: fc.array(record({ id: text, agent: nullable(text), startedAt: time }), { maxLength: 2 }),
				pendingInput: nullable(
					record({ kind: fc.constantFrom("question", "permission", "wait"), detail: text }, ["kind"]),
				),
				transcriptPath: text,
			},
			["harness", "sessionId", "agent", "backgroundTasks", "pendingInput"],
		),
	},
	[
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
		"disabled",
		"todos",
		"observed",
	],
);

guard(worktreeIndexSpec, worktreeIndex);
guard(trustFileSpec, trustFile);
guard(worksFileSpec({ worktree: "/w", harness: "claude-code" }), worksFile);
guard(
	scopeFileSpec,
	continuationState.map((state) => ({ schemaVersion: 1, state })),
);

const decisionRecord = record(
	{
		v: fc.constant(1),
		at: time,
		worktree: text,
		scope: nullable(text),
		harness: nullable(text),
		session: nullable(text),
		work: nullable(text),
		kind: fc.constantFrom("inject", "verify", "complete", "skip", "event"),
		reason: text,
		detail: text,
		figures: keyed(time),
		key: nullable(text),
		retryAt: nullable(time),
		promptId: text,
	},
	["v", "at", "worktree", "scope", "harness", "session", "work", "kind", "reason", "detail"],
);

guard(
	{ label: "decision record", currentVersion: 1, migrations: [], schema: DecisionRecord, quick: handDecisionRecord },
	decisionRecord,
);

/** An integer from `min` to `max`, its edges often. */
const within = (min: number, max: number) => fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
/** An integer at or just past the edges of `min` to `max`, or inside. */
const around = (min: number, max: number) =>
	fc.oneof(fc.constantFrom(min - 1, min, max, max + 1), fc.integer({ min: min - 1, max: max + 1 }));
const optionalRecord = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => record(model, []);

/**
 * A config file as people write them: any of the keys (`core/config.ts`), each
 * an integer from `int` (within its range, or around it), agents named by `agent`.
 */
function configFile(
	int: typeof within,
	agent: fc.Arbitrary<string>,
	waits: (backoff: Record<string, number>) => boolean,
) {
	const limit = (min: number) => int(min, 2 ** 40);
	const three = (autoTurns: fc.Arbitrary<number | null>, rest: fc.Arbitrary<number | null>) =>
		optionalRecord({ autoTurns, tokens: rest, wallClockMs: rest });
	return optionalRecord({
		$schema: text,
		enabled: fc.boolean(),
		budgets: optionalRecord({
			autoTurns: int(1, 10_000),
			tokens: limit(1),
			wallClockMs: limit(1),
			perItem: three(int(0, 1000), limit(0)),
			ceiling: three(nullable(limit(1)), nullable(limit(1))),
		}),
		stagnationLimit: int(1, 20),
		activityGrace: int(0, 10),
		backoff: optionalRecord({ baseMs: limit(1), capMs: limit(1), maxFailures: int(1, 100) }).filter(waits),
		countdownMs: int(0, 60_000),
		skipAgents: fc.array(agent, { maxLength: 3 }),
		questionDetection: fc.boolean(),
		builtInGoals: fc.constantFrom("stand-down", "take-over"),
		verifyTimeoutMs: limit(1),
		nextItems: int(1, 10),
		orchestrate: optionalRecord({ edits: fc.constantFrom("warn", "deny", "off") }),
		watchdog: optionalRecord({
			limitMs: limit(1),
			perAgent: fc.dictionary(agent, limit(1), { maxKeys: 3, noNullPrototype: true }),
			abort: fc.boolean(),
		}),
		hygiene: optionalRecord({ editsBeforeReminder: fc.oneof(int(0, 10_000), fc.constant(false)) }),
	});
}

const configSpec = { label: "config", currentVersion: 1, migrations: [], schema: Config, quick: handConfig };
guard(
	configSpec,
	configFile(within, nonEmpty, (backoff) => (backoff.baseMs ?? 5000) <= (backoff.capMs ?? 300_000)),
);

describe("the hand check of the config, at the edges", () => {
	it("takes a config at its ranges' edges as the schema does, and leaves one just past them to the schema", () => {
		const tally: Tally = { accepted: 0, deferred: 0, rejectedByZod: 0 };
		fc.assert(
			fc.property(
				configFile(around, text, () => true),
				(doc) => holds(configSpec, doc, tally),
			),
			{ numRuns: RUNS },
		);
		// Not vacuous: both sides of the edges are drawn.
		expect(tally.rejectedByZod).toBeGreaterThan(0);
		expect(tally.accepted).toBeGreaterThan(0);
	});
});
