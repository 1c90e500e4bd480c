/**
 * A plan's optional front matter: the verify commands that gate completion,
 * their timeout, and a name. A small YAML subset (scalars in
 * `yaml-scalar.ts`), read by hand so every mistake gets its exact line and a
 * sentence a person can act on.
 */
import { parseDurationMs } from "./duration.js";
import type { PlanError } from "./plan-error.js";
import { nonStringScalar, readDoubleQuoted, readScalar, readSingleQuoted } from "./yaml-scalar.js";

export interface PlanFrontMatter {
	verify: string[];
	verifyTimeoutMs: number | null;
	name: string | null;
	/** `mode: orchestrate`: the bound session delegates the items to subagents (see `orchestrate.ts`). */
	mode: PlanMode | null;
}

export const PLAN_MODES = ["orchestrate"] as const;
export type PlanMode = (typeof PLAN_MODES)[number];

export interface FrontMatterResult {
	frontMatter: PlanFrontMatter;
	errors: PlanError[];
	/** Index of the first body line. */
	bodyStart: number;
}

type KeyName = "verify" | "timeout" | "name" | "mode";

const KNOWN_KEYS: Record<string, KeyName> = {
	verify: "verify",
	verify_timeout: "timeout",
	verifyTimeout: "timeout",
	name: "name",
	title: "name",
	mode: "mode",
};

function emptyFrontMatter(): PlanFrontMatter {
	return { verify: [], verifyTimeoutMs: null, name: null, mode: null };
}

/**
 * A small YAML subset, read by hand so every mistake gets its exact line and
 * a sentence a person can act on. Unknown keys are skipped with everything
 * indented under them, so plans written for other tools keep working.
 */
export function parseFrontMatter(lines: readonly string[]): FrontMatterResult {
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
	private mode: PlanMode | null = null;
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
		return { verify: this.verify, verifyTimeoutMs: this.timeoutMs, name: this.name, mode: this.mode };
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
		else if (known === "mode") this.modeValue(key, value, line);
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

	private modeValue(key: string, value: string, line: number): void {
		const scalar = readScalar(value);
		const text = "error" in scalar ? value : scalar.value.trim();
		const mode = PLAN_MODES.find((known) => known === text);
		if (mode === undefined) {
			this.errors.push({
				line,
				reason: `${key} must be one of ${PLAN_MODES.join(", ")}, got ${JSON.stringify(text)}`,
			});
			return;
		}
		this.mode = mode;
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
