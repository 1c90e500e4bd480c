import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectsQuestion, EXPLICIT_ASK, mayAskExplicitly } from "../../src/core/question-detect.js";

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

/** Every phrase `pattern` (literal words and groups of alternatives, as `EXPLICIT_ASK` is) matches. */
function phrasesOf(source: string): string[] {
	const alternatives = (text: string): string[] => {
		const parts: string[] = [];
		let depth = 0;
		let start = 0;
		for (let i = 0; i < text.length; i++) {
			if (text[i] === "(") depth++;
			else if (text[i] === ")") depth--;
			else if (text[i] === "|" && depth === 0) {
				parts.push(text.slice(start, i));
				start = i + 1;
			}
		}
		return [...parts, text.slice(start)];
	};
	const expand = (text: string): string[] => {
		const open = text.indexOf("(");
		if (open === -1) return [text];
		let depth = 0;
		let close = open;
		for (; close < text.length; close++) {
			if (text[close] === "(") depth++;
			else if (text[close] === ")" && --depth === 0) break;
		}
		const inner = alternatives(text.slice(open + 1, close)).flatMap(expand);
		return inner.flatMap((middle) => expand(text.slice(close + 1)).map((rest) => text.slice(0, open) + middle + rest));
	};
	const body = source.replace(/^\\b\(/, "").replace(/\)\\b$/, "");
	return alternatives(body).flatMap(expand);
}

describe("the cheap check before the explicit-ask pattern", () => {
	const phrases = phrasesOf(EXPLICIT_ASK.source);

	it("reads every phrase of the pattern out of it", () => {
		expect(phrases).toContain("let me know");
		expect(phrases).toContain("please sign in");
		expect(phrases).toContain("need you to");
		expect(phrases.every((phrase) => EXPLICIT_ASK.test(phrase))).toBe(true);
	});

	it("never says no where the pattern matches", () => {
		const cased = fc
			.tuple(fc.constantFrom(...phrases), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
			.map(([phrase, upper]) => [...phrase].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""));
		const text = fc
			.array(fc.oneof(cased, fc.string(), fc.constantFrom(" ", "\n", ".", "?", "İ", "ß", "K")), { maxLength: 6 })
			.map((parts) => parts.join(""));
		fc.assert(
			fc.property(text, (sample) => !EXPLICIT_ASK.test(sample) || mayAskExplicitly(sample)),
			{ numRuns: 5000 },
		);
	});

	it("says no to a closing paragraph without any of the pattern's words", () => {
		expect(mayAskExplicitly("Finished item two; moving on to the parser now.")).toBe(false);
	});
});
