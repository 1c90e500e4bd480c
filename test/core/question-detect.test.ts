import { describe, expect, it } from "vitest";
import { detectsQuestion } from "../../src/core/question-detect.js";

describe("question detection (conservative)", () => {
	it.each([
		"I can use Postgres or SQLite. Which would you prefer?",
		"The migration is ready.\n\nShould I also drop the old table?",
		"Two options:\n1. Keep the API\n2. Break it\n\nLet me know which one you want.",
		"Done with the schema. Please confirm the column names before I go on.",
		"Do you want me to push the branch? **",
		"Please run `docker compose logs app` and send me the output, so I can see why it crashes.",
		"Please paste the API key and I'll finish the integration.",
		"I need you to approve the migration before I run it.",
	])("sees a question to the user in %j", (text) => {
		expect(detectsQuestion(text)).toBe(true);
	});

	it.each([
		"We should implement the parser next. Done with task 1.",
		"Why did the test fail? Because the fixture was stale. Fixed it.",
		"Shall include the config in the next step.",
		"All tests pass.",
		"```\nshould I? yes\n```\nFinished the refactor.",
		"",
		"Is the cache warm? I checked: yes.\n\nMoving on to task 3.",
	])("sees no question in %j", (text) => {
		expect(detectsQuestion(text)).toBe(false);
	});

	it("only reads the closing paragraph", () => {
		expect(detectsQuestion("Should I use tabs?\n\nI used tabs, as the repo does. Continuing.")).toBe(false);
	});
});
