/**
 * Codex's todo list: the `update_plan` tool, which sends the whole plan each
 * time, `{explanation?, plan: [{step, status}]}`. Its statuses are
 * `pending`, `in_progress` and `completed` (Codex refuses any other), so a
 * skipped step arrives as `completed` or leaves the plan.
 *
 * Contract: as `core/todo-normalize.ts`: input is the tool's arguments,
 * unchecked; nothing throws, and every item dropped or changed is named in
 * `warnings`.
 */
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";

export const PLAN_TOOL = "update_plan";

const UPDATE_PLAN: TodoShape = { label: PLAN_TOOL, listFields: ["plan"], text: "step", status: "status" };

export function normalizeCodexPlan(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, UPDATE_PLAN);
}
