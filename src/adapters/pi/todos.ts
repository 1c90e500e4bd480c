/**
 * The todo list of pi, which has none of its own: boulder's `todo_write`
 * tool takes `{todos: [{content, status, priority?, id?}]}`, read with the
 * core's generic list reader, so a model that writes `done` or `in-progress`
 * is understood, and every item dropped is named.
 *
 * Contract: as `core/todo-normalize.ts`: input is unchecked; nothing throws.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";

const PI_TODOS: TodoShape = {
	label: "todo_write",
	listFields: ["todos"],
	text: "content",
	status: "status",
	id: "id",
	priority: "priority",
};

export function normalizePiTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, PI_TODOS);
}
