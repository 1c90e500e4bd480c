/**
 * One schema for every limit and switch. It is the source of the config type,
 * its defaults, its validation messages and the published JSON Schema
 * (`schema/boulder.config.schema.json`).
 */

import { BoulderError } from "./errors.js";
import {
	arrayOf,
	bool,
	defer,
	fields,
	handCheck,
	int,
	nonEmpty,
	nullOr,
	oneOf,
	optional,
	orDefault,
	recordOf,
	str,
} from "./hand-check.js";
import { z } from "./zod.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** An integer of at least `min`. */
const positiveInt = (min: number) => z.int().check(z.minimum(min));
/** An integer from `min` to `max`. */
const intIn = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));

/** A key with a default and the description editors show. */
function key<T extends z.ZodMiniType>(schema: T, value: z.core.util.NoUndefined<z.output<T>>, description: string) {
	return z._default(schema, value).check(z.describe(description));
}

/** A group of keys: strict, filled in when absent. */
function group<T extends z.core.$ZodLooseShape>(shape: T, description?: string) {
	// Every key of a group has a default, so an empty group is valid input.
	const filled = z.prefault(z.strictObject(shape), {} as z.input<z.ZodMiniObject<T, z.core.$strict>>);
	return description === undefined ? filled : filled.check(z.describe(description));
}

/** The schema itself; `Config` builds it on first use. */
const configSchema = () =>
	z.strictObject({
		$schema: z.optional(z.string()).check(z.describe("Path or URL of this file's JSON Schema, for editors.")),
		enabled: key(z.boolean(), true, "Master switch. false: boulder never nudges."),
		budgets: group({
			autoTurns: key(
				intIn(1, 10_000),
				40,
				"Automatic continuations an episode (the run since the last real user turn) starts with; each item completed in it earns `perItem.autoTurns` more.",
			),
			tokens: key(
				positiveInt(1),
				4_000_000,
				"Real tokens an episode's continued turns may spend to start with (uncached input + output + cache writes, as the provider bills them; cache reads never count); each item completed earns `perItem.tokens` more.",
			),
			wallClockMs: key(
				positiveInt(1),
				180 * MINUTE,
				"Time an episode may run to start with, from its first nudge, in milliseconds; each item completed earns `perItem.wallClockMs` more.",
			),
			perItem: group(
				{
					autoTurns: key(intIn(0, 1000), 5, "Automatic continuations earned by each item completed in the episode."),
					tokens: key(positiveInt(0), 1_000_000, "Real tokens earned by each item completed in the episode."),
					wallClockMs: key(positiveInt(0), 20 * MINUTE, "Milliseconds earned by each item completed in the episode."),
				},
				"What real progress earns: a long list worked through steadily is finished; spend without progress is stopped by `stagnationLimit` first.",
			),
			ceiling: group(
				{
					autoTurns: key(
						z.nullable(positiveInt(1)),
						400,
						"Most automatic continuations in one episode, whatever the progress; null: no ceiling.",
					),
					tokens: key(
						z.nullable(positiveInt(1)),
						100_000_000,
						"Most real tokens one episode may spend, whatever the progress (the money ceiling); null: none.",
					),
					wallClockMs: key(
						z.nullable(positiveInt(1)),
						12 * 60 * MINUTE,
						"Longest an episode may run, whatever the progress, in milliseconds; null: no ceiling.",
					),
				},
				"Hard limits per episode that progress never raises.",
			),
		}),
		stagnationLimit: key(intIn(1, 20), 3, "Stop after this many nudges in a row brought no real progress."),
		activityGrace: key(
			intIn(0, 10),
			2,
			"Nudges in a row that may go without list progress when the agent changed files; refilled by real progress.",
		),
		backoff: z.prefault(
			z
				.strictObject({
					baseMs: key(positiveInt(1), 5 * SECOND, "First wait after a failed delivery or an API error."),
					capMs: key(positiveInt(1), 5 * MINUTE, "Longest wait; the wait doubles per consecutive failure up to this."),
					maxFailures: key(
						intIn(1, 100),
						6,
						"Give up until the user writes after this many failed deliveries in a row, or nudged turns lost to API errors without progress.",
					),
				})
				.check(
					z.refine((backoff) => backoff.baseMs <= backoff.capMs, {
						path: ["baseMs"],
						message: "no more than backoff.capMs (the first wait cannot be longer than the longest)",
					}),
				),
			{},
		),
		countdownMs: key(
			intIn(0, 60 * SECOND),
			2 * SECOND,
			"Pause before a nudge where the harness can show it and the user can cancel it.",
		),
		skipAgents: key(
			z.array(z.string().check(z.minLength(1))),
			["plan", "compaction"],
			"Agents never nudged (compared case-insensitively).",
		),
		questionDetection: key(
			z.boolean(),
			true,
			"Treat a last assistant message that asks the user to decide as waiting for the user.",
		),
		builtInGoals: key(
			z.enum(["stand-down", "take-over"]),
			"stand-down",
			"When the harness's own goal mode drives a session (Claude Code's /goal, Codex goals, Copilot's --autopilot, Qwen Code's /goal): stand-down (boulder does not nudge while it is active, and `boulder why` names it) or take-over (boulder nudges as if it were not there; both then push the agent).",
		),
		verifyTimeoutMs: key(positiveInt(1), 5 * MINUTE, "Default timeout of each verify command of a plan."),
		nextItems: key(intIn(1, 10), 3, "How many open items a nudge names."),
		orchestrate: group(
			{
				edits: key(
					z.enum(["warn", "deny", "off"]),
					"warn",
					"What happens when an orchestrator (a work in orchestrate mode) changes a file itself, other than its plan and boulder's state: warn (the edit goes through, the model is told to delegate), deny (the edit is refused with that reason), off.",
				),
			},
			"Orchestrate mode (`mode: orchestrate` in a plan, or `boulder start --orchestrate`).",
		),
		watchdog: group(
			{
				limitMs: key(
					positiveInt(1),
					30 * MINUTE,
					"How long a subagent or background task may run before it no longer holds its parent waiting: the next nudge names it and its age instead.",
				),
				perAgent: key(
					z.record(z.string().check(z.minLength(1)), positiveInt(1)),
					{},
					'Limits per agent type (compared case-insensitively), in milliseconds, e.g. {"explore": 600000}.',
				),
				abort: key(
					z.boolean(),
					false,
					"OpenCode only: abort a child session that ran past its limit (through OpenCode's API), and say so in the nudge.",
				),
			},
			"The watchdog on subagents and background tasks: no parent waits forever on a wedged child.",
		),
		hygiene: group(
			{
				editsBeforeReminder: key(
					z.union([intIn(0, 10_000), z.literal(false)]),
					8,
					"File changes since the agent's list (its todos, or the plan) last changed, with items open, after which one short reminder to update the list rides on the next tool result; once per stretch of work. 0 or false: never.",
				),
			},
			"Todo hygiene: the agent keeps its list honest while it works.",
		),
	});

