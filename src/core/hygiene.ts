/**
 * Todo hygiene: an agent that keeps changing files while its list stands
 * still is working from a list that no longer says where the work is. After
 * `hygiene.editsBeforeReminder` file changes since the list last changed,
 * with items still open, one short reminder to update it rides on the next
 * tool result. One per stretch of work: the stretch ends when the list
 * changes. Never a turn of its own, never a nudge.
 *
 * The list is the one the idle decision reads: the bound plan's items, or the
 * agent's own todo list. A change that touches only the plan file is the
 * agent keeping the list, not working past it: it starts a new stretch.
 *
 * Each change is a mark in the scope's tally (`Store.tally`), appended
 * without a lock or a rewrite of the session's record: the list it was made
 * against and whether it kept the list. A stretch is the run of marks of one
 * list since the last change that kept it; the reminder is due on the
 * change that makes the run `editsBeforeReminder` long, so of changes made
 * at once exactly one gives it, and no record need say it was given.
 *
 * Contract: pure; the engine appends the mark and hands back the marks.
 */

import { hash64 } from "./hash.js";
import { HYGIENE_PLAN_REMINDER, HYGIENE_TODOS_REMINDER } from "./prompts/hygiene.prompt.js";
import { fillTemplate } from "./template.js";
import type { WorkView } from "./work-view.js";

/** How many hex digits of the list a mark keeps: two lists told apart but for 1 in 2^32. */
const LIST_DIGITS = 8;

export interface HygieneFacts {
	/** The list the session works from, as it stands now (nothing to remind of without one). */
	list: WorkView;
	/** The plan file, relative to the worktree, for the reminder's words. */
	planPath?: string;
}

export interface HygieneReminder {
	/** What the model reads. */
	text: string;
	/** The decision line's words (`boulder why`). */
	detail: string;
}

/**
 * The tally's mark for one file change (`TALLY_MARK_LENGTH` characters):
 * `k` for a change that keeps the list (the plan file itself), `e` for any
 * other, then a digest of the list's fingerprint as it stands before the
 * change.
 */
export function changeMark(list: WorkView, keepsList: boolean): string {
	return `${keepsList ? "k" : "e"}${hash64(list.fingerprint).slice(0, LIST_DIGITS)}`;
}

/**
 * The reminder for the change whose mark ends `marks` (the tally's marks up
 * to it, oldest first: `threshold + 1` of them when the tally holds that
 * many), or null. `threshold` is `hygiene.editsBeforeReminder`; 0 turns the
 * reminder off.
 */
export function onFileChange(marks: readonly string[], facts: HygieneFacts, threshold: number): HygieneReminder | null {
	if (threshold <= 0 || facts.list.counts.open === 0) return null;
	return stretchOf(marks) === threshold ? reminderFor(facts.list, threshold, facts.planPath) : null;
}

/** How many changes of one stretch end `marks`: the run of the last mark, unless it kept the list (0). */
export function stretchOf(marks: readonly string[]): number {
	const last = marks.at(-1);
	if (last === undefined || !last.startsWith("e")) return 0;
	let run = 0;
	for (let index = marks.length - 1; index >= 0 && marks[index] === last; index--) run++;
	return run;
}

function reminderFor(list: WorkView, edits: number, planPath: string | undefined): HygieneReminder {
	const open = list.counts.open;
	const items = `${open} open item${open === 1 ? "" : "s"}`;
	const times = `${edits} time${edits === 1 ? "" : "s"}`;
	if (list.source === "plan") {
		const plan = list.name ?? "the plan";
		const where = planPath ? ` (\`${planPath}\`)` : "";
		return {
			text: fillTemplate(HYGIENE_PLAN_REMINDER, { edits: times, plan, where, items }),
			detail: `the agent changed files ${times} since the plan "${plan}" last changed, with ${items}; it was reminded to tick what it finished`,
		};
	}
	return {
		text: fillTemplate(HYGIENE_TODOS_REMINDER, { edits: times, items }),
		detail: `the agent changed files ${times} since its todo list last changed, with ${items}; it was reminded to update the list`,
	};
}
