/**
 * The limits that keep a hook's cost bounded on huge input, each failing
 * closed: a plan with too many checkboxes is a plan with an error, a list
 * with too many todos reads as none, a huge title is clipped wherever it is
 * sent or shown.
 */
import { describe, expect, it } from "vitest";
import { clipTitle, MAX_PLAN_TITLE_CHARS, MAX_TITLE_CHARS } from "../../src/core/clip.js";
import { MAX_PLAN_CHECKBOXES, parsePlan, planView } from "../../src/core/plan-parser.js";
import { summarizePlan } from "../../src/core/plan-summary.js";
import { continuationPrompt, workCompleteMessage } from "../../src/core/prompts.js";
import { MAX_TODOS, normalizeTodoList } from "../../src/core/todo-normalize.js";
import { todosView } from "../../src/core/work-view.js";

const SHAPE = { label: "todos", listFields: ["todos"], text: "content", status: "status" } as const;

describe("a plan with more checkboxes than boulder reads", () => {
	it("is a plan with an error naming the count and the line past the limit, with no items", () => {
		const lines = Array.from({ length: MAX_PLAN_CHECKBOXES + 5 }, (_, index) => `- [ ] Item ${index + 1}`);
		const plan = parsePlan(`# Big\n\n${lines.join("\n")}\n`, "big.md");

		expect(plan.items).toEqual([]);
		expect(plan.errors).toEqual([
			{ line: MAX_PLAN_CHECKBOXES + 3, reason: expect.stringMatching(/10,005 checkboxes, more than the 10,000/) },
		]);
	});

	it("at the limit is read as usual", () => {
		const lines = Array.from({ length: MAX_PLAN_CHECKBOXES }, (_, index) => `- [ ] Item ${index + 1}`);
		const plan = parsePlan(`# Big\n\n${lines.join("\n")}\n`);
		expect(plan.errors).toEqual([]);
		expect(plan.items).toHaveLength(MAX_PLAN_CHECKBOXES);
	});
});

describe("a todo list longer than boulder follows", () => {
	it("reads as no todos, with a warning naming the count", () => {
		const todos = Array.from({ length: MAX_TODOS + 1 }, (_, index) => ({ content: `T${index}`, status: "pending" }));
		const read = normalizeTodoList({ todos }, SHAPE);
		expect(read.todos).toEqual([]);
		expect(read.warnings).toEqual([expect.stringMatching(/2,001 todos, more than the 2,000 boulder follows/)]);
		expect(normalizeTodoList({ todos: todos.slice(1) }, SHAPE).todos).toHaveLength(MAX_TODOS);
	});
});

describe("a huge title", () => {
	const huge = `Item ${"long ".repeat(800_000)}`;

	it("is kept to MAX_PLAN_TITLE_CHARS when a plan is read, and to MAX_TITLE_CHARS in its summary's next item", () => {
		const plan = parsePlan(`# Plan\n\n- [x] First\n- [ ] ${huge}\n`);
		expect(plan.items[1]?.title.length).toBeLessThan(MAX_PLAN_TITLE_CHARS + 100);
		expect(plan.items[1]?.title).toMatch(/… \(cut: 4,000,004 characters in all\)$/);
		expect(summarizePlan(plan).next?.length).toBeLessThan(MAX_TITLE_CHARS + 100);
	});

	it("becomes a nudge of a few KB, from a plan or from a todo list", () => {
		const plan = parsePlan(`# Plan\n\n- [ ] ${huge}\n- [ ] ${huge}x\n`);
		expect(continuationPrompt(planView(plan, huge, 3)).length).toBeLessThan(8 * 1024);
		const list = todosView([{ content: huge, status: "pending" }], 3);
		expect(continuationPrompt(list).length).toBeLessThan(4 * 1024);
		expect(workCompleteMessage({ ...planView(plan, huge, 3) }).length).toBeLessThan(4 * 1024);
	});

	it("is clipped with its full length said, and a short one is left as it is", () => {
		expect(clipTitle("short")).toBe("short");
		expect(clipTitle("x".repeat(MAX_TITLE_CHARS + 1))).toBe(
			`${"x".repeat(MAX_TITLE_CHARS)}… (cut: 1,001 characters in all)`,
		);
		// A surrogate pair is never cut in two.
		const emoji = `${"x".repeat(MAX_TITLE_CHARS - 1)}😀😀`;
		expect(clipTitle(emoji)).toBe(`${"x".repeat(MAX_TITLE_CHARS - 1)}… (cut: 1,003 characters in all)`);
	});
});
