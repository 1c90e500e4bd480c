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
 * The count is kept in two places: the stretch in the session's record, and
 * the scope's tally (`Store.tally`), to which every change adds one without
 * rewriting the record. A change that only moves the count leaves the record
 * as it is (`HygieneStep.kept`): what the stretch counts is its `edits` plus
 * what the tally gained since `at`.
 *
 * Contract: pure; the engine persists the state in the session's record.
 */

import { bool, fields, int, optional, str } from "./hand-check.js";
import { HYGIENE_PLAN_REMINDER, HYGIENE_TODOS_REMINDER } from "./prompts/hygiene.prompt.js";
import { fillTemplate } from "./template.js";
import type { WorkView } from "./work-view.js";
import { z } from "./zod.js";

const count = z.lazy(() => z.int().check(z.minimum(0)));

/** One stretch of work: the list as it stood when it began, the file changes since, and whether the reminder was given. */
export const HygieneState = z.lazy(() =>
	z.object({
		/** The list's fingerprint (`WorkView.fingerprint`) when the stretch began. */
		list: z.string(),
		edits: count,
		reminded: z.boolean(),
		/**
		 * The scope's tally when `edits` was counted: every count it gained since
		 * is a change of this stretch too. Absent: written before the tally, or
		 * by a store without one.
		 */
		at: z.optional(count),
	}),
);
export type HygieneState = z.infer<typeof HygieneState>;

/** `HygieneState`'s well-formed case by hand (`hand-check.ts`), for the scope state a hook reads on every event. */
export function handHygieneState(value: unknown): HygieneState {
	const state = fields(value, ["list", "edits", "reminded", "at"]);
	return {
		list: str(state.list),
		edits: int(state.edits, 0),
		reminded: bool(state.reminded),
		...optional(state, "at", (at) => int(at, 0)),
	};
}

export interface HygieneFacts {
	/** The list the session works from, as it stands now; null when it has none (nothing to remind of). */
	list: WorkView | null;
	/** The change touches only the plan file (or boulder's state): the agent is updating its list. */
	keepsList: boolean;
	/** The plan file, relative to the worktree, for the reminder's words. */
	planPath?: string;
	/**
	 * This change's place in the scope's tally (`Store.tally`). Absent: the
	 * change is counted here alone, one more than the record's `edits`.
	 */
	tally?: number;
}

export interface HygieneReminder {
	/** What the model reads. */
	text: string;
	/** The decision line's words (`boulder why`). */
	detail: string;
}

export interface HygieneStep {
	/** The state to keep; null: nothing to keep (no list, or the reminder is off), and nothing is written. */
	next: HygieneState | null;
	reminder: HygieneReminder | null;
	/** `next` says nothing the record and the tally do not say already: nothing to write. */
	kept: boolean;
}

/**
 * One file change the session is about to make. `threshold` is
 * `hygiene.editsBeforeReminder`; 0 turns the reminder off (and nothing is
 * counted).
 */
export function onFileChange(state: HygieneState | null, facts: HygieneFacts, threshold: number): HygieneStep {
	const list = facts.list;
	if (threshold <= 0 || list === null) return { next: null, reminder: null, kept: true };
	const tally = facts.tally === undefined ? {} : { at: facts.tally };
	if (facts.keepsList) {
		const next = { list: list.fingerprint, edits: 0, reminded: false, ...tally };
		return { next, reminder: null, kept: state !== null && sameRecord(state, next) };
	}
	const fresh = state === null || state.list !== list.fingerprint;
	// Reminded once in this stretch: nothing more to count until the list changes.
	if (!fresh && state.reminded) return { next: state, reminder: null, kept: true };
	const count = fresh ? { edits: 1, ...tally, inTally: false } : countOf(state, facts.tally);
	const due = count.edits >= threshold && list.counts.open > 0;
	const { inTally, ...counted } = count;
	const next = { list: list.fingerprint, reminded: due, ...counted };
	return {
		next,
		reminder: due ? reminderFor(list, next.edits, facts.planPath) : null,
		kept: !fresh && !due && inTally,
	};
}

/**
 * The stretch's count with this change: the tally's gain since the record's
 * `at` (`inTally`: the tally holds it, the record need not change), or one
 * more than the record's own count, for a change the record must take in
 * itself: one counted before the tally (no `at`), and one that counted
 * before a change of the list was written (a tally at or below `at`, never
 * in any gain since).
 */
function countOf(state: HygieneState, tally: number | undefined): { edits: number; at?: number; inTally: boolean } {
	if (tally === undefined) return { edits: state.edits + 1, inTally: false };
	if (state.at === undefined || tally <= state.at) {
		return { edits: state.edits + 1, at: state.at ?? tally, inTally: false };
	}
	return { edits: state.edits + tally - state.at, at: tally, inTally: true };
}

function sameRecord(a: HygieneState, b: HygieneState): boolean {
	return a.list === b.list && a.edits === b.edits && a.reminded === b.reminded && a.at === b.at;
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
