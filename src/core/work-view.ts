/**
 * What the policy sees of the work, whatever its source: the agent's own todo
 * list or a Markdown plan being rolled.
 */
import { countTodos, listFingerprint, nextOpenTodos, type Todo, type TodoCounts } from "./todos.js";

export interface WorkView {
	source: "todos" | "plan";
	/** The plan's name, for plans. */
	name?: string;
	counts: TodoCounts;
	/** Titles of the next open items, in the order they should be done. */
	next: string[];
	/** Changes whenever any item or status changes; reordering is no change. */
	fingerprint: string;
	/** Commands that must pass before the work counts as complete. */
	verify: string[];
	/** Set for a plan in orchestrate mode: the subagent session that worked on each item, by item key. */
	orchestrate?: { subagents: Readonly<Record<string, string>> };
}

export function todosView(todos: readonly Todo[], nextItems: number): WorkView {
	return {
		source: "todos",
		counts: countTodos(todos),
		next: nextOpenTodos([...todos], nextItems).map((todo) => todo.content.trim()),
		fingerprint: listFingerprint(todos),
		verify: [],
	};
}

/** Done, for progress: completed items (cancelled and blocked leave the open set instead). */
export function doneCount(view: WorkView): number {
	return view.counts.completed;
}
