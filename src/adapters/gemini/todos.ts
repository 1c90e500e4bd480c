/**
 * Gemini CLI's todo list: the `write_todos` tool's input, `{todos:
 * [{description, status}]}`, whole each time, with the statuses pending,
 * in_progress, completed, cancelled and blocked (boulder's own five).
 *
 * Contract: as `core/todo-normalize.ts`: nothing throws, and every item
 * dropped or changed is named in `warnings`.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";

export const TODO_TOOL = "write_todos";

const WRITE_TODOS: TodoShape = { label: TODO_TOOL, listFields: ["todos"], text: "description", status: "status" };

export function normalizeGeminiTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, WRITE_TODOS);
}
