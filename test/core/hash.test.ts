import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hash64, hash64BigInt } from "../../src/core/hash.js";

describe("hash64 (FNV-1a, 64-bit)", () => {
	it("matches the published FNV-1a test vectors", () => {
		expect(hash64("")).toBe("cbf29ce484222325");
		expect(hash64("a")).toBe("af63dc4c8601ec8c");
		expect(hash64("foobar")).toBe("85944171f73967e8");
	});

	it("hashes text as UTF-8 and tells near texts apart", () => {
		expect(hash64("é")).not.toBe(hash64("e"));
		expect(hash64("task 1|pending")).not.toBe(hash64("task 1|completed"));
		expect(hash64("日本語")).toMatch(/^[0-9a-f]{16}$/);
	});

	it("hashes the UTF-8 that TextEncoder gives: two, three and four bytes, and a lone surrogate as U+FFFD", () => {
		for (const text of ["é", "日本語", "😀", "a\ud800b", "\udc00", "x\ud83d", "\ud83d\ud83d\ude00", "\ufffd"]) {
			expect(hash64(text)).toBe(hash64BigInt(text));
		}
		expect(hash64("a\ud800b")).toBe(hash64("a\ufffdb"));
	});

	it("gives what 64-bit FNV-1a arithmetic gives, for any text", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
				expect(hash64(text)).toBe(hash64BigInt(text));
			}),
			{ numRuns: 2000 },
		);
	});

	it("hashes a multi-MB title without a BigInt per byte (the same value as the reference)", () => {
		const title = `Item ${"long ".repeat(400_000)}`;
		expect(hash64(title)).toBe(hash64BigInt(title));
	});
});
