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
	if (Buffer.byteLength(key, "utf8") > MAX_SCOPE_KEY_BYTES) return `is longer than ${MAX_SCOPE_KEY_BYTES} bytes`;
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
	if (/[\u0000-\u001f\u007f]/.test(key)) return "contains a control character";
	if (/[/\\]/.test(key)) return "contains a path separator";
	if (/[<>:"|?*]/.test(key)) return "contains a character not allowed in file names";
	if (key.startsWith(".")) return "starts with a dot";
	if (/[. ]$/.test(key)) return "ends with a dot or a space";
	if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(key)) return "is a device name on Windows";
	return null;
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
