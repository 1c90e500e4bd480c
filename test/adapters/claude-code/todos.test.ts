import { describe, expect, it } from "vitest";
import {
	applyClaudeTaskEvent,
	type ClaudeTaskEvent,
	normalizeClaudeTodoWrite,
} from "../../../src/adapters/command-hook/todo-write.js";
import type { Todo } from "../../../src/core/todos.js";

describe("Claude Code TodoWrite", () => {
	it("reads the tool input and drops activeForm", () => {
		const result = normalizeClaudeTodoWrite({
			todos: [
				{ content: "Write the parser", status: "completed", activeForm: "Writing the parser" },
				{ content: "Test it", status: "in_progress", activeForm: "Testing it" },
				{ content: "Ship it", status: "pending", activeForm: "Shipping it" },
			],
		});
		expect(result.warnings).toEqual([]);
		expect(result.todos).toEqual([
			{ content: "Write the parser", status: "completed" },
			{ content: "Test it", status: "in_progress" },
			{ content: "Ship it", status: "pending" },
		]);
	});

	it("reads the bare list Claude Code saves on disk", () => {
		const result = normalizeClaudeTodoWrite([{ content: "One", status: "pending", activeForm: "Doing one" }]);
		expect(result.todos).toEqual([{ content: "One", status: "pending" }]);
	});

	it("reads the tool response's newTodos", () => {
		const result = normalizeClaudeTodoWrite({
			oldTodos: [],
			newTodos: [{ content: "One", status: "completed", activeForm: "" }],
		});
		expect(result.todos).toEqual([{ content: "One", status: "completed" }]);
	});

	it("keeps an item with no status as blocked and says so, naming TodoWrite", () => {
		const result = normalizeClaudeTodoWrite({ todos: [{ content: "Mystery" }] });
		expect(result.todos).toEqual([{ content: "Mystery", status: "blocked" }]);
		expect(result.warnings).toEqual(["TodoWrite[0]: status nothing is unknown; kept as blocked"]);
	});
});

