/**
 * Text that came from outside (plan titles, work names, session ids, paths,
 * an agent's todo items) may hold control sequences: a window title change
 * (`ESC ] 0 ; … BEL`), a screen clear (`ESC [ 2 J`), a hyperlink, hidden text,
 * or bidirectional overrides that reorder what a person reads. Human-facing
 * output shows every such character escaped (`\x1b`, `\u202e`), keeping only
 * line breaks and tabs, and, where boulder colours its own output, the few
 * colour codes it emits itself. JSON output needs none of this: `JSON.stringify`
 * escapes control characters already.
 */

/** The SGR codes boulder's own styles emit: bold, dim, their reset, four colours and their reset. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: recognising control sequences is this module's job
const OWN_COLOURS = /\x1b\[(?:1|2|22|31|32|33|36|39)m/y;

/** C0 controls but tab and newline, DEL, C1 controls, and Unicode's invisible direction and isolation marks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: recognising control characters is this module's job
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The same characters, found in one scan: most text has none, and a long one is copied in stretches, not character by character. */
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

export function terminalSafe(text: string, options: { keepOwnColours?: boolean } = {}): string {
	let out = "";
	let from = 0;
	UNSAFE_ALL.lastIndex = 0;
	for (let found = UNSAFE_ALL.exec(text); found !== null; found = UNSAFE_ALL.exec(text)) {
		const index = found.index;
		out += text.slice(from, index);
		if (options.keepOwnColours && found[0] === "\x1b") {
			OWN_COLOURS.lastIndex = index;
			const own = OWN_COLOURS.exec(text);
			if (own) {
				out += own[0];
				from = index + own[0].length;
				UNSAFE_ALL.lastIndex = from;
				continue;
			}
		}
		out += escapeChar(found[0]);
		from = index + 1;
	}
	return from === 0 ? text : out + text.slice(from);
}

function escapeChar(char: string): string {
	const code = char.charCodeAt(0);
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
