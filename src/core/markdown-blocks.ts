/**
 * CommonMark's block structure, as far as a plan needs it: block quotes,
 * lists and list items as containers; paragraphs, headings, thematic breaks,
 * code (fenced and indented) and HTML blocks as leaves. It follows the
 * spec's own parsing strategy (match the open containers, try block starts,
 * add the rest of the line), so a fence or an HTML block opened inside a list
 * item ends where the item ends, as CommonMark says, instead of swallowing
 * the rest of the plan. Inline syntax is left alone: a paragraph keeps its
 * lines as text.
 *
 * Tabs count to the next multiple of four columns, as in CommonMark; text
 * handed out keeps the file's own characters.
 */
import { endsHtmlBlock, endsOnMarker, type HtmlKind, htmlBlockStart } from "./markdown-html.js";

export interface MarkdownDocument {
	kind: "document";
	children: MarkdownBlock[];
}

export interface BlockQuote {
	kind: "blockquote";
	line: number;
	children: MarkdownBlock[];
}

export interface ListBlock {
	kind: "list";
	line: number;
	children: ListItemBlock[];
}

export interface ListItemBlock {
	kind: "item";
	line: number;
	children: MarkdownBlock[];
}

export interface Paragraph {
	kind: "paragraph";
	line: number;
	/** Each line's text, leading indentation dropped. */
	lines: string[];
}

export interface Heading {
	kind: "heading";
	line: number;
	text: string;
}

export interface ThematicBreak {
	kind: "thematic-break";
	line: number;
}

export interface BlockLine {
	line: number;
	/** The line after its containers' markers and indentation. */
	text: string;
}

export interface CodeBlock {
	kind: "code";
	line: number;
	fenced: boolean;
	lines: BlockLine[];
	/** A fence never closed by a closing fence: its container or the document ended first. */
	unterminated: boolean;
}

export interface HtmlBlock {
	kind: "html";
	line: number;
	htmlKind: HtmlKind;
	lines: BlockLine[];
	/** A kind 1 to 5 block whose end marker never came: its container or the document ended first. */
	unterminated: boolean;
}

export type MarkdownBlock =
	| BlockQuote
	| ListBlock
	| ListItemBlock
	| Paragraph
	| Heading
	| ThematicBreak
	| CodeBlock
	| HtmlBlock;

type Node = MarkdownDocument | MarkdownBlock;

interface ListMarker {
	ordered: boolean;
	/** The bullet character, or the ordered delimiter: items with another one start a new list. */
	delimiter: string;
	/** Indentation of the marker, relative to the enclosing container. */
	markerOffset: number;
	/** From the marker to the item's content, in columns. */
	padding: number;
}

/** A block still open, with what its continuation rule needs. */
interface Open {
	node: Node;
	marker?: ListMarker;
	fence?: { char: string; length: number; offset: number };
}

/** Reads `lines` from index `start`; a block's `line` is 1-based in the whole file. */
export function parseMarkdownBlocks(lines: readonly string[], start = 0): MarkdownDocument {
	const reader = new BlockReader();
	for (let index = start; index < lines.length; index++) reader.add(lines[index] ?? "", index + 1);
	return reader.finish();
}

/** One line with tabs expanded to columns, and the way back to the file's characters. */
class Line {
	readonly text: string;
	/** Column → index in `raw`; absent when the line has no tab and the two agree. */
	private readonly rawIndex: number[] | null = null;

	constructor(readonly raw: string) {
		if (!raw.includes("\t")) {
			this.text = raw;
			return;
		}
		const rawIndex: number[] = [];
		let text = "";
		for (let index = 0; index < raw.length; index++) {
			const char = raw[index] ?? "";
			const width = char === "\t" ? 4 - (text.length % 4) : 1;
			for (let step = 0; step < width; step++) rawIndex.push(index);
			text += char === "\t" ? " ".repeat(width) : char;
		}
		rawIndex.push(raw.length);
		this.text = text;
		this.rawIndex = rawIndex;
	}

	/** The file's text from `column` on. */
	rawFrom(column: number): string {
		if (!this.rawIndex) return this.raw.slice(column);
		return this.raw.slice(this.rawIndex[Math.min(column, this.text.length)] ?? this.raw.length);
	}
}

const CONTAINS_ANY = new Set<Node["kind"]>(["document", "blockquote", "item"]);

class BlockReader {
	private readonly document: MarkdownDocument = { kind: "document", children: [] };
	/** The open blocks from the document down to the innermost one. */
	private readonly open: Open[] = [{ node: this.document }];
	private line = new Line("");
	private lineNumber = 0;
	private column = 0;
	private nextNonspace = 0;
	private scannedFrom = Number.POSITIVE_INFINITY;
	private indent = 0;
	private blank = false;
	/** Deepest open block the line continued; the ones below it close unless the line is lazy. */
	private matched = 0;
	private allClosed = true;

