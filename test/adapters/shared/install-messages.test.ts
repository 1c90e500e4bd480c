/**
 * Every harness's installer speaks from one set of sentences; these pin what
 * each harness says differently and that the shared words read right.
 */
import { describe, expect, it } from "vitest";
import { INSTALL_TEXT as CLAUDE_CODE, install as claudeCode } from "../../../src/adapters/claude-code/install.js";
import { INSTALL_TEXT as CODEX, install as codex } from "../../../src/adapters/codex/dialect.js";
import { formNote, type HooksInstall } from "../../../src/adapters/command-hook/install.js";
import { INSTALL_TEXT as COPILOT, install as copilot } from "../../../src/adapters/copilot/dialect.js";
import { install as droid } from "../../../src/adapters/droid/dialect.js";
import { INSTALL_TEXT as GEMINI, install as gemini } from "../../../src/adapters/gemini/dialect.js";
import { INSTALL_TEXT as OPENCODE } from "../../../src/adapters/opencode/messages.js";
import { INSTALL_TEXT as PI } from "../../../src/adapters/pi/messages.js";
import { INSTALL_TEXT as QWEN, install as qwen } from "../../../src/adapters/qwen/dialect.js";
import { PORTABLE } from "../../../src/adapters/shared/hook-form.js";
import { commandHookDoctorText, hooksDoctorText } from "../../../src/adapters/shared/install-messages.js";

/** The first note after a portable install (`formNote`), with the user's link the install made (null: none). */
function portable(spec: HooksInstall, link: string | null = null): string {
	const options = { cwd: "/nowhere", env: { PATH: "" }, scope: "project" };
	return formNote(spec, { form: PORTABLE, link, root: "/b", file: "s.json", options });
}

function pinned(spec: HooksInstall, scope: string): string {
	const form = { node: "node", bundle: "hook.cjs", version: "1.0.0" };
	return formNote(spec, { form, link: null, root: "/b", file: "s.json", options: { cwd: "/", env: {}, scope } });
}

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
		expect(pinned(claudeCode, "local")).toContain("pinned to this machine (fine for local settings).");
		expect(pinned(qwen, "user")).toContain("pinned to this machine. If node");
		expect(pinned(codex, "user")).toContain("pinned to this machine. If node");
	});

	it("tell teammates what portable hooks do without boulder: a notice where the hooks print one", () => {
		const notice = "without it their hooks print one notice per session and do nothing else.";
		const silent = "without it their hooks do nothing.";
		expect(portable(claudeCode)).toContain(notice);
		expect(portable(codex)).toContain(notice);
		expect(portable(gemini)).toContain(silent);
		expect(portable(copilot)).toContain(silent);
		expect(portable(qwen)).toContain(silent);
		expect(portable(droid)).toContain(silent);
	});

	it("name the user's link only for the harnesses whose portable hooks try one", () => {
		expect(portable(gemini, "/l/hook.cjs")).toContain("else the one linked for you (/l/hook.cjs → /b), else");
		expect(portable(copilot)).toContain("else the one linked for you, else boulder-hook");
		expect(portable(claudeCode)).toContain("else boulder-claude-code-hook on the PATH");
		expect(portable({ ...codex, here: () => CODEX.here("boulder-hook on the PATH") })).toContain(
			"else boulder-hook on the PATH (a global install). Here they find boulder-hook on the PATH. Teammates",
		);
		expect(portable(codex)).toContain("Here they find neither yet");
		expect(portable(qwen)).not.toContain("linked");
		expect(portable(droid)).not.toContain("linked");
	});

	it("say in the doctor what portable hooks that find no boulder do: the link they tried, the notice they print", () => {
		expect(hooksDoctorText("Codex", "codex", { notice: true }).noneFound("h.json")).toBe(
			"the hooks in h.json find no installed boulder here (no devDependency, nothing on the PATH): they print a notice at session start and do nothing else",
		);
		expect(hooksDoctorText("Gemini CLI", "gemini", { link: true }).noneFound("s.json")).toBe(
			"the hooks in s.json find no installed boulder here (no devDependency, no link, nothing on the PATH): they do nothing",
		);
		expect(commandHookDoctorText("Factory Droid", "droid").notInstalled).toBe(
			"boulder's Factory Droid hooks are not in this project's or your user hooks",
		);
		expect(hooksDoctorText("Qwen Code", "qwen").installFix).toBe(
			"`boulder install qwen` adds them, if you use Qwen Code here",
		);
		expect(commandHookDoctorText("Factory Droid", "droid").installFix).toBe(
			"`boulder install droid`, if you use Factory Droid here",
		);
	});
});
