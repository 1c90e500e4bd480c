import { describe, expect, it } from "vitest";
import { capSettingIn, DEFAULT_CAP, resolveCap } from "../../../src/adapters/qwen/cap.js";

describe("Qwen Code's continuation cap, found as Qwen Code finds it", () => {
	it("is 8 when nothing sets it", () => {
		expect(resolveCap(undefined, [undefined, undefined])).toBe(DEFAULT_CAP);
	});

	it("takes the environment over every settings file", () => {
		expect(resolveCap("20", [50])).toBe(20);
		expect(resolveCap("2.5", [50])).toBe(DEFAULT_CAP);
	});

	it("takes the strongest settings file that sets it, clamped to 100", () => {
		expect(resolveCap(undefined, [undefined, 30, 60])).toBe(30);
		expect(resolveCap(undefined, [500])).toBe(100);
		expect(resolveCap(undefined, [0])).toBe(DEFAULT_CAP);
	});

	it("reads the setting from a file with comments", () => {
		expect(capSettingIn('{"stopHookBlockingCap": 40}')).toBe(40);
		expect(capSettingIn('{\n// lifted for boulder\n"stopHookBlockingCap": 100,\n}')).toBe(100);
		expect(capSettingIn("{}")).toBeUndefined();
	});
});
