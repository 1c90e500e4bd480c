/**
 * Claude Code's todo shapes, read with the core's generic pieces: TodoWrite's
 * whole list, and the Task tools, which patch a list kept by task id.
 *
 * Contract: as `core/todo-normalize.ts`: `tool_input` and `tool_response` come
 * unchecked; nothing throws; every item dropped or changed is in `warnings`.
 */
import {
	describeValue,
	type NormalizedTodos,
	normalizeTodoList,
	quoteValue,
	readTodoId,
	readTodoItem,
	readTodoStatus,
	type TodoShape,
} from "../../core/todo-normalize.js";
import type { Todo } from "../../core/todos.js";
import { isRecord } from "../shared/hook-input.js";

/** TodoWrite's input `{todos}`, its response's `newTodos`, or the bare list (older versions: `id`, `priority`). */
const TODO_WRITE: TodoShape = {
	label: "TodoWrite",
	listFields: ["todos", "newTodos"],
	text: "content",
	status: "status",
	id: "id",
	priority: "priority",
};

export function normalizeClaudeTodoWrite(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_WRITE);
}

/** A task as TaskGet and TaskList answer it: `{id, subject, description, status, blocks, blockedBy}`. */
const TASK: TodoShape = { label: "Task", listFields: [], text: "subject", status: "status", id: "id" };

/** One Task tool call as PostToolUse sees it: `tool_name`, `tool_input`, `tool_response`, unchecked. */
export interface ClaudeTaskEvent {
	tool: string;
	input: unknown;
	response?: unknown;
}

export const CLAUDE_TASK_TOOLS = ["TaskCreate", "TaskUpdate", "TaskGet", "TaskList"] as const;

/**
 * Pure: the list after one Task tool call, by task id. TaskList's answer replaces the list (the harness's
 * own view), TaskGet's refreshes one task, TaskUpdate to `deleted` removes it; a failed call changes nothing.
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
			return unchanged(current, `${quoteValue(event.tool)} is not a Task tool; list unchanged`);
	}
}

function taskCreated(current: readonly Todo[], input: Record<string, unknown>, response: Record<string, unknown>) {
	const task = isRecord(response.task) ? response.task : {};
	const id = readTodoId(task.id);
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
	const id = readTodoId(input.taskId) ?? readTodoId(response.taskId);
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
		warnings.push(`TaskUpdate ${id}: status ${quoteValue(input.status)} is unknown; status left as it was`);
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
		const id = readTodoId(input.taskId);
		if (id === null) return unchanged(current);
		return { todos: current.filter((todo) => todo.id !== id), warnings: [] };
	}
	const task = response.task;
	const id = isRecord(task) ? readTodoId(task.id) : null;
	if (id === null) return unchanged(current, "TaskGet: the response carries no task; list unchanged");
	const { todo, warnings } = readTodoItem(task, TASK, `TaskGet ${id}`);
	if (!todo) return { todos: current.filter((existing) => existing.id !== id), warnings };
	return { todos: upsert(current, { ...todo, id }), warnings };
}

function taskListed(current: readonly Todo[], response: Record<string, unknown>) {
	if (!Array.isArray(response.tasks))
		return unchanged(current, "TaskList: the response carries no task list; unchanged");
	const warnings: string[] = [];
	const todos: Todo[] = [];
	response.tasks.forEach((raw, index) => {
		const where = `TaskList[${index}]`;
		const id = isRecord(raw) ? readTodoId(raw.id) : null;
		if (id === null) {
			warnings.push(
				`${where}: dropped: ${isRecord(raw) ? "no task id" : `expected an object, got ${describeValue(raw)}`}`,
			);
			return;
		}
		const item = readTodoItem(raw, TASK, where);
		warnings.push(...item.warnings);
		if (item.todo) todos.push({ ...item.todo, id });
	});
	return { todos, warnings };
}

function upsert(current: readonly Todo[], todo: Todo): Todo[] {
	const index = current.findIndex((existing) => existing.id === todo.id);
	if (index === -1) return [...current, todo];
	return current.map((existing, at) => (at === index ? todo : existing));
}

function unchanged(current: readonly Todo[], warning?: string): NormalizedTodos {
	return { todos: [...current], warnings: warning === undefined ? [] : [warning] };
}
