import { describe, expect, it } from "vitest";
import { continuationPrompt, isContinuationText, verifyFailedPrompt } from "../../src/core/prompts.js";
import { view } from "./builders.js";

describe("recognising boulder's own prompts", () => {
	it("knows every prompt boulder injects, a continuation and a failed verification alike", () => {
		expect(isContinuationText(continuationPrompt(view("x>..")))).toBe(true);
		expect(isContinuationText(continuationPrompt({ ...view("x."), source: "plan", name: "auth" }))).toBe(true);
		const failed = verifyFailedPrompt(
			{ ...view("xx"), source: "plan", name: "auth" },
			{
				command: "npm test",
				exitCode: 1,
				output: "1 failed",
			},
		);
		expect(isContinuationText(failed)).toBe(true);
	});

	it("never takes the user's own words for one, even when they quote boulder", () => {
		expect(isContinuationText("please continue")).toBe(false);
		expect(isContinuationText("")).toBe(false);
		expect(isContinuationText(`Why did you send "${continuationPrompt(view("x."))}"?`)).toBe(false);
	});
});
