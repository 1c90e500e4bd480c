import { describe, expect, it } from "vitest";
import { type HygieneState, onFileChange } from "../../src/core/hygiene.js";
import type { WorkView } from "../../src/core/work-view.js";
import { config, view } from "./builders.js";

/** Runs `edits` file changes against one list and returns the reminders given and the state left. */
function work(list: WorkView | null, edits: number, threshold: number, from: HygieneState | null = null) {
	let state = from;
	const reminders: number[] = [];
	for (let edit = 1; edit <= edits; edit++) {
		const step = onFileChange(state, { list, keepsList: false }, threshold);
		if (step.reminder) reminders.push(edit);
		state = step.next;
	}
	return { reminders, state };
}

describe("todo hygiene", () => {
	it("reminds once, at the threshold, while the list stands still with items open", () => {
		const { reminders, state } = work(view("x>.."), 20, 8);
		expect(reminders).toEqual([8]);
		expect(state).toMatchObject({ edits: 8, reminded: true });
	});

	it("starts a new stretch when the list changes, and may remind again in it", () => {
		const first = work(view("x>.."), 9, 3);
		expect(first.reminders).toEqual([3]);
		const second = work(view("xx>."), 9, 3, first.state);
		expect(second.reminders).toEqual([3]);
	});

	it("counts a change of the list between two edits as the end of the stretch", () => {
		const before = work(view("x>.."), 2, 3);
		const after = work(view("xx>."), 2, 3, before.state);
		expect(after.reminders).toEqual([]);
		expect(after.state?.edits).toBe(2);
	});

	it("treats a change to the plan file itself as keeping the list", () => {
		const list = view("x>..");
		const before = work(list, 2, 3);
		const kept = onFileChange(before.state, { list, keepsList: true }, 3);
		expect(kept).toEqual({ next: { list: list.fingerprint, edits: 0, reminded: false }, reminder: null, kept: false });
		expect(work(list, 3, 3, kept.next).reminders).toEqual([3]);
	});

	it("says nothing when nothing is open, when there is no list, or when it is off", () => {
		expect(work(view("xx-~"), 10, 2).reminders).toEqual([]);
		expect(work(null, 10, 2)).toEqual({ reminders: [], state: null });
		expect(work(view(".."), 10, 0)).toEqual({ reminders: [], state: null });
	});

	it("words the reminder for the list the agent works from, with the count", () => {
		const todos = onFileChange(
			{ list: view(">..").fingerprint, edits: 1, reminded: false },
			{ list: view(">.."), keepsList: false },
			2,
		);
		expect(todos.reminder?.text).toContain("changed files 2 times since your todo list last changed");
		expect(todos.reminder?.text).toContain("3 open items");
		expect(todos.reminder?.detail).toMatch(/reminded to update the list$/);
		const plan: WorkView = { ...view(">."), source: "plan", name: "Ship" };
		const planned = onFileChange(null, { list: plan, keepsList: false, planPath: "PLAN.md" }, 1);
		expect(planned.reminder?.text).toContain('since the plan "Ship" (`PLAN.md`) last changed');
		expect(planned.reminder?.text).toContain("tick what you finished ([x])");
		expect(planned.reminder?.text).toContain("changed files 1 time since");
	});

	it("counts what the tally gained since the record, which only a new stretch, the list kept or the reminder rewrites", () => {
		const list = view("x>..");
		const at = (tally: number, state: HygieneState | null, keepsList = false) =>
			onFileChange(state, { list, keepsList, tally }, 4);
		const started = at(10, null);
		expect(started).toMatchObject({ next: { edits: 1, at: 10, reminded: false }, reminder: null, kept: false });
		const record = started.next;
		// The record stays as it is while only the count moves: the tally says how many.
		expect(at(11, record)).toMatchObject({ next: { edits: 2 }, reminder: null, kept: true });
		expect(at(13, record)).toMatchObject({ next: { edits: 4, at: 13, reminded: true }, kept: false });
		expect(at(13, record).reminder?.text).toContain("changed files 4 times");
		// Others' counts read back with this one (two at once): counted once each, never below.
		expect(at(12, record)).toMatchObject({ next: { edits: 3 }, kept: true });
		const reminded = at(13, record).next;
		expect(at(20, reminded)).toEqual({ next: reminded, reminder: null, kept: true });
		expect(at(14, record, true)).toMatchObject({ next: { edits: 0, at: 14 }, kept: false });
	});

	it("counts a record written before the tally once, then by the tally", () => {
		const list = view("x>..");
		const old = { list: list.fingerprint, edits: 2, reminded: false };
		const first = onFileChange(old, { list, keepsList: false, tally: 7 }, 8);
		expect(first).toMatchObject({ next: { edits: 3, at: 7 }, kept: false });
		expect(onFileChange(first.next, { list, keepsList: false, tally: 8 }, 8)).toMatchObject({
			next: { edits: 4 },
			kept: true,
		});
	});

	it("is on by default after 8 changes; 0 and false turn it off", () => {
		expect(config().hygiene.editsBeforeReminder).toBe(8);
		expect(config({ hygiene: { editsBeforeReminder: false } }).hygiene.editsBeforeReminder).toBe(false);
		expect(config({ hygiene: { editsBeforeReminder: 0 } }).hygiene.editsBeforeReminder).toBe(0);
		expect(() => config({ hygiene: { editsBeforeReminder: -1 } })).toThrow();
	});
});
