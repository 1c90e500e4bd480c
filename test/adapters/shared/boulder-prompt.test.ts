import { describe, expect, it } from "vitest";
import { isBoulderPrompt } from "../../../src/adapters/shared/boulder-prompt.js";
import { continuationPrompt, verifyFailedPrompt } from "../../../src/core/prompts.js";
import { view } from "../../core/builders.js";

describe("recognising boulder's own prompts", () => {
	it("knows every prompt boulder injects, a continuation and a failed verification alike", () => {
		expect(isBoulderPrompt(continuationPrompt(view("x>..")))).toBe(true);
		expect(isBoulderPrompt(continuationPrompt({ ...view("x."), source: "plan", name: "auth" }))).toBe(true);
		const failed = verifyFailedPrompt(
			{ ...view("xx"), source: "plan", name: "auth" },
			{
				command: "npm test",
				exitCode: 1,
				output: "1 failed",
			},
		);
		expect(isBoulderPrompt(failed)).toBe(true);
	});

	it("never takes the user's own words for one, even when they quote boulder", () => {
		expect(isBoulderPrompt("please continue")).toBe(false);
		expect(isBoulderPrompt("")).toBe(false);
		expect(isBoulderPrompt(`Why did you send "${continuationPrompt(view("x."))}"?`)).toBe(false);
	});
});
