import { describe, expect, it } from "vitest";
import { countTodos, listFingerprint, nextOpenTodos, openFingerprint, type Todo } from "../../src/core/todos.js";

const list: Todo[] = [
	{ content: "write the parser", status: "completed" },
	{ content: "write  the tests", status: "in_progress" },
	{ content: "update the docs", status: "pending" },
	{ content: "ask legal", status: "blocked" },
	{ content: "old idea", status: "cancelled" },
];

describe("todos", () => {
	it("counts blocked items as neither open nor done", () => {
		expect(countTodos(list)).toEqual({ total: 5, open: 2, completed: 1, cancelled: 1, blocked: 1 });
	});

	it("fingerprints the open set the same under reordering, whitespace and pending/in_progress flips", () => {
		const shuffled: Todo[] = [
			{ content: "update the docs ", status: "in_progress" },
			{ content: "old idea", status: "cancelled" },
			{ content: "write the tests", status: "pending" },
		];
		expect(openFingerprint(shuffled)).toBe(openFingerprint(list));
	});

	it("changes the open fingerprint when an open item changes materially", () => {
		const changed = list.map((todo) =>
			todo.content === "update the docs" ? { ...todo, content: "delete the docs" } : todo,
		);
		expect(openFingerprint(changed)).not.toBe(openFingerprint(list));
		expect(openFingerprint([])).toBe("");
	});

	it("changes the list fingerprint on any status change", () => {
		const done = list.map((todo) => (todo.status === "pending" ? { ...todo, status: "completed" as const } : todo));
		expect(listFingerprint(done)).not.toBe(listFingerprint(list));
		expect(listFingerprint([...list].reverse())).toBe(listFingerprint(list));
	});

	it("names started items first", () => {
		expect(nextOpenTodos(list, 2).map((todo) => todo.content)).toEqual(["write  the tests", "update the docs"]);
	});
});
