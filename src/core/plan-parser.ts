/**
 * Reads a Markdown work plan: its top-level checkboxes are the items, nested
 * checkboxes are acceptance criteria of their parent (never items, so they
 * cannot inflate the counts), and checkboxes inside code fences or HTML
 * comments are text (commenting an item out is a common way to shelve it).
 * Optional front matter carries the verify commands that gate completion.
 *
 * The parser never throws: whatever it cannot read becomes a `PlanError` with
 * the exact 1-based line, and the items it could read are still returned, so
 * the caller decides whether errors are fatal.
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
import { hash64 } from "./hash.js";
import { canonicalText, countTodos, isOpen, nextOpenTodos, type TodoCounts, type TodoStatus } from "./todos.js";
import type { WorkView } from "./work-view.js";

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

export interface PlanFrontMatter {
	verify: string[];
	verifyTimeoutMs: number | null;
	name: string | null;
}

export interface PlanError {
	line: number;
	reason: string;
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

/** One line per error, `file:line: reason`, the shape editors and terminals link. */
export function planErrorsMessage(errors: readonly PlanError[], source: string): string {
	return errors.map((error) => `${source}:${error.line}: ${error.reason}`).join("\n");
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

// ---------------------------------------------------------------- body

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

// ---------------------------------------------------------------- front matter

interface FrontMatterResult {
	frontMatter: PlanFrontMatter;
	errors: PlanError[];
	/** Index of the first body line. */
	bodyStart: number;
}

type KeyName = "verify" | "timeout" | "name";

const KNOWN_KEYS: Record<string, KeyName> = {
	verify: "verify",
	verify_timeout: "timeout",
	verifyTimeout: "timeout",
	name: "name",
	title: "name",
};

function emptyFrontMatter(): PlanFrontMatter {
	return { verify: [], verifyTimeoutMs: null, name: null };
}

/**
 * A small YAML subset, read by hand so every mistake gets its exact line and
 * a sentence a person can act on. Unknown keys are skipped with everything
 * indented under them, so plans written for other tools keep working.
 */
function parseFrontMatter(lines: readonly string[]): FrontMatterResult {
	if ((lines[0] ?? "").trimEnd() !== "---") {
		return { frontMatter: emptyFrontMatter(), errors: [], bodyStart: 0 };
	}
	const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)$/.test(line.trimEnd()));
	if (close === -1) {
		return {
			frontMatter: emptyFrontMatter(),
			errors: [{ line: 1, reason: "front matter opens with --- on line 1 but no closing --- line follows" }],
			bodyStart: 1,
		};
	}
	const reader = new FrontMatterReader();
	for (let index = 1; index < close; index++) reader.read(lines[index] ?? "", index + 1);
	return { frontMatter: reader.result(), errors: reader.errors, bodyStart: close + 1 };
}

class FrontMatterReader {
	readonly errors: PlanError[] = [];
	private verify: string[] = [];
	private timeoutMs: number | null = null;
	private name: string | null = null;
	private readonly seen = new Map<KeyName, { key: string; line: number }>();
	/** The key whose continuation lines (indented, or `- item`) come next. */
	private current: { key: string; known: KeyName | null; line: number; acceptsList: boolean } | null = null;

