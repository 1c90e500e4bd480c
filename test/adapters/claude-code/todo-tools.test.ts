import { describe, expect, it } from "vitest";
import { settingsTurnOn, turnsOn, withTodoTools } from "../../../src/adapters/claude-code/install.js";

const FILE = "/p/.claude/settings.local.json";

describe("turning Claude Code's todo tools on in a settings file", () => {
	it('writes env.CLAUDE_CODE_ENABLE_TODO_TOOLS = "1" into a new, empty or bare file', () => {
		for (const text of ["", "{}\n"]) {
			const edit = withTodoTools(text, FILE);
			expect(edit.changed).toBe(true);
			expect(JSON.parse(edit.text)).toEqual({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } });
		}
	});

	it("adds the variable beside the user's own env and keeps every other byte", () => {
		const text = '{\n  "model": "opus",\n  "env": {\n    "FOO": "bar"\n  }\n}\n';
		const edit = withTodoTools(text, FILE);
		expect(JSON.parse(edit.text)).toEqual({ model: "opus", env: { FOO: "bar", CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } });
		expect(edit.text.startsWith('{\n  "model": "opus",\n  "env": {\n    "FOO": "bar",\n')).toBe(true);
	});

	it('turns a value that keeps them off into "1", and leaves one that turns them on as it is (same bytes)', () => {
		const off = withTodoTools('{"env": {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "0"}}', FILE);
		expect(JSON.parse(off.text)).toEqual({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } });
		const on = '{"env": {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "true"}}';
		expect(withTodoTools(on, FILE)).toEqual({ text: on, changed: false });
	});

	it("refuses an env that is not an object, naming the file", () => {
		expect(() => withTodoTools('{"env": ["x"]}', FILE)).toThrow(
			/"env" in \/p\/\.claude\/settings\.local\.json is not an object/,
		);
	});

	it("reads the variable as Claude Code reads a boolean", () => {
		expect(turnsOn("1")).toBe(true);
		expect(turnsOn("TRUE")).toBe(true);
		expect(turnsOn("0")).toBe(false);
		expect(turnsOn(undefined)).toBe(false);
		expect(settingsTurnOn({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } })).toBe(true);
		expect(settingsTurnOn({ env: {} })).toBe(false);
		expect(settingsTurnOn(null)).toBe(false);
	});
});
