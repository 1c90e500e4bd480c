import { describe, expect, it } from "vitest";
import { CLAIM_FUTURE_SKEW_MS, isLive, type VerifyClaim } from "../../src/state/verify-claims.js";

const NOW = 1_800_000_000_000;
const claim = (over: Partial<VerifyClaim> = {}): VerifyClaim => ({
	pid: 4242,
	group: null,
	at: NOW - 1_000,
	until: NOW + 60_000,
	...over,
});

describe("a verify claim", () => {
	it("holds while its process lives and its time has not run out", () => {
		expect(isLive(claim(), NOW, () => true)).toBe(true);
		expect(isLive(claim(), NOW, () => false)).toBe(false);
		expect(isLive(claim({ until: NOW }), NOW, () => true)).toBe(false);
	});

	it("does not hold when stamped ahead of now (a clock stepped back, or a file boulder did not write here)", () => {
		expect(isLive(claim({ at: NOW + CLAIM_FUTURE_SKEW_MS + 1, until: 1e15 }), NOW, () => true)).toBe(false);
		expect(isLive(claim({ at: NOW + CLAIM_FUTURE_SKEW_MS - 1 }), NOW, () => true)).toBe(true);
	});
});
