import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPathSafeScopeKey, MAX_SCOPE_KEY_LENGTH, ScopeIdentity, scopeKey } from "../../src/core/scope-key.js";

const RUNS = 2_000;

/**
 * A decoder written from the key grammar in the module header. If it recovers
 * every identity from its key, the encoding is injective for every key that
 * was not shortened.
 */
function decodeFullKey(key: string): ScopeIdentity {
	const [kind, ...fields] = key.split(".");
	const values = fields.map(decodeField);
	if (kind === "session" && values.length === 2) {
		const [harness, sessionId] = values;
		if (typeof harness !== "string" || typeof sessionId !== "string") throw new Error(`null in ${key}`);
		return { kind, harness, sessionId };
	}
	if (kind === "origin" && values.length >= 1) {
		const [origin, ...parts] = values;
		if (typeof origin !== "string") throw new Error(`null origin in ${key}`);
		return { kind, origin, parts };
	}
	if (kind === "cron" && values.length === 1 && typeof values[0] === "string") return { kind, jobId: values[0] };
	throw new Error(`not a full key: ${key}`);
}

function decodeField(text: string): string | null {
	if (text === "~") return null;
	if (text === "~~") return "";
	let out = "";
	let index = 0;
	while (index < text.length) {
		const char = text[index];
		if (char !== "~") {
			if (!/^[a-z0-9_-]$/.test(char ?? "")) throw new Error(`raw ${char} in ${text}`);
			out += char;
			index++;
			continue;
		}
		const wide = text[index + 1] === "u";
		const hex = wide ? text.slice(index + 2, index + 6) : text.slice(index + 1, index + 3);
		if (!/^[0-9a-f]+$/.test(hex) || hex.length !== (wide ? 4 : 2)) throw new Error(`bad escape in ${text}`);
		out += String.fromCharCode(Number.parseInt(hex, 16));
		index += wide ? 6 : 3;
	}
	if (out === "") throw new Error("empty field");
	return out;
}

const tricky = fc.constantFrom(
	"",
	"null",
	"n",
	"~",
	"~~",
	"~h",
	".",
	"..",
	"/",
	"\\",
	":",
	"\0",
	"a/b",
	"../../etc",
	"CON",
	"con",
	"nul.txt",
	"A",
	"a",
	"~41",
	"\uD800",
	"\uFFFD",
	"é",
	"e\u0301",
	"会话",
	"🪨",
	" ",
	"x.",
);
const text = fc.oneof(
	tricky,
	fc.string({ unit: "binary", maxLength: 12 }),
	fc.string({ unit: fc.constantFrom("a", "A", ".", "~", "-", "_", "/", "\0", "é", "\uD800", "n"), maxLength: 6 }),
	fc.string({ unit: "grapheme-ascii", minLength: 40, maxLength: 160 }),
);
const identity: fc.Arbitrary<ScopeIdentity> = fc.oneof(
	fc.record({ kind: fc.constant("session" as const), harness: text, sessionId: text }),
	fc.record({
		kind: fc.constant("origin" as const),
		origin: text,
		parts: fc.array(fc.option(text, { nil: null }), { maxLength: 4 }),
	}),
	fc.record({ kind: fc.constant("cron" as const), jobId: text }),
);

function keyOf(scope: ScopeIdentity): string {
	const key = scopeKey(scope);
	if (key === null) throw new Error(`no key for ${JSON.stringify(scope)}`);
	return key;
}

