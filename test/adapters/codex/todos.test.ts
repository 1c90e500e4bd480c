import { describe, expect, it } from "vitest";
import { normalizeCodexPlan } from "../../../src/adapters/codex/events.js";

describe("Codex's update_plan as boulder's todos", () => {
	it("reads each step and its status", () => {
		const { todos, warnings } = normalizeCodexPlan({
			explanation: "Starting.",
			plan: [
				{ step: "Write the parser", status: "completed" },
				{ step: "Test it", status: "in_progress" },
				{ step: "Ship it", status: "pending" },
			],
		});
		expect(todos.map((todo) => [todo.content, todo.status])).toEqual([
			["Write the parser", "completed"],
			["Test it", "in_progress"],
			["Ship it", "pending"],
		]);
		expect(warnings).toEqual([]);
	});

	it("names what it drops", () => {
		const { todos, warnings } = normalizeCodexPlan({
			plan: [{ status: "pending" }, { step: "Keep", status: "pending" }],
		});
		expect(todos).toHaveLength(1);
		expect(warnings.join(" ")).toMatch(/update_plan\[0\]/);
	});
});
