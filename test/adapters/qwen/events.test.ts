import { describe, expect, it } from "vitest";
import { promptProvenance } from "../../../src/adapters/qwen/events.js";
import { CONTINUATION_PROMPT } from "../../../src/core/prompts/continuation.prompt.js";
import { VERIFY_FAILED_PROMPT } from "../../../src/core/prompts/verify-failed.prompt.js";

describe("promptProvenance (Qwen Code's UserPromptSubmit)", () => {
	it("counts only a prompt that carries submitted_prompt as the user's", () => {
		expect(promptProvenance({ prompt: "fix it", submitted_prompt: "fix it" })).toBe("user");
	});

	it("starts no turn for a tool result, which arrives with an empty prompt", () => {
		expect(promptProvenance({ prompt: "" })).toBeNull();
		expect(promptProvenance({})).toBeNull();
	});

	it("starts no turn for boulder's own nudges (a list's, a failed verify's): their delivery started it", () => {
		for (const text of [CONTINUATION_PROMPT, VERIFY_FAILED_PROMPT]) {
			expect(promptProvenance({ prompt: text })).toBeNull();
		}
	});

	it("makes another hook's continuation a system turn, which never resets the budgets", () => {
		expect(promptProvenance({ prompt: "Another hook says: keep going" })).toBe("system");
	});

	it("knows boulder's nudge by its first line, even after leading whitespace, and not a prompt that quotes it later", () => {
		expect(promptProvenance({ prompt: `\n  ${CONTINUATION_PROMPT}` })).toBeNull();
		expect(promptProvenance({ prompt: `Why did I get this? ${CONTINUATION_PROMPT}` })).toBe("system");
	});
});
