/**
 * CommonMark's seven kinds of HTML block: which line starts one, and which
 * line ends the kinds that end on a marker (1 to 5). Kinds 6 and 7 end at a
 * blank line, which the block reader sees for itself. Checkboxes inside an
 * HTML block are text, so a plan must know exactly where each one stops.
 * The tag names and the tag grammar follow micromark, the parser the plan
 * reader is tested against.
 */

export type HtmlKind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const RAW_NAMES = "pre|script|style|textarea";

const BLOCK_NAMES =
	"address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|" +
	"fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|" +
	"menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|" +
	"track|ul";

const ATTRIBUTE = `[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \\t]*=[ \\t]*(?:[^ \\t"'=<>\`/]+|'[^']*'|"[^"]*"))?`;

const STARTS: readonly [HtmlKind, RegExp][] = [
	[1, new RegExp(`^<(?:${RAW_NAMES})(?:[ \\t>]|$)`, "i")],
	[2, /^<!--/],
	[3, /^<\?/],
	[4, /^<![A-Za-z]/],
	[5, /^<!\[CDATA\[/],
	[6, new RegExp(`^</?(?:${BLOCK_NAMES})(?:[ \\t>]|/>|$)`, "i")],
	[7, new RegExp(`^(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*[ \\t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \\t]*>)[ \\t]*$`)],
];

const ENDS: Record<1 | 2 | 3 | 4 | 5, RegExp> = {
	1: new RegExp(`</(?:${RAW_NAMES})>`, "i"),
	2: /-->/,
	3: /\?>/,
	4: />/,
	5: /\]\]>/,
};

/** What a person types to end a block of `kind` that `opening` started: `-->`, `</pre>`, a blank line… */
export function htmlEndMarker(kind: HtmlKind, opening: string): string {
	if (kind === 1) return `</${(new RegExp(RAW_NAMES, "i").exec(opening)?.[0] ?? "pre").toLowerCase()}>`;
	return { 2: "-->", 3: "?>", 4: ">", 5: "]]>", 6: "a blank line", 7: "a blank line" }[kind];
}

/** The kind of HTML block `text` (a line from its first non-space character) starts, or null. */
export function htmlBlockStart(text: string): HtmlKind | null {
	for (const [kind, pattern] of STARTS) if (pattern.test(text)) return kind;
	return null;
}

/** Whether `line` ends an HTML block of `kind`; kinds 6 and 7 end only at a blank line. */
export function endsHtmlBlock(kind: HtmlKind, line: string): boolean {
	return kind <= 5 && ENDS[kind as 1 | 2 | 3 | 4 | 5].test(line);
}

export function endsOnMarker(kind: HtmlKind): kind is 1 | 2 | 3 | 4 | 5 {
	return kind <= 5;
}