	read(raw: string, line: number): void {
		const text = raw.trimEnd();
		if (text.trim() === "" || /^\s*#/.test(text)) return;
		const isContinuation = /^[ \t]/.test(text) || /^-(?:[ \t]|$)/.test(text);
		if (isContinuation) {
			this.continuation(text, line);
			return;
		}
		const pair = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*))?$/s.exec(text);
		if (!pair) {
			this.current = null;
			this.errors.push({ line, reason: `expected "key: value" in the front matter, got ${JSON.stringify(text)}` });
			return;
		}
		const value = (pair[2] ?? "").trim();
		this.keyValue(pair[1] ?? "", value.startsWith("#") ? "" : value, line);
	}

	result(): PlanFrontMatter {
		return { verify: this.verify, verifyTimeoutMs: this.timeoutMs, name: this.name };
	}

	private keyValue(key: string, value: string, line: number): void {
		const known = KNOWN_KEYS[key] ?? null;
		this.current = { key, known, line, acceptsList: known === "verify" && value === "" };
		if (known === null) return;
		const first = this.seen.get(known);
		if (first !== undefined) {
			this.current = { key, known: null, line, acceptsList: false };
			const what = first.key === key ? `${key} is already given` : `${key} repeats ${first.key}, given`;
			this.errors.push({ line, reason: `${what} on line ${first.line}; give it once` });
			return;
		}
		this.seen.set(known, { key, line });
		const errorsBefore = this.errors.length;
		if (known === "verify") this.verifyValue(key, value, line);
		else if (known === "timeout") this.timeoutValue(key, value, line);
		else this.nameValue(key, value, line);
		// One mistake, one error: lines continuing a value already reported are skipped.
		if (this.errors.length > errorsBefore) this.current = { key, known: null, line, acceptsList: false };
	}

	private continuation(text: string, line: number): void {
		const current = this.current;
		if (!current) {
			this.errors.push({
				line,
				reason: `expected "key: value" in the front matter, got ${JSON.stringify(text.trim())} with no key above it`,
			});
			return;
		}
		if (current.known === null) return;
		const entry = /^[ \t]*-(?:[ \t]+(.*)|)$/s.exec(text);
		if (!current.acceptsList || !entry) {
			this.errors.push({
				line,
				reason:
					current.known === "verify"
						? `verify takes one command on its own line or a list of "- command" lines; ${JSON.stringify(text.trim())} is neither`
						: `${current.key} takes a single value on line ${current.line}; ${JSON.stringify(text.trim())} cannot continue it`,
			});
			return;
		}
		const command = verifyCommand((entry[1] ?? "").trim());
		if (typeof command === "string") this.verify.push(command);
		else this.errors.push({ line, reason: command.error });
	}

	private verifyValue(key: string, value: string, line: number): void {
		if (value === "") return;
		if (value.startsWith("[")) {
			const list = flowList(value);
			if ("error" in list) {
				this.errors.push({ line, reason: `${key}: ${list.error}` });
				return;
			}
			for (const entry of list.entries) {
				const command = verifyCommand(entry);
				if (typeof command === "string") this.verify.push(command);
				else this.errors.push({ line, reason: command.error });
			}
			return;
		}
		const command = verifyCommand(value);
		if (typeof command === "string") this.verify.push(command);
		else this.errors.push({ line, reason: command.error });
	}

	private timeoutValue(key: string, value: string, line: number): void {
		const scalar = readScalar(value);
		const text = "error" in scalar ? value : scalar.value;
		const ms = "error" in scalar ? null : parseDurationMs(text);
		if (ms === null) {
			this.errors.push({
				line,
				reason: `${key} must be a duration such as 90s or 5m, got ${JSON.stringify(text)}`,
			});
			return;
		}
		this.timeoutMs = ms;
	}

	private nameValue(key: string, value: string, line: number): void {
		const scalar = readScalar(value);
		if ("error" in scalar) {
			this.errors.push({ line, reason: `${key}: ${scalar.error}` });
			return;
		}
		this.name = scalar.value.trim() === "" ? null : scalar.value.trim();
	}
}

/**
 * A positive duration in whole milliseconds: a bare number is milliseconds;
 * otherwise one or more `<number><unit>` runs with units ms, s, m, h
 * (`90s`, `5m`, `1m30s`, `1.5h`). Returns null for anything else or zero.
 */
export function parseDurationMs(text: string): number | null {
	const value = text.trim();
	if (/^\d+$/.test(value)) {
		const ms = Number(value);
		return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
	}
	if (!/^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/.test(value)) return null;
	const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
	let total = 0;
	for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
		total += Number(amount) * (unitMs[unit ?? ""] ?? 0);
	}
	const ms = Math.round(total);
	return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

function verifyCommand(raw: string): string | { error: string } {
	if (raw.startsWith("[") || raw.startsWith("{")) {
		return { error: `a verify command must be a string, got ${raw.startsWith("[") ? "a list" : "a mapping"} ${raw}` };
	}
	if (/^-(?:[ \t]|$)/.test(raw)) return { error: `a verify command must be a string, got a nested list ${raw}` };
	if (raw.startsWith("|") || raw.startsWith(">")) {
		return {
			error: `block text (${raw[0]}) is not supported for verify; put each command on its own "- command" line`,
		};
	}
	const scalar = readScalar(raw);
	if ("error" in scalar) return { error: `verify: ${scalar.error}` };
	if (scalar.value.trim() === "") return { error: "a verify command is empty" };
	if (!scalar.quoted && nonStringScalar(scalar.value)) {
		return {
			error: `a verify command must be a string, got ${JSON.stringify(scalar.value)}; put it in quotes if it is meant as a command`,
		};
	}
	if (!scalar.quoted && /^[A-Za-z_][\w-]*:(?:[ \t]|$)/.test(scalar.value)) {
		return {
			error: `a verify command must be a string, got the mapping ${JSON.stringify(scalar.value)}; write the command itself, or quote it`,
		};
	}
	return scalar.value;
}

