/**
 * Where a scope's state file lives, and the store's own defence against a
 * key that would escape `.boulder/scopes/`. Keys come from core's scope-key
 * module, which already makes them path-safe; this checks again because a
 * hand-built or corrupted key must never touch a file outside the folder.
 */
import path from "node:path";
import { BoulderError } from "../core/errors.js";

/** Leaves room for `.json`, an aside suffix and a counter within 255 bytes. */
export const MAX_SCOPE_KEY_BYTES = 200;

/**
 * One safe path segment on every platform: not empty, not `.`/`..`, no
 * separators, NUL or control characters, none of `<>:"|?*` (Windows), no
 * leading dot (hidden files and our temp files start with one), no trailing
 * dot or space (Windows strips them), no Windows device name (`nul`, `com1`).
 */
export function scopeKeyProblem(key: string): string | null {
	if (typeof key !== "string" || key.length === 0) return "is empty";
	// A UTF-16 unit is at most 3 bytes of UTF-8: a short key needs no count.
	const long = key.length * 3 > MAX_SCOPE_KEY_BYTES && Buffer.byteLength(key, "utf8") > MAX_SCOPE_KEY_BYTES;
	if (long) return `is longer than ${MAX_SCOPE_KEY_BYTES} bytes`;
	// One pass over the characters, no pattern: every hook checks a key or two, and compiling
	// patterns costs a fresh process more than the whole check. The first problem by kind wins.
	let found = 0;
	for (let index = 0; index < key.length; index++) found |= kindOf(key.charCodeAt(index));
	if (found & CONTROL) return "contains a control character";
	if (found & SEPARATOR) return "contains a path separator";
	if (found & NOT_IN_NAMES) return "contains a character not allowed in file names";
	if (key.startsWith(".")) return "starts with a dot";
	if (key.endsWith(".") || key.endsWith(" ")) return "ends with a dot or a space";
	if (isDeviceName(key)) return "is a device name on Windows";
	return null;
}

const CONTROL = 1;
const SEPARATOR = 2;
const NOT_IN_NAMES = 4;

function kindOf(code: number): number {
	if (code <= 0x1f || code === 0x7f) return CONTROL;
	if (code === 0x2f || code === 0x5c) return SEPARATOR;
	return '<>:"|?*'.includes(String.fromCharCode(code)) ? NOT_IN_NAMES : 0;
}

/** `con`, `prn`, `aux`, `nul`, `com0`–`com9`, `lpt0`–`lpt9`, in any case of ASCII letters, alone or before a dot. */
function isDeviceName(key: string): boolean {
	const dot = key.indexOf(".");
	const stem = asciiLower(dot < 0 ? key : key.slice(0, dot));
	if (stem === "con" || stem === "prn" || stem === "aux" || stem === "nul") return true;
	return stem.length === 4 && (stem.startsWith("com") || stem.startsWith("lpt")) && isDigit(stem.charCodeAt(3));
}

function asciiLower(text: string): string {
	let lower = "";
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		lower += String.fromCharCode(code >= 0x41 && code <= 0x5a ? code + 0x20 : code);
	}
	return lower;
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}

export function isSafeScopeKey(key: string): boolean {
	return scopeKeyProblem(key) === null;
}

/**
 * Contract: returns `<scopesDir>/<key>.json` only if the key is one safe
 * segment and the resolved path is a direct child of `scopesDir`; otherwise
 * throws `BoulderError("usage")` without touching the disk.
 */
export function scopeFilePath(scopesDir: string, key: string): string {
	const problem = scopeKeyProblem(key);
	if (problem) throw new BoulderError("usage", `Invalid scope key ${JSON.stringify(clip(key))}: it ${problem}.`);
	const root = path.resolve(scopesDir);
	const file = path.resolve(root, `${key}.json`);
	if (path.dirname(file) !== root || path.relative(root, file).startsWith("..")) {
		throw new BoulderError("usage", `Invalid scope key ${JSON.stringify(clip(key))}: it leaves the state folder.`);
	}
	return file;
}

function clip(key: string): string {
	return typeof key === "string" && key.length > 60 ? `${key.slice(0, 57)}...` : String(key);
}
