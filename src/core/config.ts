/**
 * One schema for every limit and switch. It is the source of the config type,
 * its defaults, its validation messages and the published JSON Schema
 * (`schema/boulder.config.schema.json`).
 */
import { z } from "zod";
import { BoulderError } from "./errors.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const positiveInt = (min: number) => z.number().int().min(min);

export const Config = z
	.object({
		$schema: z.string().optional().describe("Path or URL of this file's JSON Schema, for editors."),
		enabled: z.boolean().default(true).describe("Master switch. false: boulder never nudges."),
		budgets: z
			.object({
				autoTurns: positiveInt(1)
					.max(10_000)
					.default(40)
					.describe(
						"Automatic continuations an episode (the run since the last real user turn) starts with; each item completed in it earns `perItem.autoTurns` more.",
					),
				tokens: positiveInt(1)
					.default(4_000_000)
					.describe(
						"Real tokens an episode's continued turns may spend to start with (uncached input + output + cache writes, as the provider bills them; cache reads never count); each item completed earns `perItem.tokens` more.",
					),
				wallClockMs: positiveInt(1)
					.default(180 * MINUTE)
					.describe(
						"Time an episode may run to start with, from its first nudge, in milliseconds; each item completed earns `perItem.wallClockMs` more.",
					),
				perItem: z
					.object({
						autoTurns: positiveInt(0)
							.max(1000)
							.default(5)
							.describe("Automatic continuations earned by each item completed in the episode."),
						tokens: positiveInt(0)
							.default(1_000_000)
							.describe("Real tokens earned by each item completed in the episode."),
						wallClockMs: positiveInt(0)
							.default(20 * MINUTE)
							.describe("Milliseconds earned by each item completed in the episode."),
					})
					.strict()
					.prefault({})
					.describe(
						"What real progress earns: a long list worked through steadily is finished; spend without progress is stopped by `stagnationLimit` first.",
					),
				ceiling: z
					.object({
						autoTurns: positiveInt(1)
							.nullable()
							.default(400)
							.describe("Most automatic continuations in one episode, whatever the progress; null: no ceiling."),
						tokens: positiveInt(1)
							.nullable()
							.default(100_000_000)
							.describe(
								"Most real tokens one episode may spend, whatever the progress (the money ceiling); null: none.",
							),
						wallClockMs: positiveInt(1)
							.nullable()
							.default(12 * 60 * MINUTE)
							.describe("Longest an episode may run, whatever the progress, in milliseconds; null: no ceiling."),
					})
					.strict()
					.prefault({})
					.describe("Hard limits per episode that progress never raises."),
			})
			.strict()
			.prefault({}),
		stagnationLimit: positiveInt(1)
			.max(20)
			.default(3)
			.describe("Stop after this many nudges in a row brought no real progress."),
		activityGrace: positiveInt(0)
			.max(10)
			.default(2)
			.describe(
				"Nudges in a row that may go without list progress when the agent changed files; refilled by real progress.",
			),
		backoff: z
			.object({
				baseMs: positiveInt(1)
					.default(5 * SECOND)
					.describe("First wait after a failed delivery or an API error."),
				capMs: positiveInt(1)
					.default(5 * MINUTE)
					.describe("Longest wait; the wait doubles per consecutive failure up to this."),
				maxFailures: positiveInt(1)
					.max(100)
					.default(6)
					.describe(
						"Give up until the user writes after this many failed deliveries in a row, or nudged turns lost to API errors without progress.",
					),
			})
			.strict()
			.refine((backoff) => backoff.baseMs <= backoff.capMs, {
				path: ["baseMs"],
				message: "no more than backoff.capMs (the first wait cannot be longer than the longest)",
			})
			.prefault({}),
		countdownMs: positiveInt(0)
			.max(60 * SECOND)
			.default(2 * SECOND)
			.describe("Pause before a nudge where the harness can show it and the user can cancel it."),
		skipAgents: z
			.array(z.string().min(1))
			.default(["plan", "compaction"])
			.describe("Agents never nudged (compared case-insensitively)."),
		questionDetection: z
			.boolean()
			.default(true)
			.describe("Treat a last assistant message that asks the user to decide as waiting for the user."),
		verifyTimeoutMs: positiveInt(1)
			.default(5 * MINUTE)
			.describe("Default timeout of each verify command of a plan."),
		nextItems: positiveInt(1).max(10).default(3).describe("How many open items a nudge names."),
		orchestrate: z
			.object({
				edits: z
					.enum(["warn", "deny", "off"])
					.default("warn")
					.describe(
						"What happens when an orchestrator (a work in orchestrate mode) changes a file itself, other than its plan and boulder's state: warn (the edit goes through, the model is told to delegate), deny (the edit is refused with that reason), off.",
					),
			})
			.strict()
			.prefault({})
			.describe("Orchestrate mode (`mode: orchestrate` in a plan, or `boulder start --orchestrate`)."),
		watchdog: z
			.object({
				limitMs: positiveInt(1)
					.default(30 * MINUTE)
					.describe(
						"How long a subagent or background task may run before it no longer holds its parent waiting: the next nudge names it and its age instead.",
					),
				perAgent: z
					.record(z.string().min(1), positiveInt(1))
					.default({})
					.describe('Limits per agent type (compared case-insensitively), in milliseconds, e.g. {"explore": 600000}.'),
				abort: z
					.boolean()
					.default(false)
					.describe(
						"OpenCode only: abort a child session that ran past its limit (through OpenCode's API), and say so in the nudge.",
					),
			})
			.strict()
			.prefault({})
			.describe("The watchdog on subagents and background tasks: no parent waits forever on a wedged child."),
		hygiene: z
			.object({
				editsBeforeReminder: z
					.union([positiveInt(0).max(10_000), z.literal(false)])
					.default(8)
					.describe(
						"File changes since the agent's list (its todos, or the plan) last changed, with items open, after which one short reminder to update the list rides on the next tool result; once per stretch of work. 0 or false: never.",
					),
			})
			.strict()
			.prefault({})
			.describe("Todo hygiene: the agent keeps its list honest while it works."),
	})
	.strict();
export type Config = z.infer<typeof Config>;
export type ConfigInput = z.input<typeof Config>;

export const DEFAULT_CONFIG: Config = Config.parse({});

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON Schema editors use; generated from `Config`, committed under `schema/`. */
export function configJsonSchema(): Record<string, unknown> {
	return z.toJSONSchema(Config, { io: "input" }) as Record<string, unknown>;
}