	add(raw: string, lineNumber: number): void {
		this.line = new Line(raw);
		this.lineNumber = lineNumber;
		this.column = 0;
		this.scannedFrom = Number.POSITIVE_INFINITY;
		let depth = 0;
		while (depth + 1 < this.open.length) {
			this.findNextNonspace();
			const next = this.open[depth + 1] as Open;
			const result = this.continues(next);
			if (result === "line-done") return;
			if (result === "no") break;
			depth++;
		}
		this.matched = depth;
		this.allClosed = depth === this.open.length - 1;

		let container = this.open[depth] as Open;
		if (container.node.kind === "code" || container.node.kind === "html") {
			this.addLineTo(container);
			return;
		}
		for (;;) {
			this.findNextNonspace();
			const started = this.startBlock(container);
			if (started === "none") break;
			if (started === "line-done") return;
			container = this.top();
		}

		const tip = this.top();
		if (!this.allClosed && !this.blank && tip.node.kind === "paragraph") {
			this.addLineTo(tip);
			return;
		}
		this.closeUnmatched();
		const last = this.top();
		if (last.node.kind === "paragraph") this.addLineTo(last);
		else if (!this.blank) {
			this.column = this.nextNonspace;
			this.addLineTo(this.addChild({ kind: "paragraph", line: this.lineNumber, lines: [] }));
		}
	}

	finish(): MarkdownDocument {
		while (this.open.length > 1) this.close();
		return this.document;
	}

	// ------------------------------------------------------------ continuation

	private continues(block: Open): "yes" | "no" | "line-done" {
		const node = block.node;
		switch (node.kind) {
			case "blockquote":
				if (this.indent > 3 || this.char(this.nextNonspace) !== ">") return "no";
				this.column = this.nextNonspace + 1;
				if (this.char(this.column) === " ") this.column++;
				return "yes";
			case "item": {
				const marker = block.marker as ListMarker;
				if (this.blank) {
					if (node.children.length === 0) return "no";
					this.column = this.nextNonspace;
					return "yes";
				}
				if (this.indent < marker.markerOffset + marker.padding) return "no";
				this.column += marker.markerOffset + marker.padding;
				return "yes";
			}
			case "list":
				return "yes";
			case "code":
				return this.continuesCode(block, node);
			case "html":
				return this.blank && node.htmlKind >= 6 ? "no" : "yes";
			case "paragraph":
				return this.blank ? "no" : "yes";
			default:
				return "no";
		}
	}

	private continuesCode(block: Open, node: CodeBlock): "yes" | "no" | "line-done" {
		const fence = block.fence;
		if (!fence) {
			if (this.indent >= 4) this.column += 4;
			else if (this.blank) this.column = this.nextNonspace;
			else return "no";
			return "yes";
		}
		const closing = /^(`{3,}|~{3,})[ \t]*$/.exec(this.rest(this.nextNonspace));
		const run = closing?.[1];
		if (this.indent <= 3 && run && run[0] === fence.char && run.length >= fence.length) {
			node.unterminated = false;
			this.close();
			return "line-done";
		}
		for (let skip = fence.offset; skip > 0 && this.char(this.column) === " "; skip--) this.column++;
		return "yes";
	}

	// ------------------------------------------------------------ block starts

	private startBlock(container: Open): "container" | "line-done" | "none" {
		const indented = this.indent >= 4;
		const rest = this.rest(this.nextNonspace);
		if (indented) {
			if (this.top().node.kind === "paragraph" || this.blank) return "none";
			this.column += 4;
			this.closeUnmatched();
			const code: CodeBlock = { kind: "code", line: this.lineNumber, fenced: false, lines: [], unterminated: false };
			this.addLineTo(this.addChild(code));
			return "line-done";
		}
		if (rest.startsWith(">")) {
			this.column = this.nextNonspace + 1;
			if (this.char(this.column) === " ") this.column++;
			this.closeUnmatched();
			this.addChild({ kind: "blockquote", line: this.lineNumber, children: [] });
			return "container";
		}
		const atx = /^#{1,6}(?:[ \t]|$)/.test(rest) ? atxHeadingText(this.line.rawFrom(this.nextNonspace)) : null;
		if (atx !== null) {
			this.closeUnmatched();
			this.addChild({ kind: "heading", line: this.lineNumber, text: atx });
			this.close();
			return "line-done";
		}
		const fence = /^(?:(`{3,})(?!.*`)|(~{3,}))/.exec(rest);
		if (fence) {
			const run = fence[1] ?? fence[2] ?? "";
			this.closeUnmatched();
			const code: CodeBlock = { kind: "code", line: this.lineNumber, fenced: true, lines: [], unterminated: true };
			this.addChild(code, { fence: { char: run[0] ?? "`", length: run.length, offset: this.indent } });
			return "line-done";
		}
		const html = rest.startsWith("<") ? htmlBlockStart(rest) : null;
		const lazyParagraph = !this.allClosed && !this.blank && this.top().node.kind === "paragraph";
		if (html !== null && (html < 7 || (container.node.kind !== "paragraph" && !lazyParagraph))) {
			this.closeUnmatched();
			const block: HtmlBlock = {
				kind: "html",
				line: this.lineNumber,
				htmlKind: html,
				lines: [],
				unterminated: endsOnMarker(html),
			};
			this.addLineTo(this.addChild(block));
			return "line-done";
		}
		if (container.node.kind === "paragraph" && /^(?:=+|-+)[ \t]*$/.test(rest)) {
			this.closeUnmatched();
			this.setextHeading(container.node);
			return "line-done";
		}
		if (/^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(rest)) {
			this.closeUnmatched();
			this.addChild({ kind: "thematic-break", line: this.lineNumber });
			this.close();
			return "line-done";
		}
		return this.startListItem(container) ? "container" : "none";
	}

