import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeTodoList, readTodoItem, readTodoStatus, type TodoShape } from "../../src/core/todo-normalize.js";
import { countTodos, Todo } from "../../src/core/todos.js";

const RUNS = 1_000;

/** typeclaw-style lists: `{content, status, priority, id}` items, bare or in `{version, todos}`. */
const TYPECLAW: TodoShape = {
	label: "todos",
	listFields: ["todos"],
	text: "content",
	status: "status",
	id: "id",
	priority: "priority",
};

const normalize = (input: unknown) => normalizeTodoList(input, TYPECLAW);

describe("a declared shape", () => {
	it("reads {content, status, priority, id} items inside a versioned file", () => {
		const result = normalize({
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
		const result = normalize([
			{ content: "A", status: "pending", id: "x" },
			{ content: "B", status: "pending", id: "x" },
		]);
		expect(result.todos).toHaveLength(2);
		expect(result.warnings).toEqual(['todos[1]: id "x" appears more than once']);
	});

	it("reads the fields the shape names, and leaves id and priority alone when it names none", () => {
		const shape: TodoShape = { label: "tasks", listFields: ["items"], text: "title", status: "state" };
		const result = normalizeTodoList(
			{ items: [{ title: "Plan", state: "done", id: "7", priority: "urgent", content: "not this" }] },
			shape,
		);
		expect(result).toEqual({ todos: [{ content: "Plan", status: "completed" }], warnings: [] });
		expect(normalizeTodoList([{ content: "Plan", status: "done" }], shape).warnings).toEqual([
			"tasks[0]: dropped: title is missing",
		]);
	});

	it("takes the list from the first wrapping field that holds one, and names them all when none does", () => {
		const shape: TodoShape = { ...TYPECLAW, listFields: ["todos", "newTodos"] };
		const result = normalizeTodoList({ todos: "no", newTodos: [{ content: "B", status: "pending" }] }, shape);
		expect(result.todos).toEqual([{ content: "B", status: "pending" }]);
		expect(normalizeTodoList({ items: [] }, shape).warnings).toEqual([
			"todos: expected a list of todos or {todos: [...]} or {newTodos: [...]}, got an object; read as no todos",
		]);
		expect(normalizeTodoList({ todos: [] }, { ...TYPECLAW, listFields: [] }).warnings).toEqual([
			"todos: expected a list of todos, got an object; read as no todos",
		]);
	});

	it("reads one item on its own, naming it as the caller says", () => {
		expect(readTodoItem({ content: "A", status: "paused" }, TYPECLAW, "item 3")).toEqual({
			todo: { content: "A", status: "blocked" },
			warnings: ['item 3: status "paused" is unknown; kept as blocked'],
		});
		expect(readTodoItem({ content: "A", status: "deleted" }, TYPECLAW, "item 3")).toEqual({ todo: null, warnings: [] });
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
		const result = normalize([
			{ content: "Keep", status: "pending" },
			{ content: "Gone", status: "deleted" },
		]);
		expect(result.todos).toEqual([{ content: "Keep", status: "pending" }]);
		expect(result.warnings).toEqual([]);
	});

	it("keeps an item with an unknown status as blocked and says so", () => {
		const result = normalize([{ content: "Wait for review", status: "awaiting-review" }]);
		expect(result.todos).toEqual([{ content: "Wait for review", status: "blocked" }]);
		expect(result.warnings).toEqual(['todos[0]: status "awaiting-review" is unknown; kept as blocked']);
	});

	it("keeps an item with no status as blocked and says so", () => {
		const result = normalize({ todos: [{ content: "Mystery" }] });
		expect(result.todos).toEqual([{ content: "Mystery", status: "blocked" }]);
		expect(result.warnings).toEqual(["todos[0]: status nothing is unknown; kept as blocked"]);
	});

	it("counts an unknown-status list as not complete and not open", () => {
		const { todos } = normalize([{ content: "A", status: "paused" }]);
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
		const result = normalize(input);
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual([
			`todos: expected a list of todos or {todos: [...]}, got ${described}; read as no todos`,
		]);
	});

	it("drops items that are not objects, each with a warning", () => {
		const result = normalize({
			todos: [null, "Write tests", 7, ["x"], { content: "Real", status: "pending" }],
		});
		expect(result.todos).toEqual([{ content: "Real", status: "pending" }]);
		expect(result.warnings).toEqual([
			"todos[0]: dropped: expected an object, got null",
			'todos[1]: dropped: expected an object, got the text "Write tests"',
			"todos[2]: dropped: expected an object, got number 7",
			"todos[3]: dropped: expected an object, got a list",
		]);
	});

	it("drops items with missing, empty or non-text content, each with a warning", () => {
		const result = normalize([
			{ status: "pending" },
			{ content: "", status: "pending" },
			{ content: "   ", status: "pending" },
			{ content: 5, status: "pending" },
		]);
		expect(result.todos).toEqual([]);
		expect(result.warnings).toEqual([
			"todos[0]: dropped: content is missing",
			"todos[1]: dropped: content is empty",
			"todos[2]: dropped: content is empty",
			"todos[3]: dropped: content is not text",
		]);
	});

	it("trims content, so surrounding whitespace is no difference", () => {
		expect(normalize([{ content: "  Tidy  ", status: "pending" }]).todos).toEqual([
			{ content: "Tidy", status: "pending" },
		]);
	});

	it("ignores an unknown priority or a non-text id with a warning, keeping the item", () => {
		const result = normalize([
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
				const result = normalize(list);
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