/** What YAML would read as null, a boolean or a number rather than text. */
function nonStringScalar(value: string): boolean {
	if (/^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)?$/.test(value)) return true;
	return /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(
		value,
	);
}

type Scalar = { value: string; quoted: boolean } | { error: string };

/** A plain, 'single' or "double" quoted scalar, followed by at most a comment. */
function readScalar(raw: string): Scalar {
	const text = raw.trim();
	const quote = text[0];
	if (quote !== '"' && quote !== "'") {
		const comment = /(^|[ \t])#/.exec(text);
		return { value: (comment ? text.slice(0, comment.index) : text).trimEnd(), quoted: false };
	}
	const read = quote === '"' ? readDoubleQuoted(text) : readSingleQuoted(text);
	if ("error" in read) return read;
	const rest = text.slice(read.end).trim();
	if (rest !== "" && !rest.startsWith("#")) {
		return { error: `unexpected text ${JSON.stringify(rest)} after the closing quote` };
	}
	return { value: read.value, quoted: true };
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
	'"': '"',
	"\\": "\\",
	"/": "/",
	n: "\n",
	t: "\t",
	r: "\r",
	"0": "\0",
};

function readDoubleQuoted(text: string): { value: string; end: number } | { error: string } {
	let value = "";
	for (let index = 1; index < text.length; index++) {
		const char = text[index] ?? "";
		if (char === '"') return { value, end: index + 1 };
		if (char !== "\\") {
			value += char;
			continue;
		}
		const escaped = DOUBLE_QUOTE_ESCAPES[text[index + 1] ?? ""];
		if (escaped === undefined) return { error: `unknown escape \\${text[index + 1] ?? ""} in a "quoted" value` };
		value += escaped;
		index++;
	}
	return { error: `the quoted value ${text} has no closing "` };
}

function readSingleQuoted(text: string): { value: string; end: number } | { error: string } {
	let value = "";
	for (let index = 1; index < text.length; index++) {
		const char = text[index] ?? "";
		if (char !== "'") {
			value += char;
			continue;
		}
		if (text[index + 1] === "'") {
			value += "'";
			index++;
			continue;
		}
		return { value, end: index + 1 };
	}
	return { error: `the quoted value ${text} has no closing '` };
}

/** `[a, "b, c", 'd']`: entries as written (quotes kept) for `verifyCommand` to read. */
function flowList(text: string): { entries: string[] } | { error: string } {
	const entries: string[] = [];
	let entry = "";
	let index = 1;
	const finish = (): { error: string } | null => {
		const trimmed = entry.trim();
		if (trimmed === "") return { error: "a list entry is empty (two commas in a row?)" };
		entries.push(trimmed);
		entry = "";
		return null;
	};
	while (index < text.length) {
		const char = text[index] ?? "";
		if (char === '"' || char === "'") {
			const read = char === '"' ? readDoubleQuoted(text.slice(index)) : readSingleQuoted(text.slice(index));
			if ("error" in read) return read;
			entry += text.slice(index, index + read.end);
			index += read.end;
			continue;
		}
		if (char === "[" || char === "{") {
			return { error: `a verify command must be a string, got a nested ${char === "[" ? "list" : "mapping"}` };
		}
		if (char === ",") {
			const failed = finish();
			if (failed) return failed;
			index++;
			continue;
		}
		if (char === "]") {
			const rest = text.slice(index + 1).trim();
			if (rest !== "" && !rest.startsWith("#")) {
				return { error: `unexpected text ${JSON.stringify(rest)} after the closing ]` };
			}
			// An empty last entry is fine: `[]`, or a trailing comma as YAML allows.
			if (entry.trim() !== "") {
				const failed = finish();
				if (failed) return failed;
			}
			return { entries };
		}
		entry += char;
		index++;
	}
	return { error: `the list ${text} has no closing ]` };
}
