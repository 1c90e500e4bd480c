/**
 * Edits a JSON file in place without re-serialising it: the file is parsed
 * with the position of every value, and an edit replaces only the bytes it
 * must (appending an item, adding a member, removing one with its comma).
 * Everything else — the user's key order, spacing, line endings, number
 * spelling, escapes — stays byte for byte. An item added as the last of a
 * list and removed again leaves the file exactly as it was.
 *
 * Strict JSON (RFC 8259): comments or trailing commas are a syntax error,
 * as they are for Claude Code, and the caller refuses to touch such a file.
 */

export interface Span {
	/** Offset of the first character. */
	start: number;
	/** Offset just past the last character. */
	end: number;
}

export interface JsonMember extends Span {
	key: string;
	keySpan: Span;
	value: JsonNode;
}

export type JsonNode =
	| (Span & { kind: "object"; members: JsonMember[] })
	| (Span & { kind: "array"; items: JsonNode[] })
	| (Span & { kind: "scalar"; value: string | number | boolean | null });

export type JsonObjectNode = Extract<JsonNode, { kind: "object" }>;
export type JsonArrayNode = Extract<JsonNode, { kind: "array" }>;

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

/** Contract: throws `JsonSyntaxError` (with line and column) for anything that is not one JSON value. */
export function parseJsonWithSpans(text: string): JsonNode {
	const parser = new Parser(text);
	const value = parser.document();
	return value;
}

export interface TextEdit {
	start: number;
	end: number;
	text: string;
}

export function applyEdit(text: string, edit: TextEdit): string {
	return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
}

/** Adds `value` as the last item of `array`, laid out like its neighbours. */
export function appendItemEdit(text: string, array: JsonArrayNode, value: unknown): TextEdit {
	return appendEdit(text, array, array.items, (indent, style) => serialise(value, indent, style));
}

/** Adds `"key": value` as the last member of `object`, laid out like its neighbours. */
export function addMemberEdit(text: string, object: JsonObjectNode, key: string, value: unknown): TextEdit {
	const colon = object.members[0] ? text.slice(object.members[0].keySpan.end, object.members[0].value.start) : ": ";
	return appendEdit(
		text,
		object,
		object.members,
		(indent, style) =>
			`${JSON.stringify(key)}${style.compact ? colon.trim() : colon}${serialise(value, indent, style)}`,
	);
}

/** Removes the element at `index` of an object's members or an array's items, with its separating comma. */
export function removeElementEdit(container: JsonObjectNode | JsonArrayNode, index: number): TextEdit {
	const elements: Span[] = container.kind === "object" ? container.members : container.items;
	const element = elements[index];
	if (!element) throw new RangeError(`no element ${index} in a container of ${elements.length}`);
	if (elements.length === 1) return { start: container.start + 1, end: container.end - 1, text: "" };
	const next = elements[index + 1];
	if (next) return { start: element.start, end: next.start, text: "" };
	const previous = elements[index - 1] as Span;
	return { start: previous.end, end: element.end, text: "" };
}

