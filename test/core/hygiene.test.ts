import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeMark, onFileChange, stretchOf } from "../../src/core/hygiene.js";
import type { WorkView } from "../../src/core/work-view.js";
import { config, view } from "./builders.js";

/** A session's file changes, each against `list` as it stands then: the reminders given, by change (from 1). */
function changes(steps: readonly { list: WorkView; keepsList?: boolean }[], threshold: number, from: string[] = []) {
	const marks = [...from];
	const reminders: number[] = [];
	for (const [index, step] of steps.entries()) {
		if (step.list.counts.open === 0) continue;
		marks.push(changeMark(step.list, step.keepsList ?? false));
		if (onFileChange(marks.slice(-(threshold + 1)), { list: step.list }, threshold)) reminders.push(index + 1);
	}
	return { reminders, marks };
}

const edits = (list: WorkView, count: number) => Array.from({ length: count }, () => ({ list }));

/**
 * The stretch as it was kept in the session's record before the tally held
 * the list: the reference the marks must agree with, change for change.
 */
function recordModel(steps: readonly { list: WorkView; keepsList: boolean }[], threshold: number): number[] {
	let state: { list: string; edits: number; reminded: boolean } | null = null;
	const reminders: number[] = [];
	for (const [index, { list, keepsList }] of steps.entries()) {
		if (threshold <= 0 || list.counts.open === 0) continue;
		if (keepsList) {
			state = { list: list.fingerprint, edits: 0, reminded: false };
			continue;
		}
		if (state === null || state.list !== list.fingerprint)
			state = { list: list.fingerprint, edits: 0, reminded: false };
		if (state.reminded) continue;
		state.edits++;
		if (state.edits >= threshold) {
			state.reminded = true;
			reminders.push(index + 1);
		}
	}
	return reminders;
}

describe("todo hygiene", () => {
	it("reminds once, at the threshold, while the list stands still with items open", () => {
		expect(changes(edits(view("x>.."), 20), 8).reminders).toEqual([8]);
	});

	it("starts a new stretch when the list changes, and may remind again in it", () => {
		const reminders = changes([...edits(view("x>.."), 9), ...edits(view("xx>."), 9)], 3).reminders;
		expect(reminders).toEqual([3, 12]);
	});

	it("counts a change of the list between two edits as the end of the stretch", () => {
		expect(changes([...edits(view("x>.."), 2), ...edits(view("xx>."), 2)], 3).reminders).toEqual([]);
		expect(stretchOf(changes([...edits(view("x>.."), 2), ...edits(view("xx>."), 2)], 3).marks)).toBe(2);
	});

	it("treats a change to the plan file itself as keeping the list: a new stretch, with the same list", () => {
		const list = view("x>..");
		const kept = changes([...edits(list, 2), { list, keepsList: true }, ...edits(list, 3)], 3);
		expect(kept.reminders).toEqual([6]);
		expect(stretchOf([...kept.marks.slice(0, 3)])).toBe(0);
	});

	it("says nothing when nothing is open, or when it is off", () => {
		expect(changes(edits(view("xx-~"), 10), 2)).toEqual({ reminders: [], marks: [] });
		expect(changes(edits(view(".."), 10), 0).reminders).toEqual([]);
	});

	it("reminds once of changes made at once: only the one whose mark makes the run the threshold", () => {
		const list = view("x>..");
		const mark = changeMark(list, false);
		const tally = Array.from({ length: 12 }, () => mark);
		// Each of twelve at once sees the marks up to its own: exactly the fourth is due.
		const due = tally.map((_, index) => onFileChange(tally.slice(0, index + 1).slice(-5), { list }, 4) !== null);
		expect(due.filter(Boolean)).toHaveLength(1);
		expect(due.indexOf(true)).toBe(3);
	});

	it("reads marks that are no mark (a torn or old tally) as the end of a stretch", () => {
		const list = view("x>..");
		const mark = changeMark(list, false);
		expect(stretchOf(["", mark, mark])).toBe(2);
		expect(stretchOf([mark, "", mark])).toBe(1);
		expect(changes(edits(list, 3), 3, ["", ""]).reminders).toEqual([3]);
	});

	it("marks a change in the tally's alphabet: what kind, and which list", () => {
		const list = view("x>..");
		expect(changeMark(list, false)).toMatch(/^e[0-9a-f]{8}$/);
		expect(changeMark(list, true)).toMatch(/^k[0-9a-f]{8}$/);
		expect(changeMark(view("xx>."), false)).not.toBe(changeMark(list, false));
	});

	it("gives the reminders the record-kept stretch gave, for any sequence of changes (fast-check)", () => {
		const lists = ["x>..", "xx>.", "xxx>", "xxxx", ">...", "x>..-"].map(view);
		const step = fc.record({ list: fc.constantFrom(...lists), keepsList: fc.boolean() });
		fc.assert(
			fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 0, max: 9 }), (steps, threshold) => {
				const got = threshold <= 0 ? [] : changes(steps, threshold).reminders;
				expect(got).toEqual(recordModel(steps, threshold));
			}),
			{ numRuns: 400 },
		);
	});

	it("words the reminder for the list the agent works from, with the count", () => {
		const todos = changes(edits(view(">.."), 2), 2);
		const mark = changeMark(view(">.."), false);
		const text = onFileChange([mark, mark], { list: view(">..") }, 2);
		expect(todos.reminders).toEqual([2]);
		expect(text?.text).toContain("changed files 2 times since your todo list last changed");
		expect(text?.text).toContain("3 open items");
		expect(text?.detail).toMatch(/reminded to update the list$/);
		const plan: WorkView = { ...view(">."), source: "plan", name: "Ship" };
		const planned = onFileChange([changeMark(plan, false)], { list: plan, planPath: "PLAN.md" }, 1);
		expect(planned?.text).toContain('since the plan "Ship" (`PLAN.md`) last changed');
		expect(planned?.text).toContain("tick what you finished ([x])");
		expect(planned?.text).toContain("changed files 1 time since");
	});

	it("is on by default after 8 changes; 0 and false turn it off", () => {
		expect(config().hygiene.editsBeforeReminder).toBe(8);
		expect(config({ hygiene: { editsBeforeReminder: false } }).hygiene.editsBeforeReminder).toBe(false);
		expect(config({ hygiene: { editsBeforeReminder: 0 } }).hygiene.editsBeforeReminder).toBe(0);
		expect(() => config({ hygiene: { editsBeforeReminder: -1 } })).toThrow();
	});
});
