/**
 * Reads a Markdown work plan: its top-level checkboxes are the items, nested
 * checkboxes are acceptance criteria of their parent (never items, so they
 * cannot inflate the counts), and checkboxes inside code or HTML blocks are
 * text (commenting an item out is a common way to shelve it). The body is read
 * as CommonMark with GFM task items (`plan-body.ts`); optional front matter
 * carries the verify commands that gate completion (`front-matter.ts`).
 *
 * Contract: the parser never throws. Whatever it cannot read becomes a
 * `PlanError` with the exact 1-based line, and the items it could read are
 * still returned, so the caller decides whether errors are fatal.
 */
import { type PlanFrontMatter, parseFrontMatter } from "./front-matter.js";
import { hash64 } from "./hash.js";
import { type PlanItem, parsePlanBody } from "./plan-body.js";
import type { PlanError } from "./plan-error.js";
import { canonicalText, countTodos, isOpen, nextOpenTodos, type TodoCounts } from "./todos.js";
import type { WorkView } from "./work-view.js";

export type { PlanFrontMatter } from "./front-matter.js";
export type { PlanCriterion, PlanItem } from "./plan-body.js";
export { type PlanError, planErrorsMessage } from "./plan-error.js";

export interface ParsedPlan {
	source: string | null;
	items: PlanItem[];
	counts: TodoCounts;
	/** The first open item in file order. */
	next: PlanItem | null;
	frontMatter: PlanFrontMatter;
	errors: PlanError[];
}

/**
 * The most checkboxes (items and their criteria) of one plan boulder reads:
 * a plan past it is a plan with an error, so never continued, verified or
 * completed. They are counted before the plan is parsed, line by line (a
 * checkbox in a code fence counts too), so such a plan costs a hook a quick
 * scan, not a parse.
 */
export const MAX_PLAN_CHECKBOXES = 10_000;

/** A line that may hold a checkbox: a list marker, then `[?]`. */
const CHECKBOX_LINE = /^[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[^\]\r\n]\]/gm;

export function parsePlan(text: string, source?: string): ParsedPlan {
	const lines = splitLines(text);
	const front = parseFrontMatter(lines);
	const tooMany = tooManyCheckboxes(text);
	const body = tooMany ? { items: [], errors: [tooMany] } : parsePlanBody(lines, front.bodyStart);
	const errors = [...front.errors, ...body.errors].sort((a, b) => a.line - b.line);
	return { ...parsedPlanOf(body.items, front.frontMatter, source), errors };
}

/**
 * What `parsePlan` reads from a plan, as the plan-parse cache keeps it
 * (`state/plan-parse-cache.ts`): a kept parse is only good for the format it
 * was made by. Raise it with any change to what the parser returns for a
 * text (the items, their statuses, titles, lines, criteria and sections; the
 * front matter); a test holds the parser's sources to it.
 */
export const PLAN_PARSE_FORMAT = 1;

/** A parse without errors from its items and front matter (the counts and the next item follow from them). */
export function parsedPlanOf(items: PlanItem[], frontMatter: PlanFrontMatter, source?: string): ParsedPlan {
	return {
		source: source ?? null,
		items,
		counts: countTodos(items),
		next: items.find((item) => isOpen(item.status)) ?? null,
		frontMatter,
		errors: [],
	};
}

/** The error of a plan with more than `MAX_PLAN_CHECKBOXES` checkbox lines, at the first one past it; null otherwise. */
function tooManyCheckboxes(text: string): PlanError | null {
	CHECKBOX_LINE.lastIndex = 0;
	let count = 0;
	let past = -1;
	while (CHECKBOX_LINE.exec(text) !== null) {
		count++;
		if (count === MAX_PLAN_CHECKBOXES + 1) past = CHECKBOX_LINE.lastIndex;
	}
	if (past === -1) return null;
	let line = 1;
	for (let at = text.indexOf("\n"); at !== -1 && at < past; at = text.indexOf("\n", at + 1)) line++;
	return {
		line,
		reason: `the plan has ${count.toLocaleString("en-US")} checkboxes, more than the ${MAX_PLAN_CHECKBOXES.toLocaleString("en-US")} boulder reads; split it into smaller plans`,
	};
}

/**
 * The policy's view of a plan. Its fingerprint covers titles and statuses in
 * file order, unlike the todo list's order-free one: an agent rewrites its
 * todo list wholesale and may shuffle it, but a plan file is edited in place,
 * its order is the order of work (`next` follows it), and a plan may repeat a
 * title in different places ("Run the tests"), which only position tells apart.
 * Criteria are left out: they are not items, so ticking one is not progress.
 * The verify commands are in: the policy keys "verified" and "completed" on
 * the fingerprint, so a changed completion gate must run again.
 */
export function planView(plan: ParsedPlan, name: string, nextItems: number): WorkView {
	const asTodos = plan.items.map((item) => ({ content: item.title, status: item.status }));
	return {
		source: "plan",
		name,
		counts: plan.counts,
		next: nextOpenTodos(asTodos, nextItems).map((todo) => todo.content),
		fingerprint: planFingerprint(plan.items, plan.frontMatter.verify),
		verify: [...plan.frontMatter.verify],
	};
}

export function planFingerprint(
	items: readonly Pick<PlanItem, "title" | "status">[],
	verify: readonly string[] = [],
): string {
	const entries = items.map((item) => [item.status, canonicalText(item.title)]);
	return hash64(JSON.stringify({ entries, verify }));
}

/** Accepts CRLF, LF and lone CR, and drops a leading byte-order mark. */
function splitLines(text: string): string[] {
	return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
}
