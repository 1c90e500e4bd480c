/**
 * Each harness's todo shape, turned into boulder's `Todo[]`: Claude Code's
 * TodoWrite list and its Task tools (TaskCreate, TaskUpdate, TaskGet,
 * TaskList), OpenCode's todos (whose `id` 1.18.33 no longer sends), and
 * typeclaw-style `{content, status, priority, id}` lists.
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

export interface NormalizedTodos {
	todos: Todo[];
	warnings: string[];
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

/** TodoWrite's input `{todos: [{content, status, activeForm}]}`, or the bare list Claude Code saves. */
export function normalizeClaudeTodoWrite(input: unknown): NormalizedTodos {
	return normalizeList(input, "TodoWrite");
}

/** OpenCode's `session.todo()` list, or a `todo.updated` event's `{sessionID, todos}`. */
export function normalizeOpenCodeTodos(input: unknown): NormalizedTodos {
	return normalizeList(input, "OpenCode todos");
}

/** typeclaw-style lists: `{content, status, priority, id}` items, bare or in `{version, todos}`. */
export function normalizeTypeclawTodos(input: unknown): NormalizedTodos {
	return normalizeList(input, "todos");
}

function normalizeList(input: unknown, label: string): NormalizedTodos {
	const warnings: string[] = [];
	const list = listIn(input);
	if (list === null) {
		warnings.push(`${label}: expected a list of todos or {todos: [...]}, got ${describe(input)}; read as no todos`);
		return { todos: [], warnings };
	}
	const todos: Todo[] = [];
	const ids = new Set<string>();
	list.forEach((raw, index) => {
		const todo = normalizeItem(raw, `${label}[${index}]`, "content", warnings);
		if (!todo) return;
		if (todo.id !== undefined) {
			if (ids.has(todo.id)) warnings.push(`${label}[${index}]: id ${JSON.stringify(todo.id)} appears more than once`);
			ids.add(todo.id);
		}
		todos.push(todo);
	});
	return { todos, warnings };
}

function listIn(input: unknown): unknown[] | null {
	if (Array.isArray(input)) return input;
	if (!isRecord(input)) return null;
	if (Array.isArray(input.todos)) return input.todos;
	if (Array.isArray(input.newTodos)) return input.newTodos;
	return null;
}

/** One item, or null (with a warning unless it was removed on purpose). */
function normalizeItem(raw: unknown, where: string, textField: "content" | "subject", warnings: string[]): Todo | null {
	if (!isRecord(raw)) {
		warnings.push(`${where}: dropped: expected an object, got ${describe(raw)}`);
		return null;
	}
	const text = raw[textField];
	if (typeof text !== "string" || text.trim() === "") {
		const problem = text === undefined ? "is missing" : typeof text === "string" ? "is empty" : "is not text";
		warnings.push(`${where}: dropped: ${textField} ${problem}`);
		return null;
	}
	const status = readTodoStatus(raw.status);
	if (status === "removed") return null;
	const todo: Todo = { content: text.trim(), status: status ?? "blocked" };
	if (status === null) {
		warnings.push(`${where}: status ${describeStatus(raw.status)} is unknown; kept as blocked`);
	}
	const id = readId(raw.id);
	if (id !== null) todo.id = id;
	else if (raw.id !== undefined && raw.id !== null) warnings.push(`${where}: id ${describe(raw.id)} ignored`);
	if (raw.priority !== undefined && raw.priority !== null) {
		const priority = TodoPriority.safeParse(
			typeof raw.priority === "string" ? raw.priority.toLowerCase() : raw.priority,
		);
		if (priority.success) todo.priority = priority.data;
		else warnings.push(`${where}: priority ${describeStatus(raw.priority)} is unknown; ignored`);
	}
	return todo;
}

function readId(raw: unknown): string | null {
	if (typeof raw === "string" && raw.trim() !== "") return raw.trim();
	if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
	return null;
}

// ---------------------------------------------------------------- Claude Code Task tools

/**
 * One call of a Claude Code Task tool, as a PostToolUse hook sees it:
 * `tool_name`, `tool_input` and `tool_response`, passed through unchecked.
 */
export interface ClaudeTaskEvent {
	tool: string;
	input: unknown;
	response?: unknown;
}

export const CLAUDE_TASK_TOOLS = ["TaskCreate", "TaskUpdate", "TaskGet", "TaskList"] as const;

/**
 * The task list after one Task tool call, kept by task id (`Todo.id`). Pure:
 * `current` is not modified. TaskList's answer replaces the list (it is the
 * harness's own view); TaskGet's refreshes one task; TaskUpdate to `deleted`
 * removes it. A call the harness reports as failed changes nothing.
 */
