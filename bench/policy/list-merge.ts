/**
 * The agent writes its list: statuses, wording and order come from the agent,
 * the truth of each item stays. Ticking work that is really done, or parking
 * an item that really needs someone outside, is progress; nothing else is.
 */
import type { Item } from "./agent.js";
import type { SimTodo } from "./model.js";

export function mergeList(items: readonly Item[], todos: readonly SimTodo[]): { items: Item[]; progress: boolean } {
	const before = new Map(items.map((item) => [item.id, item]));
	let progress = false;
	const merged = todos.map((todo) => {
		const old = before.get(todo.id);
		if (!old) return { ...todo, done: false, outside: false, effort: 1, worked: 0 };
		const ticked = old.done && todo.status === "completed" && old.status !== "completed";
		const parked =
			old.outside &&
			(todo.status === "blocked" || todo.status === "cancelled") &&
			old.status !== "blocked" &&
			old.status !== "cancelled";
		if (ticked || parked) progress = true;
		return { ...old, content: todo.content, status: todo.status };
	});
	return { items: merged, progress };
}
