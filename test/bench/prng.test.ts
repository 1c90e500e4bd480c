import { describe, expect, it } from "vitest";
import { Rng, seedFrom } from "../../bench/policy/prng.js";

const draw = (rng: Rng, count: number) => Array.from({ length: count }, () => rng.next());

describe("seeded PRNG", () => {
	it("gives the same sequence for the same seed", () => {
		expect(draw(new Rng(42), 50)).toEqual(draw(new Rng(42), 50));
	});

	it("gives different sequences for different seeds", () => {
		expect(draw(new Rng(42), 10)).not.toEqual(draw(new Rng(43), 10));
	});

	it("stays in [0, 1) and spreads over it", () => {
		const values = draw(new Rng(7), 10_000);
		expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
		expect(Math.max(...values)).toBeLessThan(1);
		const low = values.filter((value) => value < 0.5).length;
		expect(low).toBeGreaterThan(4_700);
		expect(low).toBeLessThan(5_300);
	});

	it("draws integers within both bounds, reaching each", () => {
		const rng = new Rng(3);
		const seen = new Set(Array.from({ length: 500 }, () => rng.int(2, 5)));
		expect([...seen].sort()).toEqual([2, 3, 4, 5]);
	});

	it("forks independent named streams that do not depend on what the parent drew", () => {
		const a = new Rng(9);
		const b = new Rng(9);
		draw(b, 17);
		expect(draw(a.fork("agent"), 5)).toEqual(draw(b.fork("agent"), 5));
		expect(draw(a.fork("agent"), 5)).not.toEqual(draw(a.fork("user"), 5));
	});

	it("derives stable seeds from names", () => {
		expect(seedFrom(1, "looper")).toBe(seedFrom(1, "looper"));
		expect(seedFrom(1, "looper")).not.toBe(seedFrom(2, "looper"));
		expect(seedFrom(1, "looper")).not.toBe(seedFrom(1, "churner"));
	});
});