describe("Claude Code Task tools", () => {
	const create = (id: string, subject: string): ClaudeTaskEvent => ({
		tool: "TaskCreate",
		input: { subject, description: `${subject}, in detail`, activeForm: `${subject}ing` },
		response: { task: { id, subject } },
	});
	const update = (input: Record<string, unknown>, response?: unknown): ClaudeTaskEvent => ({
		tool: "TaskUpdate",
		input,
		response: response ?? { success: true, taskId: input.taskId, updatedFields: Object.keys(input) },
	});

	function replay(events: ClaudeTaskEvent[]): { todos: Todo[]; warnings: string[] } {
		let todos: Todo[] = [];
		const warnings: string[] = [];
		for (const event of events) {
			const next = applyClaudeTaskEvent(todos, event);
			todos = next.todos;
			warnings.push(...next.warnings);
		}
		return { todos, warnings };
	}

	it("tracks a created task by the id its response carries", () => {
		expect(applyClaudeTaskEvent([], create("1", "Write the parser"))).toEqual({
			todos: [{ content: "Write the parser", status: "pending", id: "1" }],
			warnings: [],
		});
	});

	it("follows status updates and maps deleted to removal", () => {
		const result = replay([
			create("1", "Parse"),
			create("2", "Test"),
			create("3", "Ship"),
			update({ taskId: "1", status: "completed" }),
			update({ taskId: "2", status: "in_progress" }),
			update({ taskId: "3", status: "deleted" }),
		]);
		expect(result.warnings).toEqual([]);
		expect(result.todos).toEqual([
			{ content: "Parse", status: "completed", id: "1" },
			{ content: "Test", status: "in_progress", id: "2" },
		]);
	});

	it("renames a task when its subject changes, keeping its place", () => {
		const result = replay([create("1", "Old"), create("2", "Other"), update({ taskId: "1", subject: "New" })]);
		expect(result.todos.map((todo) => todo.content)).toEqual(["New", "Other"]);
	});

	it("changes nothing when the harness reports the update failed", () => {
		const before = replay([create("1", "Parse")]).todos;
		const result = applyClaudeTaskEvent(
			before,
			update(
				{ taskId: "1", status: "completed" },
				{ success: false, taskId: "1", updatedFields: [], error: "Task not found" },
			),
		);
		expect(result.todos).toEqual(before);
		expect(result.warnings).toEqual(["TaskUpdate 1: the harness reports failure: Task not found; list unchanged"]);
	});

	it("starts tracking an unknown task when the update names its subject", () => {
		const result = applyClaudeTaskEvent([], update({ taskId: "9", subject: "Seen late", status: "in_progress" }));
		expect(result.todos).toEqual([{ content: "Seen late", status: "in_progress", id: "9" }]);
	});

	it("ignores an update of an unknown task without a subject, with a warning", () => {
		const result = applyClaudeTaskEvent([], update({ taskId: "9", status: "completed" }));
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual(["TaskUpdate 9: unknown task and no subject to track it by; ignored"]);
	});

	it("leaves the status as it was when an update's status is unknown", () => {
		const before = replay([create("1", "Parse")]).todos;
		const result = applyClaudeTaskEvent(before, update({ taskId: "1", status: "paused" }));
		expect(result.todos).toEqual([{ content: "Parse", status: "pending", id: "1" }]);
		expect(result.warnings).toEqual(['TaskUpdate 1: status "paused" is unknown; status left as it was']);
	});

	it("does not track a created task whose response carries no id", () => {
		const result = applyClaudeTaskEvent([], {
			tool: "TaskCreate",
			input: { subject: "Lost" },
			response: "Task created",
		});
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual(["TaskCreate: the response carries no task id; the task is not tracked"]);
	});

	it("replaces the list with TaskList's answer", () => {
		const before = replay([create("1", "Stale")]).todos;
		const result = applyClaudeTaskEvent(before, {
			tool: "TaskList",
			input: {},
			response: {
				tasks: [
					{ id: "2", subject: "Fresh", status: "in_progress", blockedBy: [] },
					{ id: "3", subject: "Later", status: "pending", blockedBy: ["2"] },
					{ subject: "No id", status: "pending", blockedBy: [] },
				],
			},
		});
		expect(result.todos).toEqual([
			{ content: "Fresh", status: "in_progress", id: "2" },
			{ content: "Later", status: "pending", id: "3" },
		]);
		expect(result.warnings).toEqual(["TaskList[2]: dropped: no task id"]);
	});

	it("refreshes one task from TaskGet, and forgets it when TaskGet finds none", () => {
		const before = replay([create("1", "Parse"), create("2", "Test")]).todos;
		const got = applyClaudeTaskEvent(before, {
			tool: "TaskGet",
			input: { taskId: "2" },
			response: { task: { id: "2", subject: "Test", description: "", status: "completed", blocks: [], blockedBy: [] } },
		});
		expect(got.todos[1]).toEqual({ content: "Test", status: "completed", id: "2" });
		const gone = applyClaudeTaskEvent(got.todos, { tool: "TaskGet", input: { taskId: "1" }, response: { task: null } });
		expect(gone.todos.map((todo) => todo.id)).toEqual(["2"]);
	});

	it("leaves the list alone for a tool that is not a Task tool", () => {
		const before = replay([create("1", "Parse")]).todos;
		const result = applyClaudeTaskEvent(before, { tool: "Bash", input: { command: "ls" } });
		expect(result.todos).toEqual(before);
		expect(result.warnings).toEqual(['"Bash" is not a Task tool; list unchanged']);
	});

	it("does not modify the list it is given", () => {
		const before = Object.freeze([Object.freeze({ content: "Parse", status: "pending" as const, id: "1" })]);
		const result = applyClaudeTaskEvent(before, update({ taskId: "1", status: "completed" }));
		expect(before[0]?.status).toBe("pending");
		expect(result.todos[0]?.status).toBe("completed");
	});

	it("survives malformed events without throwing", () => {
		for (const event of [
			{ tool: "TaskCreate", input: null, response: null },
			{ tool: "TaskUpdate", input: "x", response: 3 },
			{ tool: "TaskList", input: undefined, response: { tasks: "no" } },
			{ tool: "TaskGet", input: [], response: {} },
		]) {
			const result = applyClaudeTaskEvent([], event);
			expect(result.todos).toEqual([]);
			expect(result.warnings).toHaveLength(1);
		}
	});
});
