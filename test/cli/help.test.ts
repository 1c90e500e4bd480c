/**
 * What `--help` and the shell completion say, from the program itself: every
 * command has a summary, its options and 1–3 examples; `install --help` says
 * each harness's scopes once, without the `[--scope]` flag that does not
 * exist; completion scripts list every command; `TERM=dumb` gets no colour.
 */
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { main } from "../../src/cli/main.js";
import { sandbox } from "./helpers.js";

describe("every command's --help", () => {
	it.each(COMMANDS.map((entry) => entry.name))("%s has a summary, its options and 1–3 examples", async (name) => {
		const s = await sandbox();
		const ran = await s.run([name, "--help"]);
		expect(ran.code).toBe(0);
		expect(ran.stderr).toBe("");
		const lines = ran.stdout.split("\n");
		expect(lines[0]).toMatch(new RegExp(`^Usage: boulder ${name}\\b`));
		expect(lines[1]).toBe("");
		expect(lines[2]?.trim().length ?? 0).toBeGreaterThan(10);
		expect(ran.stdout).toContain("\nOptions:\n");
		expect(ran.stdout).toContain("-h, --help");
		const examples = ran.stdout.split("\nExamples:\n")[1]?.trimEnd().split("\n") ?? [];
		expect(examples.length).toBeGreaterThanOrEqual(1);
		expect(examples.length).toBeLessThanOrEqual(3);
		for (const example of examples)
			expect(example).toMatch(new RegExp(`^  (.*\\| )?boulder ${name}\\b|^  source <\\(boulder ${name}`));
	});
});

describe("install --help", () => {
	it("names each harness once with its scopes and default, and no --scope flag", async () => {
		const s = await sandbox();
		for (const action of ["install", "uninstall"]) {
			const text = (await s.run([action, "--help"])).stdout;
			expect(text).not.toContain("--scope");
			for (const adapter of ADAPTERS) {
				expect(text.split(`${adapter.title}:`).length - 1, adapter.title).toBe(1);
				expect(text).toMatch(new RegExp(`${adapter.name} +${adapter.title}: .*default --${adapter.defaultScope}`));
			}
			expect(text.split("\n").length).toBeLessThan(40);
		}
		expect((await s.run(["install"])).stdout).not.toContain("[--scope]");
	});
});

describe("boulder completion", () => {
	it.each(["bash", "zsh", "fish"])("%s lists every command and the harnesses", async (shell) => {
		const s = await sandbox();
		const ran = await s.run(["completion", shell]);
		expect(ran.code).toBe(0);
		for (const entry of COMMANDS) expect(ran.stdout).toMatch(new RegExp(`\\b${entry.name}\\b`));
		for (const adapter of ADAPTERS) expect(ran.stdout).toContain(adapter.name);
		expect(ran.stdout).toMatch(shell === "fish" ? /-l orchestrate\b/ : /--orchestrate\b/);
	});

	it("refuses a shell it does not know (exit 2)", async () => {
		const s = await sandbox();
		const ran = await s.run(["completion", "tcsh"]);
		expect(ran.code).toBe(2);
		expect(ran.stderr).toContain("expected one of bash, zsh, fish");
	});
});

describe("colour", () => {
	async function onTerminal(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
		const s = await sandbox();
		await s.write("PLAN.md", "# A plan\n\n- [x] one\n- [ ] two\n");
		let out = "";
		let err = "";
		const terminal = (append: (chunk: string) => void) => ({ isTTY: true, write: (chunk: string) => append(chunk) });
		await main(args, {
			stdout: terminal((chunk) => (out += chunk)),
			stderr: terminal((chunk) => (err += chunk)),
			env: { ...s.env, NO_COLOR: undefined, ...env },
			cwd: s.worktree,
			clock: s.clock,
		});
		return out + err;
	}

	it("a terminal gets colour, but not with TERM=dumb or NO_COLOR", async () => {
		expect(await onTerminal({ TERM: "xterm-256color" }, ["start", "PLAN.md"])).toContain("\u001b[");
		expect(await onTerminal({ TERM: "dumb" }, ["start", "PLAN.md"])).not.toContain("\u001b[");
		expect(await onTerminal({ TERM: "dumb" }, ["start", "NOPE.md"])).not.toContain("\u001b[");
		expect(await onTerminal({ TERM: "xterm", NO_COLOR: "1" }, ["start", "PLAN.md"])).not.toContain("\u001b[");
	});
});

describe("errors go to stderr, never stdout", () => {
	it.each([
		[["start", "NOPE.md"]],
		[["pause", "nope"]],
		[["resume", "nope"]],
		[["abandon", "nope"]],
		[["abandon"]],
		[["stop", "--session", "nope"]],
		[["go", "--harness", "bogus"]],
		[["why", "--session", "nope"]],
		[["why", "-n", "0"]],
		[["log", "-n", "zero"]],
		[["ui", "--port", "99999"]],
		[["install", "bogus"]],
		[["uninstall", "claude-code", "--local", "--user"]],
		[["hook", "opencode", "Stop"]],
		[["completion", "tcsh"]],
		[["frobnicate"]],
	])("boulder %j", async (args) => {
		const s = await sandbox();
		await s.write("PLAN.md", "# A plan\n\n- [ ] one\n");
		await s.run(["start", "PLAN.md"]);
		const ran = await s.run(args);
		expect(ran.code).toBeGreaterThan(0);
		expect(ran.stdout).toBe("");
		expect(ran.stderr).not.toBe("");
	});
});