/**
 * Built when first used: a hook process that finds no config file (the
 * usual case) takes `defaultConfig()` and never needs the schema, whose
 * building (and first parse) is a good share of a hook's start-up.
 */
export const Config = z.lazy(configSchema);
export type Config = z.infer<typeof Config>;
export type ConfigInput = z.input<typeof Config>;

/**
 * What `Config.parse({})` gives, written out so that the usual hook (no
 * config file) neither builds nor runs the schema. The schema's defaults are
 * still the source: a test holds the two equal (`test/core/config-defaults.test.ts`).
 */
const DEFAULTS: Config = {
	enabled: true,
	budgets: {
		autoTurns: 40,
		tokens: 4_000_000,
		wallClockMs: 180 * MINUTE,
		perItem: { autoTurns: 5, tokens: 1_000_000, wallClockMs: 20 * MINUTE },
		ceiling: { autoTurns: 400, tokens: 100_000_000, wallClockMs: 720 * MINUTE },
	},
	stagnationLimit: 3,
	activityGrace: 2,
	backoff: { baseMs: 5 * SECOND, capMs: 5 * MINUTE, maxFailures: 6 },
	countdownMs: 2 * SECOND,
	skipAgents: ["plan", "compaction"],
	questionDetection: true,
	builtInGoals: "stand-down",
	verifyTimeoutMs: 5 * MINUTE,
	nextItems: 3,
	orchestrate: { edits: "warn" },
	watchdog: { limitMs: 30 * MINUTE, perAgent: {}, abort: false },
	hygiene: { editsBeforeReminder: 8 },
};

/** The config when no file sets anything (one object, shared, as a parse once cached would be). */
export function defaultConfig(): Config {
	return DEFAULTS;
}

/** `intIn(min, max)` by hand. */
const between =
	(min: number, max: number) =>
	(value: unknown): number => {
		const n = int(value, min);
		return n <= max ? n : defer();
	};