	private startListItem(container: Open): boolean {
		const rest = this.rest(this.nextNonspace);
		const match = /^(?:([*+-])|(\d{1,9})([.)]))(?= |$)/.exec(rest);
		if (!match) return false;
		const inParagraph = container.node.kind === "paragraph";
		if (inParagraph && match[2] !== undefined && Number(match[2]) !== 1) return false;
		const width = match[0].length;
		if (inParagraph && rest.slice(width).trim() === "") return false;

		const markerOffset = this.indent;
		const spacesStart = this.nextNonspace + width;
		let column = spacesStart;
		do column++;
		while (column - spacesStart < 5 && this.char(column) === " ");
		const blankItem = column >= this.line.text.length;
		let padding = width + (column - spacesStart);
		if (column - spacesStart >= 5 || blankItem) {
			padding = width + 1;
			column = spacesStart + (this.char(spacesStart) === " " ? 1 : 0);
		}
		this.column = column;
		const marker: ListMarker = {
			ordered: match[2] !== undefined,
			delimiter: match[1] ?? match[3] ?? "",
			markerOffset,
			padding,
		};

		this.closeUnmatched();
		const tip = this.top();
		if (tip.node.kind !== "list" || !sameList(tip.marker as ListMarker, marker)) {
			this.addChild({ kind: "list", line: this.lineNumber, children: [] }, { marker });
		}
		this.addChild({ kind: "item", line: this.lineNumber, children: [] }, { marker });
		return true;
	}

	/** A paragraph followed by `===` or `---` is a heading, in place of the paragraph. */
	private setextHeading(paragraph: Paragraph): void {
		this.close();
		const parent = this.top().node as MarkdownDocument | BlockQuote | ListItemBlock;
		const text = paragraph.lines.map((line) => line.trim()).join(" ");
		parent.children[parent.children.length - 1] = { kind: "heading", line: paragraph.line, text };
	}

	// ------------------------------------------------------------ tree

	private addLineTo(block: Open): void {
		const node = block.node;
		const text = this.line.rawFrom(this.column);
		if (node.kind === "paragraph") node.lines.push(text.replace(/^[ \t]+/, ""));
		else if (node.kind === "code" || node.kind === "html") {
			node.lines.push({ line: this.lineNumber, text });
			if (node.kind === "html" && endsHtmlBlock(node.htmlKind, text)) {
				node.unterminated = false;
				this.close();
			}
		}
	}

	private addChild(node: MarkdownBlock, extra: Omit<Open, "node"> = {}): Open {
		while (!canContain(this.top().node, node)) this.close();
		const parent = this.top().node as MarkdownDocument | BlockQuote | ListBlock | ListItemBlock;
		(parent.children as MarkdownBlock[]).push(node);
		const block: Open = { node, ...extra };
		this.open.push(block);
		return block;
	}

	/** Closes the blocks below the deepest one this line continued (once per line). */
	private closeUnmatched(): void {
		if (this.allClosed) return;
		while (this.open.length - 1 > this.matched) this.close();
		this.allClosed = true;
	}

	private close(): void {
		this.open.pop();
		this.matched = Math.min(this.matched, this.open.length - 1);
	}

	private top(): Open {
		return this.open[this.open.length - 1] as Open;
	}

	// ------------------------------------------------------------ the line

	private findNextNonspace(): void {
		// Containers only consume spaces before the first non-space, so a scan that already passed here stands.
		if (this.column < this.scannedFrom || this.column > this.nextNonspace) {
			const text = this.line.text;
			let column = this.column;
			while (text[column] === " ") column++;
			this.nextNonspace = column;
			this.scannedFrom = this.column;
		}
		this.indent = this.nextNonspace - this.column;
		this.blank = this.nextNonspace >= this.line.text.length;
	}

	private char(column: number): string {
		return this.line.text[column] ?? "";
	}

	private rest(column: number): string {
		return this.line.text.slice(column);
	}
}

function canContain(parent: Node, child: MarkdownBlock): boolean {
	if (parent.kind === "list") return child.kind === "item";
	return CONTAINS_ANY.has(parent.kind) && child.kind !== "item";
}

function sameList(a: ListMarker, b: ListMarker): boolean {
	return a.ordered === b.ordered && a.delimiter === b.delimiter;
}

/** The text of an ATX heading (`## Title ##`), its closing run of `#` dropped. */
function atxHeadingText(line: string): string {
	const text = line.replace(/^#{1,6}/, "").trim();
	return text.replace(/(?:^|[ \t]+)#+$/, "").trim();
}
