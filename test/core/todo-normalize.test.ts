import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	applyClaudeTaskEvent,
	type ClaudeTaskEvent,
	normalizeClaudeTodoWrite,
	normalizeOpenCodeTodos,
	normalizeTypeclawTodos,
	readTodoStatus,
} from "../../src/core/todo-normalize.js";
import { countTodos, Todo } from "../../src/core/todos.js";

const RUNS = 1_000;

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
});

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
});

describe("typeclaw-style todos", () => {
	it("reads {content, status, priority, id} items inside a versioned file", () => {
		const result = normalizeTypeclawTodos({
			version: 1,
			todos: [
				{ content: "Draft", status: "completed", priority: "high", id: "1" },
				{ content: "Review", status: "pending", id: "2" },
			],
		});
		expect(result.warnings).toEqual([]);
		expect(result.todos).toEqual([
			{ content: "Draft", status: "completed", priority: "high", id: "1" },
			{ content: "Review", status: "pending", id: "2" },
		]);
	});

	it("warns about an id used twice but keeps both items", () => {
		const result = normalizeTypeclawTodos([
			{ content: "A", status: "pending", id: "x" },
			{ content: "B", status: "pending", id: "x" },
		]);
		expect(result.todos).toHaveLength(2);
		expect(result.warnings).toEqual(['todos[1]: id "x" appears more than once']);
	});
});

describe("statuses", () => {
	it.each([
		["done", "completed"],
		["Completed", "completed"],
		["todo", "pending"],
		["in-progress", "in_progress"],
		["In Progress", "in_progress"],
		["canceled", "cancelled"],
		["blocked", "blocked"],
		["deleted", "removed"],
	])("reads %j as %s", (raw, status) => {
		expect(readTodoStatus(raw)).toBe(status);
	});

	it("does not read inherited object keys as statuses", () => {
		expect(readTodoStatus("constructor")).toBeNull();
		expect(readTodoStatus("__proto__")).toBeNull();
	});

	it("takes deleted items out of the list on purpose, without a warning", () => {
		const result = normalizeOpenCodeTodos([
			{ content: "Keep", status: "pending" },
			{ content: "Gone", status: "deleted" },
		]);
		expect(result.todos).toEqual([{ content: "Keep", status: "pending" }]);
		expect(result.warnings).toEqual([]);
	});

	it("keeps an item with an unknown status as blocked and says so", () => {
		const result = normalizeOpenCodeTodos([{ content: "Wait for review", status: "awaiting-review" }]);
		expect(result.todos).toEqual([{ content: "Wait for review", status: "blocked" }]);
		expect(result.warnings).toEqual(['OpenCode todos[0]: status "awaiting-review" is unknown; kept as blocked']);
	});

	it("keeps an item with no status as blocked and says so", () => {
		const result = normalizeClaudeTodoWrite({ todos: [{ content: "Mystery" }] });
		expect(result.todos).toEqual([{ content: "Mystery", status: "blocked" }]);
		expect(result.warnings).toEqual(["TodoWrite[0]: status nothing is unknown; kept as blocked"]);
	});

	it("counts an unknown-status list as not complete and not open", () => {
		const { todos } = normalizeOpenCodeTodos([{ content: "A", status: "paused" }]);
		expect(countTodos(todos)).toMatchObject({ total: 1, open: 0, completed: 0, blocked: 1 });
	});
});

describe("malformed input", () => {
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

	it("drops items that are not objects, each with a warning", () => {
		const result = normalizeClaudeTodoWrite({
			todos: [null, "Write tests", 7, ["x"], { content: "Real", status: "pending" }],
		});
		expect(result.todos).toEqual([{ content: "Real", status: "pending" }]);
		expect(result.warnings).toEqual([
			"TodoWrite[0]: dropped: expected an object, got null",
			'TodoWrite[1]: dropped: expected an object, got the text "Write tests"',
			"TodoWrite[2]: dropped: expected an object, got number 7",
			"TodoWrite[3]: dropped: expected an object, got a list",
		]);
	});

	it("drops items with missing, empty or non-text content, each with a warning", () => {
		const result = normalizeOpenCodeTodos([
			{ status: "pending" },
			{ content: "", status: "pending" },
			{ content: "   ", status: "pending" },
			{ content: 5, status: "pending" },
		]);
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual([
			"OpenCode todos[0]: dropped: content is missing",
			"OpenCode todos[1]: dropped: content is empty",
			"OpenCode todos[2]: dropped: content is empty",
			"OpenCode todos[3]: dropped: content is not text",
		]);
	});

	it("trims content, so surrounding whitespace is no difference", () => {
		expect(normalizeOpenCodeTodos([{ content: "  Tidy  ", status: "pending" }]).todos).toEqual([
			{ content: "Tidy", status: "pending" },
		]);
	});

	it("ignores an unknown priority or a non-text id with a warning, keeping the item", () => {
		const result = normalizeTypeclawTodos([
			{ content: "A", status: "pending", priority: "urgent", id: { x: 1 } },
			{ content: "B", status: "pending", priority: "HIGH", id: 7 },
		]);
		expect(result.todos).toEqual([
			{ content: "A", status: "pending" },
			{ content: "B", status: "pending", priority: "high", id: "7" },
		]);
		expect(result.warnings).toEqual([
			"todos[0]: id an object ignored",
			'todos[0]: priority "urgent" is unknown; ignored',
		]);
	});

	it(`never drops an item without a warning, whatever the list holds (${RUNS} runs)`, () => {
		const item = fc.oneof(
			fc.anything(),
			fc.record(
				{
					content: fc.oneof(fc.string(), fc.anything()),
					status: fc.oneof(fc.constantFrom("pending", "done", "deleted", "removed", "weird"), fc.anything()),
					priority: fc.anything(),
					id: fc.anything(),
				},
				{ requiredKeys: [] },
			),
		);
		fc.assert(
			fc.property(fc.array(item, { maxLength: 20 }), (list) => {
				const result = normalizeTypeclawTodos(list);
				const removed = list.filter(
					(raw) =>
						typeof raw === "object" &&
						raw !== null &&
						!Array.isArray(raw) &&
						typeof (raw as { content?: unknown }).content === "string" &&
						(raw as { content: string }).content.trim() !== "" &&
						readTodoStatus((raw as { status?: unknown }).status) === "removed",
				).length;
				const dropped = result.warnings.filter((warning) => warning.includes(": dropped: ")).length;
				expect(result.todos.length + dropped + removed).toBe(list.length);
				for (const todo of result.todos) expect(Todo.safeParse(todo).success).toBe(true);
			}),
			{ numRuns: RUNS },
		);
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
