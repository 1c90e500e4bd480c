import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scopeKey, sessionOfScopeKey } from "../../src/core/scope-key.js";

describe("sessionOfScopeKey", () => {
	it("reads back the harness and session of every session key that was not shortened", () => {
		let readBack = 0;
		fc.assert(
			fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 40, unit: "binary" }), (harness, sessionId) => {
				const key = scopeKey({ kind: "session", harness, sessionId }) as string;
				const found = sessionOfScopeKey(key);
				if (key.includes("~h")) return found === null;
				readBack++;
				return found !== null && found.harness === harness && found.sessionId === sessionId;
			}),
			{ numRuns: 500 },
		);
		expect(readBack).toBeGreaterThan(250);
	});

	it("reads nothing from other kinds, shortened keys or text scopeKey would not write", () => {
		expect(sessionOfScopeKey("session.claude-code.abc-123")).toEqual({ harness: "claude-code", sessionId: "abc-123" });
		expect(sessionOfScopeKey(scopeKey({ kind: "cron", jobId: "j" }) as string)).toBeNull();
		expect(
			sessionOfScopeKey(scopeKey({ kind: "session", harness: "h", sessionId: "x".repeat(300) }) as string),
		).toBeNull();
		for (const bad of ["session.a", "session.a.b.c", "session.A.b", "session.a.~zz", "session.a.~2d"]) {
			expect(sessionOfScopeKey(bad)).toBeNull();
		}
	});
});