describe("scopeKey", () => {
	it("keeps plain session ids readable", () => {
		expect(
			scopeKey({ kind: "session", harness: "claude-code", sessionId: "3f2a9c1e-0b7d-4e5f-9a8b-1c2d3e4f5a6b" }),
		).toBe("session.claude-code.3f2a9c1e-0b7d-4e5f-9a8b-1c2d3e4f5a6b");
		expect(scopeKey({ kind: "cron", jobId: "nightly_build" })).toBe("cron.nightly_build");
	});

	it("gives subagents and system work no key, because they own no continuation", () => {
		expect(scopeKey({ kind: "subagent" })).toBeNull();
		expect(scopeKey({ kind: "system" })).toBeNull();
	});

	it("tells null apart from the strings 'null', 'n', '~' and ''", () => {
		const keys = [null, "null", "n", "~", "~~", ""].map((part) =>
			keyOf({ kind: "origin", origin: "chat", parts: [part] }),
		);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it("tells apart part lists of different lengths", () => {
		const lists: (string | null)[][] = [[], [""], ["", ""], [null], [null, null], ["a"], ["a", ""]];
		const keys = lists.map((parts) => keyOf({ kind: "origin", origin: "chat", parts }));
		expect(new Set(keys).size).toBe(lists.length);
	});

	it("keeps field boundaries: a separator inside a value cannot shift them", () => {
		const a = keyOf({ kind: "origin", origin: "a.b", parts: ["c"] });
		const b = keyOf({ kind: "origin", origin: "a", parts: ["b.c"] });
		const c = keyOf({ kind: "origin", origin: "a", parts: ["b", "c"] });
		expect(new Set([a, b, c]).size).toBe(3);
	});

	it("tells the kinds apart even for the same text", () => {
		const keys = [
			keyOf({ kind: "session", harness: "cron", sessionId: "x" }),
			keyOf({ kind: "origin", origin: "cron", parts: ["x"] }),
			keyOf({ kind: "cron", jobId: "x" }),
		];
		expect(new Set(keys).size).toBe(3);
	});

	it("keeps ids that differ only in letter case apart on case-insensitive file systems", () => {
		const lower = keyOf({ kind: "session", harness: "opencode", sessionId: "ses_abc" });
		const upper = keyOf({ kind: "session", harness: "opencode", sessionId: "ses_ABC" });
		expect(lower.toLowerCase()).not.toBe(upper.toLowerCase());
		expect(upper).toBe(upper.toLowerCase());
	});

	it("tells a lone surrogate apart from the replacement character", () => {
		const lone = keyOf({ kind: "cron", jobId: "\uD800" });
		const replacement = keyOf({ kind: "cron", jobId: "\uFFFD" });
		expect(lone).not.toBe(replacement);
	});

	it("turns path tricks into plain text", () => {
		for (const sessionId of ["..", ".", "../../etc/passwd", "a\\b", "C:", "x\0y", "trailing."]) {
			const key = keyOf({ kind: "session", harness: "h", sessionId });
			expect(key).toMatch(/^[a-z0-9._~-]+$/);
			expect(key.endsWith(".")).toBe(false);
			expect(isPathSafeScopeKey(key)).toBe(true);
		}
	});

	it("shortens long keys to the bound: a readable prefix, then ~h and the sha256 of the full key", () => {
		const sessionId = "a".repeat(300);
		const key = keyOf({ kind: "session", harness: "claude-code", sessionId });
		const full = `session.claude-code.${sessionId}`;
		expect(key).toHaveLength(MAX_SCOPE_KEY_LENGTH);
		expect(key.startsWith("session.claude-code.aaaa")).toBe(true);
		expect(key.endsWith(`~h${createHash("sha256").update(full).digest("hex")}`)).toBe(true);
	});

	it("keeps keys apart that differ only past the shortened prefix", () => {
		const a = keyOf({ kind: "cron", jobId: `${"j".repeat(200)}1` });
		const b = keyOf({ kind: "cron", jobId: `${"j".repeat(200)}2` });
		expect(a).not.toBe(b);
		expect(a.slice(0, 62)).toBe(b.slice(0, 62));
	});

	it("does not shorten a key of exactly the bound", () => {
		const jobId = "j".repeat(MAX_SCOPE_KEY_LENGTH - "cron.".length);
		expect(keyOf({ kind: "cron", jobId })).toBe(`cron.${jobId}`);
		expect(keyOf({ kind: "cron", jobId: `${jobId}j` })).toContain("~h");
	});

	it("validates identities with its schema", () => {
		expect(ScopeIdentity.safeParse({ kind: "origin", origin: "tg", parts: [null, "1"] }).success).toBe(true);
		expect(ScopeIdentity.safeParse({ kind: "origin", origin: "tg", parts: [1] }).success).toBe(false);
		expect(ScopeIdentity.safeParse({ kind: "tui" }).success).toBe(false);
	});
});

describe("scopeKey properties", () => {
	it(`decodes back to its identity whenever it is not shortened (injective; ${RUNS} runs)`, () => {
		fc.assert(
			fc.property(identity, (scope) => {
				const key = keyOf(scope);
				fc.pre(!key.includes("~h"));
				expect(decodeFullKey(key)).toEqual(scope);
			}),
			{ numRuns: RUNS },
		);
	});

	it(`never gives two different identities the same key, shortened or not (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(identity, { selector: (scope) => JSON.stringify(scope), minLength: 2, maxLength: 12 }),
				(scopes) => {
					const keys = scopes.map(keyOf);
					expect(new Set(keys).size).toBe(scopes.length);
					expect(new Set(keys.map((key) => key.toLowerCase())).size).toBe(scopes.length);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it(`marks shortened keys so they can never equal a full key (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(identity, (scope) => {
				const key = keyOf(scope);
				if (key.includes("~h")) {
					expect(key).toMatch(/~h[0-9a-f]{64}$/);
					expect(key).toHaveLength(MAX_SCOPE_KEY_LENGTH);
					expect(() => decodeFullKey(key)).toThrow();
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it(`is one safe path segment on Linux, macOS and Windows, within ${MAX_SCOPE_KEY_LENGTH} characters (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(identity, (scope) => {
				const key = keyOf(scope);
				expect(key.length).toBeGreaterThan(0);
				expect(key.length).toBeLessThanOrEqual(MAX_SCOPE_KEY_LENGTH);
				expect(key).toMatch(/^[A-Za-z0-9._~-]+$/);
				expect(key).toBe(key.toLowerCase());
				expect(key).not.toMatch(/^\./);
				expect(key).not.toMatch(/\.$/);
				expect(["", ".", ".."]).not.toContain(key);
				expect(key).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/);
				expect(isPathSafeScopeKey(key)).toBe(true);
			}),
			{ numRuns: RUNS },
		);
	});

	it(`is deterministic: equal identities give equal keys (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(identity, (scope) => {
				expect(scopeKey(structuredClone(scope))).toBe(scopeKey(scope));
			}),
			{ numRuns: RUNS },
		);
	});
});

describe("isPathSafeScopeKey", () => {
	it("rejects keys that are not one safe path segment", () => {
		for (const key of [
			"",
			".",
			"..",
			".hidden",
			"a/b",
			"a\\b",
			"c:",
			"nul",
			"con.x",
			"trailing.",
			"Upper",
			"x".repeat(129),
		]) {
			expect(isPathSafeScopeKey(key), key).toBe(false);
		}
		expect(isPathSafeScopeKey("session.claude-code.abc")).toBe(true);
	});
});
