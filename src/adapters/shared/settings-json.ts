/**
 * Reads and edits a harness's JSON config file in place, without
 * re-serialising it. Parsing is jsonc-parser's (the parser VS Code reads its
 * own settings with): a tree whose every node knows its offset, with comments
 * and trailing commas refused (Claude Code's settings) or allowed (OpenCode's
 * config). The edits are ours: each replaces only the bytes it must (appending
 * an item, adding a member, removing one with its comma), laid out like its
 * neighbours, so the user's key order, spacing, line endings, number spelling
 * and escapes stay byte for byte, and an item added last and removed again
 * leaves the file exactly as it was. jsonc-parser's `modify` cannot promise
 * that: it lays out again the whole lines around an edit (a one-line file
 * becomes many lines, a line comment moves onto the new item and goes with it
 * when that is removed), and in 3.3.1 it removes the wrong characters when it
 * takes out the last item of a list.
 */
import { type Edit, getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";

/** `json`: RFC 8259, as Claude Code reads its settings. `jsonc`: comments and trailing commas, as OpenCode reads its config. */
export type JsonDialect = "json" | "jsonc";

export class JsonSyntaxError extends Error {
	readonly line: number;
	readonly column: number;

	constructor(message: string, text: string, offset: number) {
		const before = text.slice(0, offset).split("\n");
		const line = before.length;
		const column = (before.at(-1)?.length ?? 0) + 1;
		super(`${message} at line ${line}, column ${column}`);
		this.name = "JsonSyntaxError";
		this.line = line;
		this.column = column;
	}
}

const BOM = "\uFEFF";

/**
 * Deeper than any settings file: jsonc-parser recurses per level, and a
 * 200,000-deep file would end in "Maximum call stack size exceeded".
 */
export const MAX_JSON_DEPTH = 256;

/** Contract: throws `JsonSyntaxError` (with line and column) for anything that is not one JSON value of the dialect. */
export function parseJsonTree(text: string, dialect: JsonDialect): Node {
	const tooDeep = depthBeyond(text, MAX_JSON_DEPTH);
	if (tooDeep !== -1) throw new JsonSyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels`, text, tooDeep);
	const errors: ParseError[] = [];
	// jsonc-parser reads a byte order mark as a stray symbol; a space in its place keeps every offset.
	const body = text.startsWith(BOM) ? ` ${text.slice(1)}` : text;
	const root = parseTree(body, errors, {
		disallowComments: dialect === "json",
		allowTrailingComma: dialect === "jsonc",
	});
	const error = errors[0];
	if (error) throw new JsonSyntaxError(inWords(printParseErrorCode(error.error)), text, error.offset);
	if (!root) throw new JsonSyntaxError("value expected", text, text.length);
	return root;
}

/**
 * The offset of the first bracket that opens level `limit + 1`, or -1. Skips
 * strings and comments, so a bracket inside them does not count; linear, no
 * recursion.
 */
function depthBeyond(text: string, limit: number): number {
	let depth = 0;
	for (let at = 0; at < text.length; at++) {
		const char = text.charCodeAt(at);
		if (char === 0x22) {
			for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++) if (text.charCodeAt(at) === 0x5c) at++;
		} else if (char === 0x2f && text.charCodeAt(at + 1) === 0x2f) {
			const end = text.indexOf("\n", at);
			at = end === -1 ? text.length : end;
		} else if (char === 0x2f && text.charCodeAt(at + 1) === 0x2a) {
			const end = text.indexOf("*/", at + 2);
			at = end === -1 ? text.length : end + 1;
		} else if (char === 0x7b || char === 0x5b) {
			if (++depth > limit) return at;
		} else if (char === 0x7d || char === 0x5d) {
			depth--;
		}
	}
	return -1;
}

/** `PropertyNameExpected` → `property name expected`. */
function inWords(code: string): string {
	return code.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();
}

/** The plain value of a node (what `JSON.parse` gives). */
export function plainValue(node: Node): unknown {
	return getNodeValue(node);
}

/** An object's members (property nodes: key, then value) or an array's items. */
export function elementsOf(container: Node): Node[] {
	return container.children ?? [];
}

export function keyOf(member: Node): unknown {
	return member.children?.[0]?.value;
}

export function memberValue(member: Node | undefined): Node | undefined {
	return member?.children?.[1];
}

/** The value of `key` in an object node. The last of duplicate keys wins, as in `JSON.parse` (`findNodeAtLocation` takes the first). */
export function memberOf(object: Node, key: string): Node | undefined {
	return memberValue(elementsOf(object).findLast((member) => keyOf(member) === key));
}

export function endOf(node: Node): number {
	return node.offset + node.length;
}

/** Adds `value` as the last item of `array`, laid out like its neighbours. */
export function appendItemEdit(text: string, array: Node, value: unknown): Edit {
	return appendEdit(text, array, (indent, style) => serialise(value, indent, style));
}

/** Adds `"key": value` as the last member of `object`, laid out like its neighbours. */
export function addMemberEdit(text: string, object: Node, key: string, value: unknown): Edit {
	const first = elementsOf(object)[0]?.children;
	const colon = first?.[0] && first[1] ? text.slice(endOf(first[0]), first[1].offset) : ": ";
	return appendEdit(
		text,
		object,
		(indent, style) =>
			`${JSON.stringify(key)}${style.compact ? colon.trim() : colon}${serialise(value, indent, style)}`,
	);
}

/** Removes the element at `index` of an object's members or an array's items, with its separating comma. */
export function removeElementEdit(container: Node, index: number): Edit {
	const elements = elementsOf(container);
	const element = elements[index];
	if (!element) throw new RangeError(`no element ${index} in a container of ${elements.length}`);
	if (elements.length === 1) return removal(container.offset + 1, endOf(container) - 1);
	const next = elements[index + 1];
	if (next) return removal(element.offset, next.offset);
	const previous = elements[index - 1] as Node;
	return removal(endOf(previous), endOf(element));
}

export function removal(start: number, end: number): Edit {
	return { offset: start, length: end - start, content: "" };
}

export function insertion(offset: number, content: string): Edit {
	return { offset, length: 0, content };
}

interface Style {
	eol: string;
	unit: string;
	compact: boolean;
}

/** How the file is laid out: its line ending, its indent unit, and whether it is all on one line. */
export function styleOf(text: string): Style {
	const eol = text.includes("\r\n") ? "\r\n" : "\n";
	const indented = /\n([ \t]+)\S/.exec(text);
	const unit = indented?.[1]?.startsWith("\t") ? "\t" : (indented?.[1] ?? "  ");
	const trimmed = text.trim();
	return { eol, unit, compact: !trimmed.includes("\n") && trimmed.length > 2 };
}

function appendEdit(text: string, container: Node, piece: (indent: string, style: Style) => string): Edit {
	const style = styleOf(text);
	const last = elementsOf(container).at(-1);
	if (last) {
		const indent = lineIndent(text, last.offset);
		if (indent === null || style.compact) {
			return insertion(endOf(last), `, ${piece("", { ...style, compact: true })}`);
		}
		return insertion(endOf(last), `,${style.eol}${indent}${piece(indent, style)}`);
	}
	const inside = { offset: container.offset + 1, length: container.length - 2 };
	if (style.compact) return { ...inside, content: piece("", style) };
	const outer = lineIndentOfLine(text, container.offset);
	const inner = outer + style.unit;
	return { ...inside, content: `${style.eol}${inner}${piece(inner, style)}${style.eol}${outer}` };
}

/** The whitespace before `offset` on its line, or null when something else precedes it there. */
function lineIndent(text: string, offset: number): string | null {
	const before = text.slice(lineStart(text, offset), offset);
	return /^[ \t]*$/.test(before) ? before : null;
}

/** The leading whitespace of the line `offset` is on. */
function lineIndentOfLine(text: string, offset: number): string {
	return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? "";
}

/** The offset where the line holding `offset` starts. */
export function lineStart(text: string, offset: number): number {
	return text.lastIndexOf("\n", offset - 1) + 1;
}

function serialise(value: unknown, indent: string, style: Style): string {
	if (style.compact) return JSON.stringify(value);
	return JSON.stringify(value, null, style.unit).replaceAll("\n", `${style.eol}${indent}`);
}
