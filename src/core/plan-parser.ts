/**
 * Reads a Markdown work plan: its top-level checkboxes are the items, nested
 * checkboxes are acceptance criteria of their parent (never items, so they
 * cannot inflate the counts), and checkboxes inside code fences or HTML
 * comments are text (commenting an item out is a common way to shelve it).
 * Optional front matter carries the verify commands that gate completion;
 * `front-matter.ts` reads it.
 *
 * Contract: the parser never throws. Whatever it cannot read becomes a
 * `PlanError` with the exact 1-based line, and the items it could read are
 * still returned, so the caller decides whether errors are fatal.
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
import { type PlanFrontMatter, parseFrontMatter } from "./front-matter.js";
import { hash64 } from "./hash.js";
import type { PlanError } from "./plan-error.js";
import { canonicalText, countTodos, isOpen, nextOpenTodos, type TodoCounts, type TodoStatus } from "./todos.js";
import type { WorkView } from "./work-view.js";

export type { PlanFrontMatter } from "./front-matter.js";
export { type PlanError, planErrorsMessage } from "./plan-error.js";

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

interface Fence {
	char: "`" | "~";
	length: number;
}

/** The top-level list item whose content later lines may belong to. */
interface Container {
	contentColumn: number;
	item: PlanItem | null;
}

interface ListLine {
	indent: number;
	contentColumn: number;
	/** The mark inside `[ ]`, or null when the list item is not a checkbox. */
	mark: string | null;
	text: string;
}

const MARK_STATUS: Record<string, TodoStatus> = {
	" ": "pending",
	x: "completed",
	X: "completed",
	"~": "blocked",
	"-": "cancelled",
	"/": "in_progress",
};

function parsePlanBody(lines: readonly string[], start: number): { items: PlanItem[]; errors: PlanError[] } {
	const reader = new PlanBodyReader();
	for (let index = start; index < lines.length; index++) reader.read(lines[index] ?? "", index + 1);
	return { items: reader.items, errors: reader.errors };
}

/**
 * Line by line, CommonMark's block structure as far as items need it: fences
 * and comments hide lines, headings name sections, and a list line is nested
 * when it is indented to the text column of the top-level item above it.
 */
class PlanBodyReader {
	readonly items: PlanItem[] = [];
	readonly errors: PlanError[] = [];
	private fence: Fence | null = null;
	private inComment = false;
	private container: Container | null = null;
	private section: string | null = null;
	private afterBlank = false;

	read(raw: string, lineNumber: number): void {
		const line = raw.replace(/\s+$/, "");
		if (this.fence) {
			if (closesFence(line, this.fence)) this.fence = null;
			return;
		}
		if (this.inComment) {
			if (line.includes("-->")) this.inComment = false;
			return;
		}
		if (line === "") {
			this.afterBlank = true;
			return;
		}
		const indent = indentWidth(line);
		const inside = this.container !== null && indent >= this.container.contentColumn;
		const blockStart = inside || indent <= 3;
		const opened = blockStart ? openingFence(line) : null;
		const comment = blockStart && /^[ \t]*<!--/.test(line);
		const heading = indent <= 3 && !inside ? atxHeading(line) : null;
		const list = listLine(line);

		if (this.container && !inside) {
			const lazy = !this.afterBlank && !opened && !comment && !list && heading === null && !isThematicBreak(line);
			if (!lazy) this.container = null;
		}
		this.afterBlank = false;

		if (opened) this.fence = opened;
		else if (comment) this.inComment = !line.slice(line.indexOf("<!--") + 4).includes("-->");
		else if (heading !== null) this.section = heading === "" ? null : heading;
		else if (list && !isThematicBreak(line)) this.listItem(list, lineNumber);
	}

	private listItem(list: ListLine, lineNumber: number): void {
		if (this.container) {
			if (list.mark !== null && this.container.item) {
				const checked = list.mark === "x" || list.mark === "X";
				this.container.item.criteria.push({ text: list.text, checked, line: lineNumber });
			}
			return;
		}
		if (list.indent > 3) return;
		this.container = { contentColumn: list.contentColumn, item: null };
		if (list.mark === null) return;
		if (list.text === "") {
			this.errors.push({
				line: lineNumber,
				reason: "this checkbox has no text after it, so it is not counted as an item",
			});
			return;
		}
		const status = MARK_STATUS[list.mark];
		if (status === undefined) {
			this.errors.push({
				line: lineNumber,
				reason: `unknown checkbox mark [${list.mark}]; use [ ] open, [x] done, [~] blocked or [-] cancelled (counted as blocked meanwhile)`,
			});
		}
		const item: PlanItem = {
			title: list.text,
			status: status ?? "blocked",
			line: lineNumber,
			criteria: [],
			section: this.section,
		};
		this.items.push(item);
		this.container.item = item;
	}
}

/** Columns of leading whitespace, a tab advancing to the next multiple of four. */
function indentWidth(line: string): number {
	let width = 0;
	for (const char of line) {
		if (char === " ") width++;
		else if (char === "\t") width += 4 - (width % 4);
		else break;
	}
	return width;
}

function openingFence(line: string): Fence | null {
	const match = /^[ \t]*(`{3,}|~{3,})(.*)$/s.exec(line);
	if (!match) return null;
	const run = match[1] ?? "";
	const char = run[0] === "`" ? "`" : "~";
	// A backtick run followed by more backticks on the line is inline code, not a fence.
	if (char === "`" && (match[2] ?? "").includes("`")) return null;
	return { char, length: run.length };
}

/**
 * Any indentation closes a fence: stricter CommonMark rules would let a
 * mis-indented closing line swallow the rest of the plan into code.
 */
function closesFence(line: string, fence: Fence): boolean {
	const match = /^[ \t]*(`{3,}|~{3,})$/.exec(line);
	const run = match?.[1];
	return run !== undefined && run[0] === fence.char && run.length >= fence.length;
}

function atxHeading(line: string): string | null {
	const match = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?$/s.exec(line);
	if (!match) return null;
	return (match[1] ?? "").replace(/(?:^|[ \t]+)#+$/, "").trim();
}

function isThematicBreak(line: string): boolean {
	return /^ {0,3}([-*_])(?:[ \t]*\1){2,}$/.test(line);
}

function listLine(line: string): ListLine | null {
	const match = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/s.exec(line);
	if (!match) return null;
	const indent = indentWidth(line);
	const markerEnd = indent + (match[2] ?? "").length;
	const gap = match[3] === undefined ? 1 : indentWidth(match[3]);
	// Five or more spaces after the marker start indented code, so content starts one column in.
	const contentColumn = markerEnd + (gap >= 5 ? 1 : gap);
	const content = match[4] ?? "";
	const box = /^\[( |[xX]|[^\]\sA-Za-z0-9])\](?:[ \t]+(.*))?$/s.exec(content);
	if (!box) return { indent, contentColumn, mark: null, text: content.trim() };
	return { indent, contentColumn, mark: box[1] ?? " ", text: (box[2] ?? "").trim() };
}
