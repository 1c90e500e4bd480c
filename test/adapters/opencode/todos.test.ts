import { describe, expect, it } from "vitest";
import { normalizeOpenCodeTodos } from "../../../src/adapters/opencode/todos.js";

describe("OpenCode todos", () => {
	it("reads items without ids, as 1.18.33 sends them, and keeps their priority", () => {
		const result = normalizeOpenCodeTodos([
			{ content: "Fix the build", status: "in_progress", priority: "high" },
			{ content: "Update docs", status: "cancelled", priority: "low" },
		]);
		expect(result.warnings).toEqual([]);
		expect(result.todos).toEqual([
			{ content: "Fix the build", status: "in_progress", priority: "high" },
			{ content: "Update docs", status: "cancelled", priority: "low" },
		]);
	});

	it("reads a todo.updated event's properties", () => {
		const result = normalizeOpenCodeTodos({
			sessionID: "ses_1",
			todos: [{ content: "A", status: "pending", priority: "medium", id: "t1" }],
		});
		expect(result.todos).toEqual([{ content: "A", status: "pending", priority: "medium", id: "t1" }]);
	});

	it("keeps an item with an unknown status as blocked and says so", () => {
		const result = normalizeOpenCodeTodos([{ content: "Wait for review", status: "awaiting-review" }]);
		expect(result.todos).toEqual([{ content: "Wait for review", status: "blocked" }]);
		expect(result.warnings).toEqual(['OpenCode todos[0]: status "awaiting-review" is unknown; kept as blocked']);
	});

	it.each([
		[null, "null"],
		["todos", 'the text "todos"'],
		[42, "number 42"],
		[{}, "an object"],
		[{ todos: "many" }, "an object"],
		[undefined, "nothing"],
	])("reads %j as no todos, with a warning", (input, described) => {
		const result = normalizeOpenCodeTodos(input);
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual([
			`OpenCode todos: expected a list of todos or {todos: [...]}, got ${described}; read as no todos`,
		]);
	});
});
