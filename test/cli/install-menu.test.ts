import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { sandbox } from "./helpers.js";

/** A folder on the PATH holding stand-ins for some harnesses' commands. */
async function pathWith(root: string, programs: string[]): Promise<string> {
	const bin = path.join(root, "bin");
	await mkdir(bin, { recursive: true });
	for (const program of programs) {
		await writeFile(path.join(bin, program), "#!/bin/sh\nexit 0\n");
		await chmod(path.join(bin, program), 0o755);
	}
	await writeFile(path.join(bin, "claude"), "not executable\n");
	return bin;
}

describe("boulder install with no harness named", () => {
	it("lists every harness, says which this machine has on its PATH, and the command for each found", async () => {
		const s = await sandbox();
		const bin = await pathWith(s.root, ["codex", "gemini"]);
		s.env.PATH = bin;
		const ran = await s.run(["install"]);
		expect(ran.code).toBe(2);
		const lines = ran.stdout.split("\n");
		for (const adapter of ADAPTERS)
			expect(lines.some((line) => line.trimStart().startsWith(`${adapter.name} `))).toBe(true);
		expect(lines.find((line) => line.includes("codex "))).toContain(`found at ${path.join(bin, "codex")}`);
		// A file that is not executable is not the harness, as for the shell.
		expect(lines.find((line) => line.includes("claude-code "))).toContain("`claude` not on the PATH");
		expect(ran.stdout).toMatch(/On this machine: boulder install codex, boulder install gemini$/m);
		expect(ran.stderr).toBe("");
	});

	it("lists them for uninstall too, with nothing to suggest, and installs nothing either way", async () => {
		const s = await sandbox();
		s.env.PATH = await pathWith(s.root, ["opencode"]);
		const ran = await s.run(["uninstall"]);
		expect(ran.code).toBe(2);
		expect(ran.stdout).toContain("boulder uninstall <harness>");
		expect(ran.stdout).not.toContain("On this machine");
		const doctor = await s.run(["doctor"]);
		expect(doctor.stdout).not.toMatch(/hooks are in|plugin is in/);
	});
});

describe("boulder install's own flags of a harness", () => {
	it("passes --todo-tools to Claude Code, and refuses it for a harness that has no such option", async () => {
		const s = await sandbox();
		const ran = await s.run(["install", "claude-code", "--local", "--todo-tools"]);
		expect(ran.stderr).toBe("");
		expect(ran.code).toBe(0);
		expect(ran.stdout).toMatch(/Set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the env of .*settings\.local\.json/);
		const settings = JSON.parse(await readFile(path.join(s.worktree, ".claude", "settings.local.json"), "utf8"));
		expect(settings.env).toEqual({ CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" });

		const other = await s.run(["install", "codex", "--todo-tools"]);
		expect(other.code).toBe(2);
		expect(other.stderr).toContain("codex has no --todo-tools option");
	});
});