/** The plain value of a node (what `JSON.parse` gives). */
export function plainValue(node: JsonNode): unknown {
	if (node.kind === "scalar") return node.value;
	if (node.kind === "array") return node.items.map(plainValue);
	const out: Record<string, unknown> = {};
	for (const member of node.members) out[member.key] = plainValue(member.value);
	return out;
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

function appendEdit(
	text: string,
	container: JsonObjectNode | JsonArrayNode,
	elements: readonly Span[],
	piece: (indent: string, style: Style) => string,
): TextEdit {
	const style = styleOf(text);
	const last = elements.at(-1);
	if (last) {
		const indent = lineIndent(text, last.start);
		if (indent === null || style.compact) {
			return { start: last.end, end: last.end, text: `, ${piece("", { ...style, compact: true })}` };
		}
		return { start: last.end, end: last.end, text: `,${style.eol}${indent}${piece(indent, style)}` };
	}
	if (style.compact) {
		return { start: container.start + 1, end: container.end - 1, text: piece("", style) };
	}
	const outer = lineIndentOfLine(text, container.start);
	const inner = outer + style.unit;
	return {
		start: container.start + 1,
		end: container.end - 1,
		text: `${style.eol}${inner}${piece(inner, style)}${style.eol}${outer}`,
	};
}

/** The whitespace before `offset` on its line, or null when something else precedes it there. */
function lineIndent(text: string, offset: number): string | null {
	const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
	const before = text.slice(lineStart, offset);
	return /^[ \t]*$/.test(before) ? before : null;
}

/** The leading whitespace of the line `offset` is on. */
function lineIndentOfLine(text: string, offset: number): string {
	const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
	return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

function serialise(value: unknown, indent: string, style: Style): string {
	if (style.compact) return JSON.stringify(value);
	return JSON.stringify(value, null, style.unit).replaceAll("\n", `${style.eol}${indent}`);
}

class Parser {
	private at = 0;

	constructor(private readonly text: string) {}

	document(): JsonNode {
		if (this.text.charCodeAt(0) === 0xfeff) this.at = 1;
		this.space();
		const value = this.value();
		this.space();
		if (this.at < this.text.length) this.fail("unexpected text after the JSON value");
		return value;
	}

	private value(): JsonNode {
		const char = this.text[this.at];
		if (char === "{") return this.object();
		if (char === "[") return this.array();
		if (char === '"') {
			const start = this.at;
			const value = this.string();
			return { kind: "scalar", value, start, end: this.at };
		}
		if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.number();
		for (const [word, value] of [
			["true", true],
			["false", false],
			["null", null],
		] as const) {
			if (this.text.startsWith(word, this.at)) {
				const start = this.at;
				this.at += word.length;
				return { kind: "scalar", value, start, end: this.at };
			}
		}
		return this.fail(char === undefined ? "unexpected end of the file" : `unexpected ${JSON.stringify(char)}`);
	}

	private object(): JsonNode {
		const start = this.at++;
		const members: JsonMember[] = [];
		this.space();
		if (this.text[this.at] === "}") {
			this.at++;
			return { kind: "object", members, start, end: this.at };
		}
		for (;;) {
			this.space();
			if (this.text[this.at] !== '"') this.fail("expected a quoted key");
			const keyStart = this.at;
			const key = this.string();
			const keySpan = { start: keyStart, end: this.at };
			this.space();
			if (this.text[this.at] !== ":") this.fail('expected ":"');
			this.at++;
			this.space();
			const value = this.value();
			members.push({ key, keySpan, value, start: keyStart, end: value.end });
			this.space();
			const next = this.text[this.at];
			this.at++;
			if (next === "}") return { kind: "object", members, start, end: this.at };
			if (next !== ",") this.fail('expected "," or "}"', this.at - 1);
		}
	}

	private array(): JsonNode {
		const start = this.at++;
		const items: JsonNode[] = [];
		this.space();
		if (this.text[this.at] === "]") {
			this.at++;
			return { kind: "array", items, start, end: this.at };
		}
		for (;;) {
			this.space();
			items.push(this.value());
			this.space();
			const next = this.text[this.at];
			this.at++;
			if (next === "]") return { kind: "array", items, start, end: this.at };
			if (next !== ",") this.fail('expected "," or "]"', this.at - 1);
		}
	}

	private string(): string {
		const start = this.at;
		this.at++;
		for (;;) {
			const code = this.text.charCodeAt(this.at);
			if (Number.isNaN(code)) this.fail("unterminated string", start);
			if (code === 0x22) break;
			if (code < 0x20) this.fail("control character in a string");
			if (code === 0x5c) {
				const escaped = this.text[this.at + 1];
				if (escaped === "u") {
					if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.fail("bad \\u escape");
					this.at += 6;
					continue;
				}
				if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) this.fail("bad escape");
				this.at += 2;
				continue;
			}
			this.at++;
		}
		this.at++;
		return JSON.parse(this.text.slice(start, this.at)) as string;
	}

	private number(): JsonNode {
		const start = this.at;
		const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
		if (!match) return this.fail("bad number");
		this.at += match[0].length;
		return { kind: "scalar", value: Number(match[0]), start, end: this.at };
	}

	private space(): void {
		while (this.at < this.text.length) {
			const char = this.text[this.at];
			if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") return;
			this.at++;
		}
	}

	private fail(message: string, offset = this.at): never {
		throw new JsonSyntaxError(message, this.text, offset);
	}
}
