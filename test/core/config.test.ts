import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Config, configIssues, configJsonSchema, mergeConfigInputs, parseConfig } from "../../src/core/config.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { isBoulderError } from "../../src/core/errors.js";

describe("config schema", () => {
	it("has defaults for every limit", () => {
		expect(DEFAULT_CONFIG.budgets).toEqual({
			autoTurns: 40,
			tokens: 4_000_000,
			wallClockMs: 10_800_000,
			perItem: { autoTurns: 5, tokens: 1_000_000, wallClockMs: 1_200_000 },
			ceiling: { autoTurns: 400, tokens: 100_000_000, wallClockMs: 43_200_000 },
		});
		expect(DEFAULT_CONFIG.stagnationLimit).toBe(3);
		expect(DEFAULT_CONFIG.activityGrace).toBe(2);
		expect(DEFAULT_CONFIG.backoff).toEqual({ baseMs: 5000, capMs: 300_000, maxFailures: 6 });
		expect(DEFAULT_CONFIG.countdownMs).toBe(2000);
		expect(DEFAULT_CONFIG.skipAgents).toEqual(["plan", "compaction"]);
		expect(DEFAULT_CONFIG.questionDetection).toBe(true);
	});

	it("fills a partial nested object with defaults", () => {
		expect(Config.parse({ budgets: { autoTurns: 5, ceiling: { tokens: null } } }).budgets).toEqual({
			autoTurns: 5,
			tokens: 4_000_000,
			wallClockMs: 10_800_000,
			perItem: { autoTurns: 5, tokens: 1_000_000, wallClockMs: 1_200_000 },
			ceiling: { autoTurns: 400, tokens: null, wallClockMs: 43_200_000 },
		});
	});

	it("rejects a first backoff wait longer than the longest, naming both keys", () => {
		const issues = configIssues({ backoff: { baseMs: 600_000, capMs: 1_000 } });
		expect(issues).toEqual([
			{
				key: "backoff.baseMs",
				value: 600_000,
				expected: "no more than backoff.capMs (the first wait cannot be longer than the longest)",
			},
		]);
		expect(configIssues({ backoff: { baseMs: 1_000, capMs: 1_000 } })).toEqual([]);
	});

	it("prints a number too large for JSON as what it is, not as null", () => {
		expect(() => parseConfig(JSON.parse('{"budgets":{"tokens":1e999}}'), "boulder.config.json")).toThrow(
			"budgets.tokens: Infinity (a number too large to use) — ",
		);
	});

	it("names the key, the value and the expectation of a bad value", () => {
		const issues = configIssues({ stagnationLimit: 0, budgets: { tokens: "lots" } });
		expect(issues).toContainEqual(expect.objectContaining({ key: "stagnationLimit", value: 0 }));
		expect(issues).toContainEqual(expect.objectContaining({ key: "budgets.tokens", value: "lots" }));
	});

	it("rejects a misspelt key instead of ignoring it", () => {
		expect(configIssues({ stagnationLimt: 2 })[0]?.key).toBe("stagnationLimt");
	});

	it("throws one coded error naming the file", () => {
		try {
			parseConfig({ countdownMs: -1 }, ".boulder/config.json");
			expect.unreachable();
		} catch (error) {
			expect(isBoulderError(error) && error.code).toBe("config-invalid");
			expect(String(error)).toContain(".boulder/config.json");
			expect(String(error)).toContain("countdownMs");
		}
	});

	it("merges layers with the later one winning, arrays replaced whole", () => {
		const merged = mergeConfigInputs(
			{ budgets: { autoTurns: 5, tokens: 9 }, skipAgents: ["a", "b"] },
			{ budgets: { autoTurns: 7 }, skipAgents: ["c"] },
		);
		expect(merged).toEqual({ budgets: { autoTurns: 7, tokens: 9 }, skipAgents: ["c"] });
	});

	it("matches the committed JSON Schema file", () => {
		const committed = JSON.parse(
			readFileSync(new URL("../../schema/boulder.config.schema.json", import.meta.url), "utf8"),
		);
		expect(committed).toEqual(configJsonSchema());
	});
});
