import { describe, expect, it } from "vitest";
import { BoundedMap, BoundedSet } from "../../../src/adapters/opencode/bounded.js";

describe("a bounded set", () => {
	it("tells a first sight from a repeat", () => {
		const seen = new BoundedSet<string>(3);
		expect(seen.add("a")).toBe(true);
		expect(seen.add("a")).toBe(false);
		expect(seen.has("a")).toBe(true);
	});

	it("forgets the oldest past its size, and a repeat does not renew an entry", () => {
		const seen = new BoundedSet<string>(2);
		seen.add("a");
		seen.add("b");
		seen.add("a");
		seen.add("c");
		expect(seen.size).toBe(2);
		expect(seen.has("a")).toBe(false);
		expect(seen.has("b")).toBe(true);
		expect(seen.has("c")).toBe(true);
		expect(seen.add("a")).toBe(true);
	});
});

describe("a bounded map", () => {
	it("keeps the newest keys, oldest first, and a changed value keeps its place", () => {
		const map = new BoundedMap<string, number>(2);
		map.set("a", 1);
		map.set("b", 2);
		map.set("a", 3);
		expect([...map.keys()]).toEqual(["a", "b"]);
		map.set("c", 4);
		expect([...map.keys()]).toEqual(["b", "c"]);
		expect(map.get("a")).toBeUndefined();
		expect(map.get("c")).toBe(4);
	});
});