/** `positiveInt(min)` by hand. */
const atLeast =
	(min: number) =>
	(value: unknown): number =>
		int(value, min);
/** A group by hand: absent is `{}` (the schema's `z.prefault`), then a strict object of those keys. */
const groupOf = (value: unknown, keys: readonly string[]) => fields(value === undefined ? {} : value, keys);
const THREE = ["autoTurns", "tokens", "wallClockMs"] as const;

/**
 * `Config`'s well-formed case by hand (`hand-check.ts`): every hook process
 * loads the config, and a file of a few keys would otherwise build the whole
 * schema (a good share of a hook's start-up) to check them. Exactly what the
 * schema returns (defaults filled in, keys in the schema's order), or
 * undefined: anything else (an unknown key, a wrong type, a value out of
 * range) goes to the schema, which words the problem as always. Held to the
 * schema by `test/state/hand-checks.test.ts`.
 */
export const handConfig = handCheck((value): Config => {
	const top = fields(value, [
		"$schema",
		"enabled",
		"budgets",
		"stagnationLimit",
		"activityGrace",
		"backoff",
		"countdownMs",
		"skipAgents",
		"questionDetection",
		"builtInGoals",
		"verifyTimeoutMs",
		"nextItems",
		"orchestrate",
		"watchdog",
		"hygiene",
	]);
	const budgets = groupOf(top.budgets, [...THREE, "perItem", "ceiling"]);
	const perItem = groupOf(budgets.perItem, THREE);
	const ceiling = groupOf(budgets.ceiling, THREE);
	const backoff = groupOf(top.backoff, ["baseMs", "capMs", "maxFailures"]);
	const orchestrate = groupOf(top.orchestrate, ["edits"]);
	const watchdog = groupOf(top.watchdog, ["limitMs", "perAgent", "abort"]);
	const hygiene = groupOf(top.hygiene, ["editsBeforeReminder"]);
	const waits = {
		baseMs: orDefault(backoff.baseMs, DEFAULTS.backoff.baseMs, atLeast(1)),
		capMs: orDefault(backoff.capMs, DEFAULTS.backoff.capMs, atLeast(1)),
		maxFailures: orDefault(backoff.maxFailures, DEFAULTS.backoff.maxFailures, between(1, 100)),
	};
	if (waits.baseMs > waits.capMs) return defer();
	const orNull = (min: number) => (value: unknown) => nullOr(value, atLeast(min));
	return {
		...optional(top, "$schema", str),
		enabled: orDefault(top.enabled, DEFAULTS.enabled, bool),
		budgets: {
			autoTurns: orDefault(budgets.autoTurns, DEFAULTS.budgets.autoTurns, between(1, 10_000)),
			tokens: orDefault(budgets.tokens, DEFAULTS.budgets.tokens, atLeast(1)),
			wallClockMs: orDefault(budgets.wallClockMs, DEFAULTS.budgets.wallClockMs, atLeast(1)),
			perItem: {
				autoTurns: orDefault(perItem.autoTurns, DEFAULTS.budgets.perItem.autoTurns, between(0, 1000)),
				tokens: orDefault(perItem.tokens, DEFAULTS.budgets.perItem.tokens, atLeast(0)),
				wallClockMs: orDefault(perItem.wallClockMs, DEFAULTS.budgets.perItem.wallClockMs, atLeast(0)),
			},
			ceiling: {
				autoTurns: orDefault(ceiling.autoTurns, DEFAULTS.budgets.ceiling.autoTurns, orNull(1)),
				tokens: orDefault(ceiling.tokens, DEFAULTS.budgets.ceiling.tokens, orNull(1)),
				wallClockMs: orDefault(ceiling.wallClockMs, DEFAULTS.budgets.ceiling.wallClockMs, orNull(1)),
			},
		},
		stagnationLimit: orDefault(top.stagnationLimit, DEFAULTS.stagnationLimit, between(1, 20)),
		activityGrace: orDefault(top.activityGrace, DEFAULTS.activityGrace, between(0, 10)),
		backoff: waits,
		countdownMs: orDefault(top.countdownMs, DEFAULTS.countdownMs, between(0, 60 * SECOND)),
		// A fresh array, as the schema's default is a copy of its own.
		skipAgents: top.skipAgents === undefined ? [...DEFAULTS.skipAgents] : arrayOf(top.skipAgents, nonEmpty),
		questionDetection: orDefault(top.questionDetection, DEFAULTS.questionDetection, bool),
		builtInGoals: orDefault(top.builtInGoals, DEFAULTS.builtInGoals, (goals) =>
			oneOf(goals, ["stand-down", "take-over"]),
		),
		verifyTimeoutMs: orDefault(top.verifyTimeoutMs, DEFAULTS.verifyTimeoutMs, atLeast(1)),
		nextItems: orDefault(top.nextItems, DEFAULTS.nextItems, between(1, 10)),
		orchestrate: {
			edits: orDefault(orchestrate.edits, DEFAULTS.orchestrate.edits, (edits) => oneOf(edits, ["warn", "deny", "off"])),
		},
		watchdog: {
			limitMs: orDefault(watchdog.limitMs, DEFAULTS.watchdog.limitMs, atLeast(1)),
			perAgent: watchdog.perAgent === undefined ? {} : perAgentLimits(watchdog.perAgent),
			abort: orDefault(watchdog.abort, DEFAULTS.watchdog.abort, bool),
		},
		hygiene: {
			editsBeforeReminder: orDefault(hygiene.editsBeforeReminder, DEFAULTS.hygiene.editsBeforeReminder, (edits) =>
				edits === false ? false : between(0, 10_000)(edits),
			),
		},
	};
});

