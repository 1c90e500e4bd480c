/**
 * The todo model shared by every harness: statuses, counts and a canonical
 * fingerprint of the open set. Normalisers from each harness's own shape live
 * in `todo-normalize.ts`.
 */

import { fields, nonEmpty, oneOf, optional, str } from "./hand-check.js";
import { hash64 } from "./hash.js";
import { z } from "./zod.js";

/** Every status a todo (and a plan item) can have. */
export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled", "blocked"] as const;

export const TodoStatus = z.lazy(() => z.enum(TODO_STATUSES));
export type TodoStatus = z.infer<typeof TodoStatus>;

export const TodoPriority = z.lazy(() => z.enum(["high", "medium", "low"]));
export type TodoPriority = z.infer<typeof TodoPriority>;

export const Todo = z.lazy(() =>
	z.object({
		content: z.string().check(z.minLength(1)),
		status: TodoStatus,
		id: z.optional(z.string()),
		priority: z.optional(TodoPriority),
	}),
);
export type Todo = z.infer<typeof Todo>;

/** `Todo`'s well-formed case by hand (`hand-check.ts`), for the scope state a hook reads on every event. */
export function handTodo(value: unknown): Todo {
	const todo = fields(value, ["content", "status", "id", "priority"]);
	return {
		content: nonEmpty(todo.content),
		status: oneOf(todo.status, TODO_STATUSES),
		...optional(todo, "id", str),
		...optional(todo, "priority", (priority) => oneOf(priority, ["high", "medium", "low"])),
	};
}

/** `blocked` waits on the outside world: neither open (no nudges) nor done. */
export function isOpen(status: TodoStatus): boolean {
	return status === "pending" || status === "in_progress";
}

export interface TodoCounts {
	total: number;
	open: number;
	completed: number;
	cancelled: number;
	blocked: number;
}

export function countTodos(todos: readonly Pick<Todo, "status">[]): TodoCounts {
	const counts: TodoCounts = { total: todos.length, open: 0, completed: 0, cancelled: 0, blocked: 0 };
	for (const todo of todos) {
		if (isOpen(todo.status)) counts.open++;
		else if (todo.status === "completed") counts.completed++;
		else if (todo.status === "cancelled") counts.cancelled++;
		else counts.blocked++;
	}
	return counts;
}

/** Collapses runs of whitespace and trims, so rewrapping text is no change. */
export function canonicalText(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/**
 * A fingerprint of the open set: the same for any order of the items, any
 * whitespace in their text, and any pending/in_progress flip (both are open).
 * Returns "" for an empty open set.
 */
export function openFingerprint(todos: readonly Pick<Todo, "status" | "content">[]): string {
	const items = todos
		.filter((todo) => isOpen(todo.status))
		.map((todo) => canonicalText(todo.content))
		.sort();
	if (items.length === 0) return "";
	return hash64(JSON.stringify(items));
}

/** The first open items, in list order, `in_progress` first. */
export function nextOpenTodos(todos: readonly Todo[], limit: number): Todo[] {
	const open = todos.filter((todo) => isOpen(todo.status));
	const started = open.filter((todo) => todo.status === "in_progress");
	const waiting = open.filter((todo) => todo.status === "pending");
	return [...started, ...waiting].slice(0, limit);
}

/** A fingerprint of the whole list with statuses: any real change changes it. */
export function listFingerprint(todos: readonly Pick<Todo, "status" | "content">[]): string {
	const items = todos.map((todo) => `${todo.status}|${canonicalText(todo.content)}`).sort();
	return hash64(JSON.stringify(items));
}
