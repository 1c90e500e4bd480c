import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { harnessHome } from "../../../src/adapters/shared/harness-home.js";

describe("a harness's home", () => {
	it("is the folder its variable names, else its folder in the user's home", () => {
		expect(harnessHome({ CODEX_HOME: "/c", HOME: "/h" }, "CODEX_HOME", ".codex")).toBe("/c");
		expect(harnessHome({ HOME: "/h" }, "CODEX_HOME", ".codex")).toBe("/h/.codex");
		expect(harnessHome({ CODEX_HOME: "", HOME: "/h" }, "CODEX_HOME", ".codex")).toBe("/h/.codex");
		expect(harnessHome({}, "CODEX_HOME", ".codex")).toBe(path.join(os.homedir(), ".codex"));
	});

	it("takes the value as it is: a leading ~ names no home, as the harnesses that use it read it", () => {
		expect(harnessHome({ COPILOT_HOME: "~/c", HOME: "/h" }, "COPILOT_HOME", ".copilot")).toBe("~/c");
		expect(harnessHome({ CODEX_HOME: "rel/c/", HOME: "/h" }, "CODEX_HOME", ".codex")).toBe("rel/c/");
	});
});
