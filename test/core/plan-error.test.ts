import { describe, expect, it } from "vitest";
import { planErrorsMessage } from "../../src/core/plan-error.js";
import { parsePlan } from "../../src/core/plan-parser.js";

const lines = (...text: string[]): string => text.join("\n");

describe("planErrorsMessage", () => {
	it("prints one file:line: reason per error", () => {
		const plan = parsePlan(lines("---", "name: x", "verify_timeout: soon", "oops", "---"));
		expect(planErrorsMessage(plan.errors, "plan.md")).toBe(
			lines(
				'plan.md:3: verify_timeout must be a duration such as 90s or 5m, got "soon"',
				'plan.md:4: expected "key: value" in the front matter, got "oops"',
			),
		);
	});
});
