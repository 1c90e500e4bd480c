import { describe, expect, it } from "vitest";
import { parsePlan } from "../../src/core/plan-parser.js";

const lines = (...text: string[]): string => text.join("\n");

describe("front matter", () => {
	it("reads verify as one command, a block list or a flow list, quoted or not", () => {
		expect(parsePlan(lines("---", "verify: npm test", "---")).frontMatter.verify).toEqual(["npm test"]);
		expect(
			parsePlan(
				lines("---", "verify:", "  - npm run lint", '  - "npm test -- --grep \\"a: b\\""', "- 'it''s ok'", "---"),
			).frontMatter.verify,
		).toEqual(["npm run lint", 'npm test -- --grep "a: b"', "it's ok"]);
		expect(
			parsePlan(lines("---", "verify: [npm test, 'tsc --noEmit', \"make, check\"]", "---")).frontMatter.verify,
		).toEqual(["npm test", "tsc --noEmit", "make, check"]);
		expect(parsePlan(lines("---", "verify: []", "---")).frontMatter.verify).toEqual([]);
	});

	it("strips YAML comments from unquoted values but keeps # inside words and quotes", () => {
		const plan = parsePlan(
			lines("---", "# a comment line", "verify:", "  - test $# -eq 0 # count args", '  - "echo # kept"', "---"),
		);
		expect(plan.frontMatter.verify).toEqual(["test $# -eq 0", "echo # kept"]);
		expect(plan.errors).toEqual([]);
	});

	it.each([
		["90s", 90_000],
		["5m", 300_000],
		["1m30s", 90_000],
		["1.5h", 5_400_000],
		["250ms", 250],
		["1500", 1500],
		['"2m"', 120_000],
	])("reads verify_timeout %s as %i ms", (value, ms) => {
		expect(parsePlan(lines("---", `verify_timeout: ${value}`, "---")).frontMatter.verifyTimeoutMs).toBe(ms);
	});

	it("accepts verifyTimeout, name and title", () => {
		expect(parsePlan(lines("---", "verifyTimeout: 10s", "name: Billing", "---")).frontMatter).toEqual({
			verify: [],
			verifyTimeoutMs: 10_000,
			name: "Billing",
			mode: null,
		});
		expect(parsePlan(lines("---", 'title: "Quoted: title"', "---")).frontMatter.name).toBe("Quoted: title");
	});

	it("ignores unknown keys with everything indented under them", () => {
		const plan = parsePlan(
			lines(
				"---",
				"owner: sam",
				"tags:",
				"  - infra",
				"  - q3",
				"meta:",
				"  nested: value",
				"    deeper: [1, 2]",
				"name: Kept",
				"---",
			),
		);
		expect(plan.errors).toEqual([]);
		expect(plan.frontMatter).toEqual({ verify: [], verifyTimeoutMs: null, name: "Kept", mode: null });
	});

	it("reads `mode: orchestrate`, and names the modes it knows when given another", () => {
		expect(parsePlan(lines("---", "mode: orchestrate", "---")).frontMatter.mode).toBe("orchestrate");
		expect(parsePlan(lines("---", 'mode: "orchestrate"', "---")).frontMatter.mode).toBe("orchestrate");
		const wrong = parsePlan(lines("---", "mode: swarm", "---"));
		expect(wrong.frontMatter.mode).toBeNull();
		expect(wrong.errors).toEqual([{ line: 2, reason: 'mode must be one of orchestrate, got "swarm"' }]);
	});

	it("counts front matter lines in item line numbers", () => {
		const plan = parsePlan(lines("---", "verify: make", "---", "", "- [ ] First"));
		expect(plan.items[0]?.line).toBe(5);
	});

	it("is only front matter at the very top: a later --- is a thematic break", () => {
		const plan = parsePlan(lines("# Plan", "---", "verify: not front matter", "---", "- [ ] One"));
		expect(plan.frontMatter.verify).toEqual([]);
		expect(plan.items.map((item) => item.title)).toEqual(["One"]);
	});

	it("reports an unclosed front matter on line 1 and still reads the items", () => {
		const plan = parsePlan(lines("---", "verify: make", "- [ ] One"));
		expect(plan.errors).toEqual([
			{ line: 1, reason: "front matter opens with --- on line 1 but no closing --- line follows" },
		]);
		expect(plan.items.map((item) => [item.title, item.line])).toEqual([["One", 3]]);
	});

	it("reports a line that is not key: value with its line number", () => {
		const plan = parsePlan(lines("---", "name: Plan", "this is not yaml", "---", "- [ ] One"));
		expect(plan.errors).toEqual([
			{ line: 3, reason: 'expected "key: value" in the front matter, got "this is not yaml"' },
		]);
		expect(plan.frontMatter.name).toBe("Plan");
		expect(plan.items).toHaveLength(1);
	});

	it("reports a list item with no key above it", () => {
		expect(parsePlan(lines("---", "- npm test", "---")).errors).toEqual([
			{ line: 2, reason: 'expected "key: value" in the front matter, got "- npm test" with no key above it' },
		]);
	});

	it("reports verify entries that are not strings, each on its own line", () => {
		const plan = parsePlan(
			lines(
				"---",
				"verify:",
				"  - npm test",
				"  - 42",
				"  - true",
				"  - [a, b]",
				"  - {cmd: x}",
				"  - run: make",
				"  -",
				"---",
			),
		);
		expect(plan.frontMatter.verify).toEqual(["npm test"]);
		expect(plan.errors).toEqual([
			{ line: 4, reason: 'a verify command must be a string, got "42"; put it in quotes if it is meant as a command' },
			{
				line: 5,
				reason: 'a verify command must be a string, got "true"; put it in quotes if it is meant as a command',
			},
			{ line: 6, reason: "a verify command must be a string, got a list [a, b]" },
			{ line: 7, reason: "a verify command must be a string, got a mapping {cmd: x}" },
			{
				line: 8,
				reason: 'a verify command must be a string, got the mapping "run: make"; write the command itself, or quote it',
			},
			{ line: 9, reason: "a verify command is empty" },
		]);
	});

	it("accepts a quoted number as a command", () => {
		expect(parsePlan(lines("---", 'verify: "42"', "---")).frontMatter.verify).toEqual(["42"]);
	});

	it("reports a nested list in a flow list and a missing ]", () => {
		expect(parsePlan(lines("---", "verify: [a, [b]]", "---")).errors).toEqual([
			{ line: 2, reason: "verify: a verify command must be a string, got a nested list" },
		]);
		expect(parsePlan(lines("---", "verify: [a, b", "  c]", "---")).errors).toEqual([
			{ line: 2, reason: "verify: the list [a, b has no closing ]" },
		]);
	});

	it("reports a text continuation under verify", () => {
		expect(parsePlan(lines("---", "verify: npm test &&", "  npm run lint", "---")).errors).toEqual([
			{
				line: 3,
				reason: 'verify takes one command on its own line or a list of "- command" lines; "npm run lint" is neither',
			},
		]);
	});

	it("reports a bad timeout in plain words", () => {
		const plan = parsePlan(lines("---", "name: x", "verify_timeout: soon", "---"), "plan.md");
		expect(plan.errors).toEqual([
			{ line: 3, reason: 'verify_timeout must be a duration such as 90s or 5m, got "soon"' },
		]);
		expect(plan.frontMatter.verifyTimeoutMs).toBeNull();
	});

	it.each(["0", "0s", "-5s", "5 minutes", "5d", "1e3", ""])("rejects the timeout %j", (value) => {
		expect(parsePlan(lines("---", `verify_timeout: ${value}`, "---")).errors).toHaveLength(1);
	});

	it("reports a key given twice, name and title included", () => {
		expect(parsePlan(lines("---", "verify: a", "verify: b", "name: x", "title: y", "---")).errors).toEqual([
			{ line: 3, reason: "verify is already given on line 2; give it once" },
			{ line: 5, reason: "title repeats name, given on line 4; give it once" },
		]);
	});

	it("reports an unclosed quote and an unknown escape", () => {
		expect(parsePlan(lines("---", 'name: "open', 'verify: "a\\q"', "---")).errors).toEqual([
			{ line: 2, reason: 'name: the quoted value "open has no closing "' },
			{ line: 3, reason: 'verify: unknown escape \\q in a "quoted" value' },
		]);
	});

	it("reports block text for verify", () => {
		expect(parsePlan(lines("---", "verify: |", "  npm test", "---")).errors).toEqual([
			{ line: 2, reason: 'block text (|) is not supported for verify; put each command on its own "- command" line' },
		]);
	});
});
