/**
 * The body of a plan, read from its CommonMark block structure
 * (`markdown-blocks.ts`): the task items of the top-level lists are the
 * plan's items, task items anywhere under one are its criteria, and the
 * document's headings name sections. A fence or an HTML block opened inside
 * an item ends where the item ends, as CommonMark says, so it cannot swallow
 * the items after it.
 *
 * Statuses: `[ ]` open, `[x]`/`[X]` completed, `[~]` blocked, `[-]` cancelled,
 * and `[/]` in progress (the common Obsidian convention; it is open, so it can
 * never end the work early). Any other punctuation mark (`[?]`, `[!]`, `[>]`)
 * is reported and counted as blocked: not open, so it brings no nudges, and
 * not done, so the plan cannot look complete while it stands. Dropping such a
 * row from the counts, as an earlier system did with `[~]`, let a plan whose
 * rows were all marked that way loop forever. A letter or digit in brackets
 * (`- [1] Smith, 2019`) is ordinary text, not a checkbox.
 */
import { clipTitle, MAX_PLAN_TITLE_CHARS } from "./clip.js";
import { type BlockLine, type ListItemBlock, type MarkdownBlock, parseMarkdownBlocks } from "./markdown-blocks.js";
import { htmlEndMarker } from "./markdown-html.js";
import type { PlanError } from "./plan-error.js";
import type { TodoStatus } from "./todos.js";

export interface PlanCriterion {
	text: string;
	checked: boolean;
	line: number;
}

export interface PlanItem {
	title: string;
	status: TodoStatus;
	/** 1-based line in the file, front matter included. */
	line: number;
	/** Nested checkboxes, at any depth under this item, in file order. */
	criteria: PlanCriterion[];
	/** Text of the nearest heading above the item, or null before any heading. */
	section: string | null;
}

const MARK_STATUS: Record<string, TodoStatus> = {
	" ": "pending",
	x: "completed",
	X: "completed",
	"~": "blocked",
	"-": "cancelled",
	"/": "in_progress",
};

/** A checkbox at the start of a list item's first paragraph, as GFM reads task list items. */
const CHECKBOX = /^\[( |[xX]|[^\]\sA-Za-z0-9])\](?:[ \t]+(.*))?$/s;

/** A line that would be a checkbox item if it were not inside code or HTML. */
const CHECKBOX_LINE = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[( |[xX]|[^\]\sA-Za-z0-9])\](?:[ \t]|$)/;

export function parsePlanBody(lines: readonly string[], start: number): { items: PlanItem[]; errors: PlanError[] } {
	const document = parseMarkdownBlocks(lines, start);
	const items: PlanItem[] = [];
	const errors: PlanError[] = [];
	let section: string | null = null;
	for (const block of document.children) {
		if (block.kind === "heading") section = block.text === "" ? null : block.text;
		if (block.kind !== "list") continue;
		for (const listItem of block.children) {
			const item = topLevelItem(listItem, section, errors);
			if (item) items.push(item);
		}
	}
	for (const error of hiddenCheckboxes(document.children)) errors.push(error);
	return { items, errors };
}

interface Checkbox {
	mark: string;
	text: string;
	line: number;
}

/** The checkbox an item starts with, read from the first line of its first paragraph. */
function checkboxOf(item: ListItemBlock): Checkbox | null {
	const first = item.children[0];
	if (first?.kind !== "paragraph") return null;
	const box = CHECKBOX.exec((first.lines[0] ?? "").trimEnd());
	if (!box) return null;
	return { mark: box[1] ?? " ", text: (box[2] ?? "").trim(), line: first.line };
}

function topLevelItem(listItem: ListItemBlock, section: string | null, errors: PlanError[]): PlanItem | null {
	const box = checkboxOf(listItem);
	if (!box) return null;
	if (box.text === "") {
		errors.push({ line: box.line, reason: "this checkbox has no text after it, so it is not counted as an item" });
		return null;
	}
	const status = MARK_STATUS[box.mark];
	if (status === undefined) {
		errors.push({
			line: box.line,
			reason: `unknown checkbox mark [${box.mark}]; use [ ] open, [x] done, [~] blocked or [-] cancelled (counted as blocked meanwhile)`,
		});
	}
	const criteria: PlanCriterion[] = [];
	for (const block of inFileOrder(listItem.children)) {
		const criterion = block.kind === "item" ? checkboxOf(block) : null;
		if (criterion) {
			criteria.push({
				text: criterion.text,
				checked: criterion.mark === "x" || criterion.mark === "X",
				line: criterion.line,
			});
		}
	}
	return {
		title: clipTitle(box.text, MAX_PLAN_TITLE_CHARS),
		status: status ?? "blocked",
		line: box.line,
		criteria,
		section,
	};
}

/**
 * Every block at any depth, in file order. Iterative: a line of `> > > …`
 * nests as deep as it is long, deeper than a call stack goes.
 */
function inFileOrder(blocks: readonly MarkdownBlock[]): MarkdownBlock[] {
	const out: MarkdownBlock[] = [];
	const stack: MarkdownBlock[] = [...blocks].reverse();
	for (let block = stack.pop(); block !== undefined; block = stack.pop()) {
		out.push(block);
		if ("children" in block)
			for (let index = block.children.length - 1; index >= 0; index--)
				stack.push(block.children[index] as MarkdownBlock);
	}
	return out;
}

/**
 * A fence or an HTML comment that is never closed runs to the end of its
 * item, or of the whole plan, as CommonMark says; the checkboxes it swallows
 * are text, not items. That is almost always a forgotten closing line, and a
 * plan that silently lost items could look complete, so each one is reported.
 */
function hiddenCheckboxes(blocks: readonly MarkdownBlock[]): PlanError[] {
	const errors: PlanError[] = [];
	for (const block of inFileOrder(blocks)) {
		if (block.kind === "code" && block.fenced && block.unterminated) {
			hiddenIn(block.lines, block.line, "a code fence", "close the fence", errors);
		} else if (block.kind === "html" && block.unterminated) {
			const what = block.htmlKind === 2 ? "an HTML comment" : "an HTML block";
			const end = htmlEndMarker(block.htmlKind, block.lines[0]?.text ?? "");
			hiddenIn(block.lines, block.line, what, `close it with ${end}`, errors);
		}
	}
	return errors;
}

function hiddenIn(lines: readonly BlockLine[], opened: number, what: string, fix: string, into: PlanError[]): void {
	for (const line of lines) {
		if (line.line === opened || !CHECKBOX_LINE.test(line.text)) continue;
		into.push({
			line: line.line,
			reason: `this checkbox is inside ${what} opened on line ${opened} that is never closed, so it is not counted; ${fix} above this line`,
		});
	}
}
