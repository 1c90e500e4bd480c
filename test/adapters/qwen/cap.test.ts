import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capSettingIn, DEFAULT_CAP, qwenHome, resolveCap } from "../../../src/adapters/qwen/cap.js";

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

describe("Qwen Code's home", () => {
	it("is $QWEN_HOME made absolute against the working folder, as Qwen Code resolves it", () => {
		expect(qwenHome({ QWEN_HOME: "/q/", HOME: "/h" })).toBe("/q");
		expect(qwenHome({ QWEN_HOME: "/q/./a/..", HOME: "/h" })).toBe("/q");
		expect(qwenHome({ QWEN_HOME: "rel/q", HOME: "/h" })).toBe(path.resolve("rel/q"));
	});

	it("is ~/.qwen without it, an empty one counting as unset", () => {
		expect(qwenHome({ HOME: "/h" })).toBe("/h/.qwen");
		expect(qwenHome({ QWEN_HOME: "", HOME: "/h" })).toBe("/h/.qwen");
		expect(qwenHome({})).toBe(path.join(os.homedir(), ".qwen"));
	});
});