export function applyClaudeTaskEvent(current: readonly Todo[], event: ClaudeTaskEvent): NormalizedTodos {
	const input = isRecord(event.input) ? event.input : {};
	const response = isRecord(event.response) ? event.response : {};
	switch (event.tool) {
		case "TaskCreate":
			return taskCreated(current, input, response);
		case "TaskUpdate":
			return taskUpdated(current, input, response);
		case "TaskGet":
			return taskFetched(current, input, response);
		case "TaskList":
			return taskListed(current, response);
		default:
			return unchanged(current, `${describeStatus(event.tool)} is not a Task tool; list unchanged`);
	}
}

function taskCreated(current: readonly Todo[], input: Record<string, unknown>, response: Record<string, unknown>) {
	const task = isRecord(response.task) ? response.task : {};
	const id = readId(task.id);
	if (id === null) return unchanged(current, "TaskCreate: the response carries no task id; the task is not tracked");
	const subject = [input.subject, task.subject].find((value) => typeof value === "string" && value.trim() !== "");
	if (typeof subject !== "string") return unchanged(current, `TaskCreate ${id}: dropped: subject is missing`);
	const todo: Todo = { content: subject.trim(), status: "pending", id };
	const warnings = current.some((existing) => existing.id === id)
		? [`TaskCreate ${id}: a task with this id was already tracked; replaced`]
		: [];
	return { todos: upsert(current, todo), warnings };
}

function taskUpdated(current: readonly Todo[], input: Record<string, unknown>, response: Record<string, unknown>) {
	const id = readId(input.taskId) ?? readId(response.taskId);
	if (id === null) return unchanged(current, "TaskUpdate: no taskId; list unchanged");
	if (response.success === false) {
		const why = typeof response.error === "string" ? `: ${response.error}` : "";
		return unchanged(current, `TaskUpdate ${id}: the harness reports failure${why}; list unchanged`);
	}
	const status = input.status === undefined ? undefined : readTodoStatus(input.status);
	const existing = current.find((todo) => todo.id === id);
	if (status === "removed") return { todos: current.filter((todo) => todo.id !== id), warnings: [] };
	const warnings: string[] = [];
	if (status === null) {
		warnings.push(`TaskUpdate ${id}: status ${describeStatus(input.status)} is unknown; status left as it was`);
	}
	const subject = typeof input.subject === "string" && input.subject.trim() !== "" ? input.subject.trim() : undefined;
	if (!existing) {
		if (subject === undefined) {
			return unchanged(current, `TaskUpdate ${id}: unknown task and no subject to track it by; ignored`);
		}
		const todo: Todo = { content: subject, status: status ?? "pending", id };
		return { todos: [...current, todo], warnings };
	}
	const todo: Todo = { ...existing, content: subject ?? existing.content, status: status ?? existing.status };
	return { todos: upsert(current, todo), warnings };
}

function taskFetched(current: readonly Todo[], input: Record<string, unknown>, response: Record<string, unknown>) {
	if (response.task === null) {
		const id = readId(input.taskId);
		if (id === null) return unchanged(current);
		return { todos: current.filter((todo) => todo.id !== id), warnings: [] };
	}
	const warnings: string[] = [];
	const task = response.task;
	const id = isRecord(task) ? readId(task.id) : null;
	if (id === null) return unchanged(current, "TaskGet: the response carries no task; list unchanged");
	const todo = normalizeItem(task, `TaskGet ${id}`, "subject", warnings);
	if (!todo) return { todos: current.filter((existing) => existing.id !== id), warnings };
	return { todos: upsert(current, { ...todo, id }), warnings };
}

function taskListed(current: readonly Todo[], response: Record<string, unknown>) {
	if (!Array.isArray(response.tasks))
		return unchanged(current, "TaskList: the response carries no task list; unchanged");
	const warnings: string[] = [];
	const todos: Todo[] = [];
	response.tasks.forEach((raw, index) => {
		const id = isRecord(raw) ? readId(raw.id) : null;
		if (id === null) {
			warnings.push(
				`TaskList[${index}]: dropped: ${isRecord(raw) ? "no task id" : `expected an object, got ${describe(raw)}`}`,
			);
			return;
		}
		const todo = normalizeItem(raw, `TaskList[${index}]`, "subject", warnings);
		if (todo) todos.push({ ...todo, id });
	});
	return { todos, warnings };
}

/** Replaces the item with the same id in place, or appends it. */
function upsert(current: readonly Todo[], todo: Todo): Todo[] {
	const index = current.findIndex((existing) => existing.id === todo.id);
	if (index === -1) return [...current, todo];
	return current.map((existing, at) => (at === index ? todo : existing));
}

function unchanged(current: readonly Todo[], warning?: string): NormalizedTodos {
	return { todos: [...current], warnings: warning === undefined ? [] : [warning] };
}

// ---------------------------------------------------------------- helpers

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "a list";
	if (typeof value === "string")
		return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	if (typeof value === "object") return "an object";
	if (typeof value === "undefined") return "nothing";
	if (typeof value === "function") return "a function";
	return `${typeof value} ${String(value)}`;
}

function describeStatus(value: unknown): string {
	return typeof value === "string" ? JSON.stringify(value) : describe(value);
}