/** `watchdog.perAgent` by hand: a plain object of non-empty keys to limits. */
function perAgentLimits(value: unknown): Record<string, number> {
	const limits = recordOf(value, atLeast(1));
	return Object.hasOwn(limits, "") ? defer() : limits;
}

export interface ConfigIssue {
	key: string;
	value: unknown;
	expected: string;
}

/** A config value as people read it: `1e999` parses to Infinity, which JSON would print as `null`. */
export function formatConfigValue(value: unknown): string {
	if (typeof value === "number" && !Number.isFinite(value)) {
		return `${String(value)} (a number too large to use)`;
	}
	return JSON.stringify(value) ?? String(value);
}

/** Readable issues: which key, what value it had, what was expected. */
export function configIssues(input: unknown): ConfigIssue[] {
	const result = Config.safeParse(input);
	if (result.success) return [];
	return result.error.issues.map((issue) => {
		const path = issue.path.map(String);
		const key = path.length > 0 ? path.join(".") : "(top level)";
		let value: unknown = input;
		for (const segment of path) {
			value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[segment] : undefined;
		}
		if (issue.code === "unrecognized_keys") {
			return { key: issue.keys.join(", "), value: undefined, expected: "no such key (check the spelling)" };
		}
		return { key, value, expected: issue.message };
	});
}

/** Parses a config object, naming the file, key, value and expectation when it is bad. */
export function parseConfig(input: unknown, source: string): Config {
	const quick = handConfig(input);
	if (quick !== undefined) return quick;
	const result = Config.safeParse(input);
	if (result.success) return result.data;
	const lines = configIssues(input).map(
		(issue) =>
			`  ${issue.key}: ${issue.value === undefined ? "" : `${formatConfigValue(issue.value)} — `}${issue.expected}`,
	);
	throw new BoulderError("config-invalid", `${source} is not a valid boulder config:\n${lines.join("\n")}`);
}

/** Deep-merges config layers; later layers win, arrays are replaced whole. */
export function mergeConfigInputs(...layers: readonly Record<string, unknown>[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const layer of layers) {
		for (const [key, value] of Object.entries(layer)) {
			const current = out[key];
			out[key] = isPlainObject(current) && isPlainObject(value) ? mergeConfigInputs(current, value) : value;
		}
	}
	return out;
}

/**
 * A project's config may tighten the user's hard limits, never loosen them
 * (a checkout must not lift the user's spending ceiling): each
 * `budgets.ceiling.*` of the effective config is the tighter of its own and
 * the one without the project (null: none, the loosest).
 */
export function ceilingsCappedBy(config: Config, user: Config): Config {
	const ceiling = { ...config.budgets.ceiling };
	for (const kind of Object.keys(ceiling) as (keyof typeof ceiling)[]) {
		const mine = user.budgets.ceiling[kind];
		const theirs = ceiling[kind];
		ceiling[kind] = mine === null ? theirs : theirs === null ? mine : Math.min(mine, theirs);
	}
	return { ...config, budgets: { ...config.budgets, ceiling } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON Schema editors use; generated from `Config`, committed under `schema/`. */
export function configJsonSchema(): Record<string, unknown> {
	return z.toJSONSchema(Config, { io: "input" }) as Record<string, unknown>;
}
