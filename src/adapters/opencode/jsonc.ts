/**
 * OpenCode's config files are JSONC: comments and trailing commas allowed.
 * Rather than a second parser, this blanks them out: every comment character
 * and every trailing comma becomes a space (line breaks stay), so the result
 * is strict JSON of exactly the same length, and each value sits at the same
 * offset as in the original. The strict span parser (`settings-json.ts`) then
 * parses the blanked text, and its edits apply to the original text, whose
 * comments are kept byte for byte (a comment inside a removed element goes
 * with it).
 */

export interface Blanked {
	/** Strict JSON, same length as the input. */
	text: string;
	/** How many comments were blanked. */
	comments: number;
}

/** `trailingCommas: false` keeps them: for reading where a comma is, rather than parsing. */
export function blankJsonc(text: string, options: { trailingCommas?: boolean } = {}): Blanked {
	const trailingCommas = options.trailingCommas ?? true;
	const out = text.split("");
	let comments = 0;
	const blank = (from: number, to: number) => {
		for (let i = from; i < to; i++) {
			if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
		}
	};
	let i = 0;
	let lastComma = -1;
	while (i < text.length) {
		const char = text[i];
		if (char === '"') {
			i = skipString(text, i);
			lastComma = -1;
			continue;
		}
		if (char === "/" && text[i + 1] === "/") {
			const end = text.indexOf("\n", i);
			const stop = end === -1 ? text.length : end;
			blank(i, stop);
			comments++;
			i = stop;
			continue;
		}
		if (char === "/" && text[i + 1] === "*") {
			const end = text.indexOf("*/", i + 2);
			const stop = end === -1 ? text.length : end + 2;
			blank(i, stop);
			comments++;
			i = stop;
			continue;
		}
		if (char === ",") {
			lastComma = i;
		} else if (char === "]" || char === "}") {
			if (lastComma !== -1 && trailingCommas) blank(lastComma, lastComma + 1);
			lastComma = -1;
		} else if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") {
			lastComma = -1;
		}
		i++;
	}
	return { text: out.join(""), comments };
}

/** The offset just past the string starting at `start` (or the end of the text if it never closes). */
function skipString(text: string, start: number): number {
	let i = start + 1;
	while (i < text.length) {
		const char = text[i];
		if (char === "\\") {
			i += 2;
			continue;
		}
		i++;
		if (char === '"') return i;
	}
	return i;
}
