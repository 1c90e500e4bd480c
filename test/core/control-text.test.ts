import { describe, expect, it } from "vitest";
import { escapeControls, harnessSafe } from "../../src/core/control-text.js";

describe("text handed to a harness", () => {
	it("has every control character of every string escaped, line breaks and tabs kept, keys and other values untouched", () => {
		const value = {
			decision: "block",
			reason: "Next: \u001b]52;c;aGk=\u0007\n\tthen \u001b[2J",
			nested: { list: ["\u009b1m", 3, null, true] },
		};
		expect(harnessSafe(value)).toEqual({
			decision: "block",
			reason: "Next: \\x1b]52;c;aGk=\\x07\n\tthen \\x1b[2J",
			nested: { list: ["\\x9b1m", 3, null, true] },
		});
		expect(value.reason).toContain("\u001b");
	});

	it("is the same object when nothing needed escaping, and a string is escaped as the CLI escapes it", () => {
		const clean = { a: "plain", b: ["x"] };
		expect(harnessSafe(clean)).toBe(clean);
		expect(harnessSafe("a\u202eb")).toBe(escapeControls("a\u202eb"));
		expect(harnessSafe("a\u202eb")).toBe("a\\u202eb");
	});
});
