import { describe, expect, it } from "vitest";
import { isBoulderPrompt } from "../../../src/adapters/shared/boulder-prompt.js";
import { continuationPrompt, verifyFailedPrompt } from "../../../src/core/prompts.js";
import { view } from "../../core/builders.js";

describe("recognising boulder's own prompts", () => {
	it("knows every prompt boulder injects, as a harness echoes it back (leading whitespace too)", () => {
		expect(isBoulderPrompt(continuationPrompt(view("x>..")))).toBe(true);
		expect(isBoulderPrompt(`\n  ${continuationPrompt({ ...view("x."), source: "plan", name: "auth" })}`)).toBe(true);
		expect(
			isBoulderPrompt(
				continuationPrompt({ ...view("x."), source: "plan", name: "auth", orchestrate: { subagents: {} } }),
			),
		).toBe(true);
		const failed = verifyFailedPrompt(
			{ ...view("xx"), source: "plan", name: "auth" },
			{ command: "npm test", exitCode: 1, output: "1 failed" },
		);
		expect(isBoulderPrompt(failed)).toBe(true);
	});

	it("never takes the user's own words for one, even when they quote boulder or resemble it", () => {
		expect(isBoulderPrompt("please continue")).toBe(false);
		expect(isBoulderPrompt("")).toBe(false);
		expect(isBoulderPrompt(null)).toBe(false);
		expect(isBoulderPrompt(`Why did you send "${continuationPrompt(view("x."))}"?`)).toBe(false);
		expect(isBoulderPrompt(`Why did you send this?\n${continuationPrompt(view("x>..."))}`)).toBe(false);
		expect(isBoulderPrompt("[boulder · automatic continuation]")).toBe(false);
		expect(isBoulderPrompt("[boulder · automatic continuation — not written by the user] and more")).toBe(false);
	});
});
