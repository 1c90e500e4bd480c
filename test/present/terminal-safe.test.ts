import { describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/present/terminal-safe.js";

describe("terminalSafe", () => {
	it("shows a window-title change and a screen clear as text instead of sending them", () => {
		expect(terminalSafe("plan \x1b]0;pwned\x07 done")).toBe("plan \\x1b]0;pwned\\x07 done");
		expect(terminalSafe("\x1b[2Jgone")).toBe("\\x1b[2Jgone");
	});

	it("keeps line breaks and tabs, and every printable character, accents and emoji included", () => {
		expect(terminalSafe("a\tb\nCafé Über 🚀")).toBe("a\tb\nCafé Über 🚀");
	});

	it("escapes carriage returns, backspaces, C1 controls and bidirectional overrides", () => {
		expect(terminalSafe("ok\rfake")).toBe("ok\\x0dfake");
		expect(terminalSafe("x\x08y\x9bz")).toBe("x\\x08y\\x9bz");
		expect(terminalSafe("abc\u202edcba")).toBe("abc\\u202edcba");
	});

	it("keeps boulder's own colour codes when asked, and nothing else that starts with ESC", () => {
		const coloured = "\x1b[32mcontinued\x1b[39m: \x1b[8mhidden\x1b[0m";
		expect(terminalSafe(coloured, { keepOwnColours: true })).toBe("\x1b[32mcontinued\x1b[39m: \\x1b[8mhidden\\x1b[0m");
		expect(terminalSafe(coloured)).toBe("\\x1b[32mcontinued\\x1b[39m: \\x1b[8mhidden\\x1b[0m");
	});

	it("leaves JSON output as it is: JSON.stringify already escapes control characters", () => {
		const json = JSON.stringify({ name: "\x1b]0;pwned\x07" });
		expect(terminalSafe(json)).toBe(json);
	});
});
