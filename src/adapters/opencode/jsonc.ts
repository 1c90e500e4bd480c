/**
 * Edits of OpenCode's JSONC config that keep the user's comments with the
 * lines they were written on. A comment usually follows the element it is
 * about (`"a", // why`), so an element is added on a line of its own after
 * that comment, and one that sits on lines of its own is removed with those
 * lines, leaving the comments on other lines alone. Layouts this does not
 * recognise take the plain edits of `settings-json.ts`. jsonc-parser's
 * scanner tells comments, strings and commas apart (a `//` inside a URL is
 * not a comment).
 */
import { applyEdits, createScanner, type Edit, type Node } from "jsonc-parser";
import {
	elementsOf,
	endOf,
	insertion,
	lineStart,
	removal,
	removeElementEdit,
	styleOf,
} from "../shared/settings-json.js";

export interface Layout {
	eol: string;
	/** The indent of the container's elements. */
	indent: string;
	/** One level of indentation. */
	unit: string;
}

/**
 * Adds an element after the last one of a container laid out one element per
 * line, on a line of its own: after the last element's comment, if it has
 * one; with a trailing comma when the last element had one, so removing it
 * again gives back the same bytes. An empty container that holds comments
 * gets the element before its closing bracket, comments kept. Other layouts
 * take `fallback`.
 */
export function appendElement(
	text: string,
	container: Node,
	render: (layout: Layout) => string,
	fallback: Edit,
): string {
	const eol = text.includes("\r\n") ? "\r\n" : "\n";
	const unit = styleOf(text).unit;
	const last = elementsOf(container).at(-1);
	if (!last) {
		if (!hasComment(text, container)) return applyEdits(text, [fallback]);
		const close = endOf(container) - 1;
		const start = lineStart(text, close);
		if (!/^[ \t]*$/.test(text.slice(start, close))) {
			const space = text[close - 1] === " " ? "" : " ";
			return applyEdits(text, [insertion(close, `${space}${render({ eol, indent: "", unit: "" })} `)]);
		}
		const indent = `${text.slice(start, close)}${unit}`;
		return applyEdits(text, [insertion(start, `${indent}${render({ eol, indent, unit })}${eol}`)]);
	}
	const line = lineOf(text, last);
	if (!line || endOf(container) <= line.stop) return applyEdits(text, [fallback]);
	const piece = `${eol}${line.indent}${render({ eol, indent: line.indent, unit })}${line.comma ? "," : ""}`;
	const withLine = applyEdits(text, [insertion(line.stop, piece)]);
	return line.comma ? withLine : applyEdits(withLine, [insertion(endOf(last), ",")]);
}

/**
 * Removes an element. One that sits on lines of its own goes with those
 * lines (and with the comma before it when it was the last and had none
 * after it), so comments on other lines stay; the only element of a
 * one-line container goes alone; other layouts use the plain removal.
 */
export function removeElement(text: string, container: Node, index: number): string {
	const elements = elementsOf(container);
	const element = elements[index] as Node;
	const line = lineOf(text, element);
	const first = lineStart(text, element.offset);
	if (!line || endOf(container) <= line.stop || container.offset >= first) {
		if (elements.length === 1) {
			const end = text[endOf(element)] === " " ? endOf(element) + 1 : endOf(element);
			return applyEdits(text, [removal(element.offset, end)]);
		}
		return applyEdits(text, [removeElementEdit(container, index)]);
	}
	const nextLine = text.indexOf("\n", line.stop);
	let next = applyEdits(text, [removal(first, nextLine === -1 ? text.length : nextLine + 1)]);
	const previous = elements[index - 1];
	if (index === elements.length - 1 && !line.comma && previous) {
		const [after] = tokens(next, endOf(previous), first);
		if (after?.text === ",") next = applyEdits(next, [removal(after.offset, after.offset + 1)]);
	}
	return next;
}

/** Whether a container holds a comment anywhere inside it. */
export function hasComment(text: string, container: Node): boolean {
	return tokens(text, container.offset, endOf(container), { comments: true }).some((token) => isComment(token.text));
}

/**
 * The line an element ends on, when the element starts a line (only spaces
 * before it) and nothing but a comma and comments follows it there: its
 * indent, where the line's text stops (before the line break), and whether a
 * comma follows. Null for any other layout.
 */
function lineOf(text: string, element: Node): { indent: string; stop: number; comma: boolean } | null {
	const indent = text.slice(lineStart(text, element.offset), element.offset);
	if (!/^[ \t]*$/.test(indent)) return null;
	const lineEnd = text.indexOf("\n", endOf(element));
	const stop = lineEnd === -1 ? text.length : text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
	const rest = tokens(text, endOf(element), stop);
	if (rest.length > 1 || rest.some((token) => token.text !== ",")) return null;
	return { indent, stop, comma: rest.length === 1 };
}

/**
 * The tokens that start between `from` and `to`, as written, without white
 * space and (unless asked for) comments. Token kinds are told by their text:
 * jsonc-parser's `SyntaxKind` is a const enum, which isolated modules cannot read.
 */
function tokens(text: string, from: number, to: number, options: { comments?: boolean } = {}) {
	const scanner = createScanner(text, false);
	scanner.setPosition(from);
	const found: { offset: number; text: string }[] = [];
	while (scanner.getPosition() < to) {
		scanner.scan();
		const token = text.slice(scanner.getTokenOffset(), scanner.getPosition());
		if (/^\s*$/.test(token) || (isComment(token) && !options.comments)) continue;
		found.push({ offset: scanner.getTokenOffset(), text: token });
	}
	return found;
}

function isComment(token: string): boolean {
	return token.startsWith("//") || token.startsWith("/*");
}
