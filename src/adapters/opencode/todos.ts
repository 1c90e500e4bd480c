/**
 * OpenCode's todo shape, read with the core's generic list reader: the list
 * `session.todo()` answers, or a `todo.updated` event's `{sessionID, todos}`.
 * Items are `{content, status, priority, id}`; 1.18.33 no longer sends `id`.
 *
 * Contract: as `core/todo-normalize.ts`: input is unchecked; nothing throws,
 * and every item dropped or changed is named in `warnings`.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";

const OPENCODE_TODOS: TodoShape = {
	label: "OpenCode todos",
	listFields: ["todos"],
	text: "content",
	status: "status",
	id: "id",
	priority: "priority",
};

export function normalizeOpenCodeTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, OPENCODE_TODOS);
}
