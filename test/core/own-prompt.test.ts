import { describe, expect, it } from "vitest";
import { isOwnPrompt } from "../../src/core/own-prompt.js";
import { continuationPrompt, verifyFailedPrompt } from "../../src/core/prompts.js";
import { view } from "./builders.js";

describe("telling boulder's own nudges from the user's prompts", () => {
	it("knows every kind of nudge, as a harness echoes it back (leading whitespace too)", () => {
		expect(isOwnPrompt(continuationPrompt(view("x>...")))).toBe(true);
		expect(isOwnPrompt(`\n  ${continuationPrompt({ ...view("x."), source: "plan", name: "auth" })}`)).toBe(true);
		expect(isOwnPrompt(verifyFailedPrompt(view("x"), { command: "npm test", exitCode: 1, output: "failed" }))).toBe(
			true,
		);
	});

	it("takes a prompt that only quotes a nudge, or resembles one, as the user's", () => {
		const nudge = continuationPrompt(view("x>..."));
		expect(isOwnPrompt(`Why did you send this?\n${nudge}`)).toBe(false);
		expect(isOwnPrompt("[boulder · automatic continuation]")).toBe(false);
		expect(isOwnPrompt("Carry on with the list.")).toBe(false);
		expect(isOwnPrompt("")).toBe(false);
	});
});
