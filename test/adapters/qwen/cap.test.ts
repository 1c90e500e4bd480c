import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
		expect(qwenHome({ QWEN_HOME: "" })).toBe(path.join(os.homedir(), ".qwen"));
	});

	it("reads a leading ~ as the user's home, as Qwen Code does", () => {
		expect(qwenHome({ QWEN_HOME: "~", HOME: "/h" })).toBe("/h");
		expect(qwenHome({ QWEN_HOME: "~/q/settings-here/", HOME: "/h" })).toBe("/h/q/settings-here");
		expect(qwenHome({ QWEN_HOME: "~\\q", HOME: "/h" })).toBe("/h/q");
		expect(qwenHome({ QWEN_HOME: "~q", HOME: "/h" })).toBe(path.resolve("~q"));
	});

	describe("with the variable unset, from the env files Qwen Code reads", () => {
		let home: string;
		beforeEach(() => {
			home = mkdtempSync(path.join(os.tmpdir(), "boulder-qwen-home-"));
			mkdirSync(path.join(home, ".qwen"));
		});
		afterEach(() => rmSync(home, { recursive: true, force: true }));

		it("takes ~/.qwen/.env first, then ~/.env", () => {
			writeFileSync(path.join(home, ".env"), "QWEN_HOME=/from/home-env\n");
			expect(qwenHome({ HOME: home })).toBe("/from/home-env");
			writeFileSync(path.join(home, ".qwen", ".env"), "\uFEFF# Qwen\nexport QWEN_HOME: ~/elsewhere\n");
			expect(qwenHome({ HOME: home })).toBe(path.join(home, "elsewhere"));
		});

		it("keeps ~/.qwen where the files say nothing, and reads none when the variable is set, even empty", () => {
			writeFileSync(path.join(home, ".qwen", ".env"), "OTHER=1\n");
			expect(qwenHome({ HOME: home })).toBe(path.join(home, ".qwen"));
			writeFileSync(path.join(home, ".env"), "QWEN_HOME=/from/home-env\n");
			expect(qwenHome({ HOME: home, QWEN_HOME: "" })).toBe(path.join(home, ".qwen"));
			expect(qwenHome({ HOME: home, QWEN_HOME: "/set" })).toBe("/set");
		});
	});
});
