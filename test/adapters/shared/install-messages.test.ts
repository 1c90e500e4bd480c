/**
 * Every harness's installer speaks from one set of sentences; these pin what
 * each harness says differently and that the shared words read right.
 */
import { describe, expect, it } from "vitest";
import { INSTALL_TEXT as CLAUDE_CODE } from "../../../src/adapters/claude-code/install.js";
import { INSTALL_TEXT as CODEX } from "../../../src/adapters/codex/dialect.js";
import { INSTALL_TEXT as COPILOT } from "../../../src/adapters/copilot/dialect.js";
import { INSTALL_TEXT as GEMINI } from "../../../src/adapters/gemini/dialect.js";
import { INSTALL_TEXT as OPENCODE } from "../../../src/adapters/opencode/messages.js";
import { INSTALL_TEXT as PI } from "../../../src/adapters/pi/messages.js";
import { INSTALL_TEXT as QWEN } from "../../../src/adapters/qwen/dialect.js";

describe("the installers' words", () => {
	it("name each harness in the report lines", () => {
		expect(CLAUDE_CODE.installed("s.json", 6)).toBe("Installed boulder's Claude Code hooks (6 entries) in s.json.");
		expect(QWEN.unchanged("s.json")).toBe(
			"boulder's Qwen Code hooks are already installed in s.json; nothing changed.",
		);
		expect(PI.installed("s.json")).toBe("Installed boulder's pi extension in s.json.");
		expect(OPENCODE.notInstalled("o.json")).toBe("boulder's OpenCode plugin is not in o.json; nothing changed.");
	});

	it("count one removed entry in the singular", () => {
		expect(CODEX.removed("h.json", 1)).toBe("Removed boulder's Codex hooks (1 entry) from h.json.");
		expect(GEMINI.removed("s.json", 4)).toBe("Removed boulder's Gemini CLI hooks (4 entries) from s.json.");
		expect(PI.removed("s.json", 1)).toBe("Removed boulder's pi extension (1 entry) from s.json.");
	});

	it("say that uninstalling removed Copilot's file, which holds boulder's hooks alone", () => {
		expect(COPILOT.removed("boulder.json", 3)).toBe(
			"Removed boulder's Copilot CLI hooks (3 entries): boulder.json is gone.",
		);
	});

	it("name what each harness expects the file to hold, and how it parses it", () => {
		expect(CODEX.notObject("h.json", "a list")).toContain("where Codex expects a hooks object");
		expect(GEMINI.notObject("s.json", "a list")).toContain("where Gemini CLI expects a settings object");
		expect(OPENCODE.notObject("o.json", "null")).toContain("where OpenCode expects a config object");
		expect(OPENCODE.notJson("o.json", "x")).toContain("is not valid JSON or JSONC (x)");
		expect(PI.notJson("s.json", "x")).toContain("is not valid JSON (x)");
	});

	it("name the scope a pinned install is fine for only where the harness says it", () => {
		expect(CLAUDE_CODE.pinned("node", "hook.cjs", "local")).toContain(
			"pinned to this machine (fine for local settings).",
		);
		expect(QWEN.pinned("node", "hook.cjs")).toContain("pinned to this machine. If node");
	});

	it("tell teammates what portable hooks do without boulder: a notice where the hooks print one", () => {
		const notice = "without it their hooks print one notice per session and do nothing else.";
		const silent = "without it their hooks do nothing.";
		expect(CLAUDE_CODE.portable(null, "/b")).toContain(notice);
		expect(CODEX.portable(null)).toContain(notice);
		expect(GEMINI.portable(null, "/b")).toContain(silent);
		expect(COPILOT.portable(null, "/b")).toContain(silent);
		expect(QWEN.portable).toContain(silent);
	});

	it("name the user's link only for the harnesses whose portable hooks try one", () => {
		expect(GEMINI.portable("/l/hook.cjs", "/b")).toContain("else the one linked for you (/l/hook.cjs → /b), else");
		expect(COPILOT.portable(null, "/b")).toContain("else the one linked for you, else boulder-hook");
		expect(CLAUDE_CODE.portable(null, "/b")).toContain("else boulder-claude-code-hook on the PATH");
		expect(CODEX.portable("boulder-hook on the PATH")).toContain(
			"else boulder-hook on the PATH (a global install). Here they find boulder-hook on the PATH. Teammates",
		);
		expect(QWEN.portable).not.toContain("linked");
	});
});
