/**
 * The generic half of reading a harness's todo list into boulder's `Todo[]`:
 * status words, and a list reader driven by a declared `TodoShape` (which
 * fields hold the text, the status, the id and the priority). Each adapter
 * declares its harness's shapes next to its own code, so supporting a new
 * harness never means editing the core.
 *
 * Contract: input is whatever the harness handed over, unchecked. Nothing
 * here throws, and nothing is lost quietly: every item dropped or changed is
 * named in `warnings`, which the engine writes to the decision log. Input that
 * is not a list at all gives no todos, which means "let the agent stop".
 *
 * Statuses: the five of `TodoStatus`, common synonyms (`done`, `todo`,
 * `in-progress`, `canceled`, ...), and `deleted`/`removed`, which take the
 * item out of the list on purpose and so without a warning. Any other status
 * is kept as `blocked`, with a warning: it is most likely a state some harness
 * added later (`paused`, `review`, `waiting`), and `blocked` is the only
 * reading that neither nudges the agent against a pause it asked for (as
 * `pending` would) nor lets the list look complete (as dropping it would).
 */
import { type Todo, TodoPriority, type TodoStatus } from "./todos.js";

/**
 * The most items of one list boulder follows: an agent's todo list is tens of
 * items. A longer list is read as no todos (with a warning), so nothing is
 * continued from it and reading it costs a hook next to nothing.
 */
export const MAX_TODOS = 2000;

export interface NormalizedTodos {
	todos: Todo[];
	warnings: string[];
}

/**
 * Where a harness keeps the parts of a todo. Field names only: a harness
 * whose items need more than renaming (events that patch a list, say) builds
 * on `readTodoItem` in its adapter.
 */
export interface TodoShape {
	/** Names the list in warnings: `TodoWrite[2]: dropped: ...`. */
	label: string;
	/** Fields of an object that may wrap the list, tried in order; a bare list is always read. */
	listFields: readonly string[];
	/** The item's text; required, trimmed. */
	text: string;
	status: string;
	/** Left out when the harness's items carry no id. */
	id?: string;
	/** Left out when the harness's items carry no priority. */
	priority?: string;
}

/** A status read from a harness: one of ours, `removed` (take it out), or null for unknown. */
export type ReadStatus = TodoStatus | "removed" | null;

const STATUS_WORDS: Record<string, TodoStatus | "removed"> = {
	pending: "pending",
	todo: "pending",
	to_do: "pending",
	open: "pending",
	not_started: "pending",
	in_progress: "in_progress",
	inprogress: "in_progress",
	doing: "in_progress",
	active: "in_progress",
	started: "in_progress",
	completed: "completed",
	complete: "completed",
	done: "completed",
	finished: "completed",
	cancelled: "cancelled",
	canceled: "cancelled",
	blocked: "blocked",
	deleted: "removed",
	removed: "removed",
};

/** Case, spaces and dashes do not matter: `In-Progress` is `in_progress`. */
export function readTodoStatus(raw: unknown): ReadStatus {
	if (typeof raw !== "string") return null;
	const word = raw
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, "_");
	return Object.hasOwn(STATUS_WORDS, word) ? (STATUS_WORDS[word] ?? null) : null;
}

/** A whole list in `shape`, bare or wrapped; an id used twice is kept twice, with a warning. */
export function normalizeTodoList(input: unknown, shape: TodoShape): NormalizedTodos {
	const warnings: string[] = [];
	const list = listIn(input, shape.listFields);
	if (list === null) {
		const wrapped = shape.listFields.map((field) => ` or {${field}: [...]}`).join("");
		warnings.push(`${shape.label}: expected a list of todos${wrapped}, got ${describeValue(input)}; read as no todos`);
		return { todos: [], warnings };
	}
	if (list.length > MAX_TODOS) {
		warnings.push(
			`${shape.label}: ${list.length.toLocaleString("en-US")} todos, more than the ${MAX_TODOS.toLocaleString("en-US")} boulder follows; read as no todos (nothing is continued from this list)`,
		);
		return { todos: [], warnings };
	}
	const todos: Todo[] = [];
	const ids = new Set<string>();
	list.forEach((raw, index) => {
		const where = `${shape.label}[${index}]`;
		const item = readTodoItem(raw, shape, where);
		warnings.push(...item.warnings);
		const todo = item.todo;
		if (!todo) return;
		if (todo.id !== undefined) {
			if (ids.has(todo.id)) warnings.push(`${where}: id ${JSON.stringify(todo.id)} appears more than once`);
			ids.add(todo.id);
		}
		todos.push(todo);
	});
	return { todos, warnings };
}

function listIn(input: unknown, fields: readonly string[]): unknown[] | null {
	if (Array.isArray(input)) return input;
	if (!isRecord(input)) return null;
	for (const field of fields) {
		const list = input[field];
		if (Array.isArray(list)) return list;
	}
	return null;
}

/**
 * One item in `shape`; `where` names it in warnings. `todo` is null when the
 * item was dropped (with a warning) or removed on purpose (without one).
 */
export function readTodoItem(raw: unknown, shape: TodoShape, where: string): { todo: Todo | null; warnings: string[] } {
	const warnings: string[] = [];
	if (!isRecord(raw)) {
		warnings.push(`${where}: dropped: expected an object, got ${describeValue(raw)}`);
		return { todo: null, warnings };
	}
	const text = raw[shape.text];
	if (typeof text !== "string" || text.trim() === "") {
		const problem = text === undefined ? "is missing" : typeof text === "string" ? "is empty" : "is not text";
		warnings.push(`${where}: dropped: ${shape.text} ${problem}`);
		return { todo: null, warnings };
	}
	const rawStatus = raw[shape.status];
	const status = readTodoStatus(rawStatus);
	if (status === "removed") return { todo: null, warnings };
	const todo: Todo = { content: text.trim(), status: status ?? "blocked" };
	if (status === null) warnings.push(`${where}: status ${quoteValue(rawStatus)} is unknown; kept as blocked`);
	if (shape.id !== undefined) {
		const rawId = raw[shape.id];
		const id = readTodoId(rawId);
		if (id !== null) todo.id = id;
		else if (rawId !== undefined && rawId !== null) warnings.push(`${where}: id ${describeValue(rawId)} ignored`);
	}
	if (shape.priority !== undefined) {
		const rawPriority = raw[shape.priority];
		if (rawPriority !== undefined && rawPriority !== null) {
			const priority = TodoPriority.safeParse(
				typeof rawPriority === "string" ? rawPriority.toLowerCase() : rawPriority,
			);
			if (priority.success) todo.priority = priority.data;
			else warnings.push(`${where}: priority ${quoteValue(rawPriority)} is unknown; ignored`);
		}
	}
	return { todo, warnings };
}

/** Non-empty text (trimmed) or a finite number, as text; anything else is no id. */
export function readTodoId(raw: unknown): string | null {
	if (typeof raw === "string" && raw.trim() !== "") return raw.trim();
	if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
	return null;
}

/** A value as warnings name it: `null`, `a list`, `the text "…"`, `number 7`. */
export function describeValue(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "a list";
	if (typeof value === "string")
		return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	if (typeof value === "object") return "an object";
	if (typeof value === "undefined") return "nothing";
	if (typeof value === "function") return "a function";
	return `${typeof value} ${String(value)}`;
}

/** A word the harness sent, quoted as it was (`"paused"`); anything else as `describeValue` names it. */
export function quoteValue(value: unknown): string {
	return typeof value === "string" ? JSON.stringify(value) : describeValue(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
