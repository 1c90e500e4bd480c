import { describe, expect, it } from "vitest";
import { readAssistant, spendOf } from "../../../src/adapters/pi/event-read.js";
import { normalizePiTodos } from "../../../src/adapters/pi/todos.js";

describe("reading pi's assistant messages", () => {
	it("reads how the call ended, its text and its real spend (cache reads are not spend)", () => {
		const message = {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "hmm" },
				{ type: "text", text: "Done with A." },
				{ type: "toolCall", id: "c1", name: "todo_write", arguments: {} },
				{ type: "text", text: "Next: B." },
			],
			usage: { input: 70, output: 7, cacheRead: 30, cacheWrite: 5, totalTokens: 112 },
			stopReason: "toolUse",
		};
		expect(readAssistant(message)).toEqual({
			stopReason: "toolUse",
			errorMessage: null,
			text: "Done with A.\nNext: B.",
			spend: { input: 70, output: 7, cacheWrite: 5 },
		});
	});

	it("keeps the error of a failed call", () => {
		const report = readAssistant({ role: "assistant", content: [], stopReason: "error", errorMessage: "HTTP 500" });
		expect(report).toMatchObject({ stopReason: "error", errorMessage: "HTTP 500", text: "" });
	});

	it("ignores every other message", () => {
		for (const role of ["user", "toolResult", "custom", "system"])
			expect(readAssistant({ role, content: "x" })).toBeNull();
		expect(readAssistant(null)).toBeNull();
		expect(readAssistant([])).toBeNull();
	});

	it("reads a usage it does not understand as no spend, never as a crash", () => {
		expect(spendOf({ input: -3, output: "7", cacheWrite: Number.NaN })).toEqual({ input: 0, output: 0, cacheWrite: 0 });
		expect(spendOf(undefined)).toEqual({ input: 0, output: 0, cacheWrite: 0 });
		expect(readAssistant({ role: "assistant" })).toMatchObject({ stopReason: "unknown", text: "" });
	});
});

describe("todo_write's list", () => {
	it("reads the model's words for statuses and names what it drops", () => {
		const { todos, warnings } = normalizePiTodos({
			todos: [
				{ content: "Item A", status: "done", priority: "high" },
				{ content: "Item B", status: "in-progress", id: "b" },
				{ content: "", status: "pending" },
			],
		});
		expect(todos).toEqual([
			{ content: "Item A", status: "completed", priority: "high" },
			{ content: "Item B", status: "in_progress", id: "b" },
		]);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^todo_write\[2\]/);
	});
});
