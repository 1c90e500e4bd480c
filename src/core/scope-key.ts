/**
 * Durable identities for todo lists and continuation state, and the keys they
 * are stored under. A key names one file, so it must be injective (two scopes
 * never share state) and safe as a single path segment on Linux, macOS and
 * Windows, including their case-insensitive file systems.
 *
 * Key grammar, all lowercase ASCII so case folding cannot merge two keys:
 *
 *   key    = kind "." field *("." field)      kind: session | origin | cron
 *   field  = "~" (null) | "~~" (empty string) | escaped text
 *   escape = [a-z0-9_-] as is; any other UTF-16 unit below 0x100 as "~" 2 hex;
 *            any other unit as "~u" 4 hex (lone surrogates included, which a
 *            UTF-8 round trip would have merged into U+FFFD)
 *
 * A field never contains "." and every escape is self-delimiting, so the split
 * on "." and each field's decoding are unique; the kind and the field count
 * tell identities apart. No field is empty, so a key never ends in "." (which
 * Windows strips), never starts with "." and is never "." or "..". The text
 * before the first "." is the kind: never a Windows device name (CON, NUL,
 * COM1, ...) and free of "~", so a key cannot pose as an 8.3 short name.
 *
 * A key over MAX_SCOPE_KEY_LENGTH keeps a readable prefix and ends in "~h" and
 * the sha256 of the whole key. "~h" never occurs in a full key ("~" is always
 * followed by a hex digit, "u", "~", "." or the end), so a shortened key cannot
 * equal a full one, and two shortened keys are equal only if their digests are.
 */
import { createRequire } from "node:module";
import { z } from "./zod.js";

export const ScopeIdentity = z.lazy(() =>
	z.discriminatedUnion("kind", [
		z.object({ kind: z.literal("session"), harness: z.string(), sessionId: z.string() }),
		z.object({ kind: z.literal("origin"), origin: z.string(), parts: z.array(z.nullable(z.string())) }),
		z.object({ kind: z.literal("cron"), jobId: z.string() }),
		z.object({ kind: z.literal("subagent") }),
		z.object({ kind: z.literal("system") }),
	]),
);
export type ScopeIdentity = z.infer<typeof ScopeIdentity>;

export const MAX_SCOPE_KEY_LENGTH = 128;

const HASH_MARK = "~h";
const DIGEST_LENGTH = 64;

/**
 * The storage key of a scope, or null for scopes that own no continuation:
 * a subagent answers to its parent, and system work is never continued.
 */
export function scopeKey(identity: ScopeIdentity): string | null {
	switch (identity.kind) {
		case "session":
			return bounded(["session", field(identity.harness), field(identity.sessionId)].join("."));
		case "origin":
			return bounded(["origin", field(identity.origin), ...identity.parts.map(field)].join("."));
		case "cron":
			return bounded(["cron", field(identity.jobId)].join("."));
		case "subagent":
		case "system":
			return null;
	}
}

/**
 * The harness and session a session key was made from, for views that list
 * scope files; null for other kinds, a shortened key (its tail is a digest)
 * or anything `scopeKey` did not make.
 */
export function sessionOfScopeKey(key: string): { harness: string; sessionId: string } | null {
	if (key.includes(HASH_MARK)) return null;
	const parts = key.split(".");
	if (parts.length !== 3 || parts[0] !== "session") return null;
	const harness = unfield(parts[1] ?? "");
	const sessionId = unfield(parts[2] ?? "");
	return harness === null || sessionId === null ? null : { harness, sessionId };
}

/** `field` read back; null for the null field or text `field` would not have written. */
function unfield(text: string): string | null {
	if (text === "~") return null;
	if (text === "~~") return "";
	let out = "";
	for (let index = 0; index < text.length; ) {
		const char = text[index] ?? "";
		if (char !== "~") {
			if (!/^[a-z0-9_-]$/.test(char)) return null;
			out += char;
			index += 1;
			continue;
		}
		const wide = text[index + 1] === "u";
		const hex = wide ? text.slice(index + 2, index + 6) : text.slice(index + 1, index + 3);
		if (!/^[0-9a-f]+$/.test(hex) || hex.length !== (wide ? 4 : 2)) return null;
		out += String.fromCharCode(Number.parseInt(hex, 16));
		index += wide ? 6 : 3;
	}
	return field(out) === text ? out : null;
}

/**
 * Whether a string is usable as a scope key path segment. Defence in depth for
 * the state layer, which may meet keys that were not made by `scopeKey`.
 */
export function isPathSafeScopeKey(key: string): boolean {
	return (
		key.length > 0 &&
		key.length <= MAX_SCOPE_KEY_LENGTH &&
		/^[a-z0-9_~-][a-z0-9._~-]*$/.test(key) &&
		!key.endsWith(".") &&
		!/^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/.test(key)
	);
}

function field(value: string | null): string {
	if (value === null) return "~";
	if (value === "") return "~~";
	let out = "";
	for (let index = 0; index < value.length; index++) {
		const unit = value.charCodeAt(index);
		if (isPlain(unit)) out += value[index];
		else if (unit < 0x100) out += `~${unit.toString(16).padStart(2, "0")}`;
		else out += `~u${unit.toString(16).padStart(4, "0")}`;
	}
	return out;
}

/** `[a-z0-9_-]`, by code unit: every hook event and every status line keys a scope, so no regular expression per character. */
function isPlain(unit: number): boolean {
	return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || unit === 0x5f || unit === 0x2d;
}

function bounded(key: string): string {
	if (key.length <= MAX_SCOPE_KEY_LENGTH) return key;
	const digest = sha256Hex(key);
	const prefix = key.slice(0, MAX_SCOPE_KEY_LENGTH - HASH_MARK.length - DIGEST_LENGTH);
	return `${prefix}${HASH_MARK}${digest}`;
}

/**
 * Long keys only (rare: session ids are short), so node:crypto is loaded on
 * first use rather than on every hook's start-up.
 */
function sha256Hex(text: string): string {
	const crypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
	return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}
