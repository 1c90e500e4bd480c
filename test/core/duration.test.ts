import { describe, expect, it } from "vitest";
import { parseDurationMs } from "../../src/core/duration.js";

describe("parseDurationMs", () => {
	it("reads milliseconds and unit durations, and nothing else", () => {
		expect(parseDurationMs("90s")).toBe(90_000);
		expect(parseDurationMs("2h")).toBe(7_200_000);
		expect(parseDurationMs("soon")).toBeNull();
		expect(parseDurationMs("9".repeat(20))).toBeNull();
	});
});
