/**
 * The YAML scalars plan front matter accepts: plain, 'single' and "double"
 * quoted text, each followed by at most a comment. Read by hand, so a mistake
 * comes back as a sentence a person can act on rather than a parser's error.
 */

/** What YAML would read as null, a boolean or a number rather than text. */
export function nonStringScalar(value: string): boolean {
	if (/^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)?$/.test(value)) return true;
	return /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(
		value,
	);
}

export type Scalar = { value: string; quoted: boolean } | { error: string };

/** A plain, 'single' or "double" quoted scalar, followed by at most a comment. */
export function readScalar(raw: string): Scalar {
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

export function readDoubleQuoted(text: string): { value: string; end: number } | { error: string } {
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

export function readSingleQuoted(text: string): { value: string; end: number } | { error: string } {
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
