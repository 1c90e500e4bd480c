import { describe, expect, it } from "vitest";
import { continuationPrompt, verifyFailedPrompt, workCompleteMessage } from "../../src/core/prompts.js";
import { fillTemplate } from "../../src/core/template.js";
import { view } from "./builders.js";

describe("prompts", () => {
	it("names the next open items and the progress", () => {
		const text = continuationPrompt(view("x>..."));
		expect(text).toContain("1 of 5 done, 4 open");
		expect(text).toContain("- task 2");
		expect(text).toContain("- task 3");
		expect(text).not.toContain("task 5");
	});

	it("says how to stop legitimately and asks to verify rather than claim", () => {
		const text = continuationPrompt(view("x."));
		expect(text).toMatch(/blocked/);
		expect(text).toMatch(/cancelled/);
		expect(text).toMatch(/run the tests/);
		expect(text).toMatch(/mark it done/);
	});

	it("tells a plan's agent to tick the checkbox in the plan file", () => {
		const text = continuationPrompt({ ...view("x."), source: "plan", name: "auth" });
		expect(text).toContain('the plan "auth"');
		expect(text).toContain("[x] done");
	});

	it("is marked as not written by the user", () => {
		expect(continuationPrompt(view("x."))).toMatch(/not written by the user/);
	});

	it("carries the failing command, its exit code and its output", () => {
		const text = verifyFailedPrompt(view("xx"), {
			command: "npm test",
			exitCode: 2,
			output: "AssertionError: 1 !== 2\n",
		});
		expect(text).toContain("npm test");
		expect(text).toContain("Exit: 2");
		expect(text).toContain("AssertionError: 1 !== 2");
	});

	it("says when the verify command did not finish", () => {
		expect(verifyFailedPrompt(view("xx"), { command: "make", exitCode: null, output: "" })).toContain("did not finish");
	});

	it("announces completion with the progress", () => {
		expect(workCompleteMessage(view("xx-"))).toBe("boulder: the todo list is complete — 2 of 3 done, 1 cancelled.");
	});

	it("leaves unknown fields empty rather than leaking template syntax", () => {
		expect(fillTemplate("a {{b}} c", {})).toBe("a  c");
	});
});
