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

export function parsePlan(text: string, source?: string): ParsedPlan {
	const lines = splitLines(text);
	const front = parseFrontMatter(lines);
	const body = parsePlanBody(lines, front.bodyStart);
	const items = body.items;
	return {
		source: source ?? null,
		items,
		counts: countTodos(items),
		next: items.find((item) => isOpen(item.status)) ?? null,
		frontMatter: front.frontMatter,
		errors: [...front.errors, ...body.errors].sort((a, b) => a.line - b.line),
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
