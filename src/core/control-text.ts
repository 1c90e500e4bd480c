/**
 * Neutralising control characters in text that came from outside: pure, for
 * every face (the CLI's output, a hook's answer to its harness, an in-process
 * plugin's prompts and notices).
 *
 * Text that came from outside (plan titles, work names, session ids, paths,
 * an agent's todo items) may hold control sequences: a window title change
 * (`ESC ] 0 ; … BEL`), a screen clear (`ESC [ 2 J`), a hyperlink, hidden text,
 * or bidirectional overrides that reorder what a person reads. Human-facing
 * output shows every such character escaped (`\x1b`, `\u202e`), keeping only
 * line breaks and tabs, and, where boulder colours its own output, the few
 * colour codes it emits itself. `JSON.stringify`
 * escapes control characters, but only for the JSON: a harness that prints a
 * hook's `systemMessage` or `reason` decodes them back, so what boulder hands
 * a harness is neutralised before it is encoded (`harnessSafe`).
 */

/** The SGR codes boulder's own styles emit: bold, dim, their reset, four colours and their reset. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: recognising control sequences is this module's job
const OWN_COLOURS = /\x1b\[(?:1|2|22|31|32|33|36|39)m/y;

/** C0 controls but tab and newline, DEL, C1 controls, and Unicode's invisible direction and isolation marks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: recognising control characters is this module's job
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The same characters, found in one scan: most text has none, and a long one is copied in stretches, not character by character. */
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

export function escapeControls(text: string, options: { keepOwnColours?: boolean } = {}): string {
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

/**
 * What boulder hands a harness, made inert: every string inside `value`
 * (a hook's JSON answer, a prompt's parts, a notice) with its control
 * characters escaped as `escapeControls` does. Line breaks and tabs stay.
 * Keys are kept as they are (they are boulder's own). Returns `value` itself
 * when nothing needed escaping.
 */
export function harnessSafe<T>(value: T): T {
	return deepSafe(value, 0) as T;
}

/** Deeper than any answer boulder builds; below it a value is left as it is (the harness's JSON parser bounds it too). */
const MAX_DEPTH = 64;

function deepSafe(value: unknown, depth: number): unknown {
	if (typeof value === "string") return escapeControls(value);
	if (depth >= MAX_DEPTH || typeof value !== "object" || value === null) return value;
	if (Array.isArray(value)) {
		let changed = false;
		const out = value.map((item) => {
			const safe = deepSafe(item, depth + 1);
			changed ||= safe !== item;
			return safe;
		});
		return changed ? out : value;
	}
	let changed = false;
	const out: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		const safe = deepSafe(item, depth + 1);
		changed ||= safe !== item;
		out[key] = safe;
	}
	return changed ? out : value;
}
