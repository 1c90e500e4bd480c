/**
 * Qwen Code's todo list: the `todo_write` tool (off unless the setting
 * `tools.todoWrite.enabled` is true), whose input is the whole list
 * `{todos: [{id, content, status}]}`; its response's `returnDisplay.todos`
 * holds the list as the harness kept it.
 *
 * Contract: as `core/todo-normalize.ts`: input unchecked, nothing throws,
 * every item dropped or changed is named in `warnings`.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import { isRecord } from "../shared/hook-input.js";

export const TODO_TOOL = "todo_write";

const TODO_WRITE: TodoShape = {
	label: TODO_TOOL,
	listFields: ["todos"],
	text: "content",
	status: "status",
	id: "id",
};

export function normalizeQwenTodoWrite(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_WRITE);
}

/** The list a `todo_write` call left: its input, else the list in its response's display. */
export function todoWriteList(toolInput: unknown, toolResponse: unknown): NormalizedTodos {
	if (isRecord(toolInput) && Array.isArray(toolInput.todos)) return normalizeQwenTodoWrite(toolInput);
	const display = isRecord(toolResponse) ? toolResponse.returnDisplay : undefined;
	return normalizeQwenTodoWrite(display);
}
