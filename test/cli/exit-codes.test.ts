/** Exit codes scripts can rely on: 0 ok, 1 something is wrong, 2 the command line is wrong. */
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers.js";

describe("exit codes", () => {
	it("0 for a command that worked, --help and --version", async () => {
		const box = await sandbox();
		expect((await box.run(["status"])).code).toBe(0);
		const help = await box.run(["--help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain("Usage: boulder");
		const helpFor = await box.run(["help", "status"]);
		expect(helpFor.code).toBe(0);
		expect(helpFor.stdout).toContain("Usage: boulder status");
		const version = await box.run(["--version"]);
		expect(version.code).toBe(0);
		expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
	});

	it("1 when something is wrong", async () => {
		const box = await sandbox();
		const ran = await box.run(["start", "missing.md"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toMatch(/^boulder: /);
	});

	it("2 for an unknown command, an unknown option, a missing argument or a bad number", async () => {
		const box = await sandbox();
		const unknown = await box.run(["stauts"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("unknown command 'stauts'");
		expect(unknown.stderr).toContain("(Did you mean status?)");
		expect((await box.run(["status", "--everything"])).code).toBe(2);
		expect((await box.run(["start"])).code).toBe(2);
		const number = await box.run(["why", "-n", "many"]);
		expect(number.code).toBe(2);
		expect(number.stderr).toContain('expected a whole number of 1 or more, got "many"');
		expect((await box.run(["pause", "a", "b"])).code).toBe(2);
		expect((await box.run([])).code).toBe(2);
	});

	it("never prints colour codes when NO_COLOR is set, even to a terminal", async () => {
		const box = await sandbox();
		const { main } = await import("../../src/cli/main.js");
		let out = "";
		let err = "";
		await main(["status"], {
			stdout: { write: (chunk: string) => (out += chunk), isTTY: true },
			stderr: { write: (chunk: string) => (err += chunk), isTTY: true },
			env: box.env,
			cwd: box.worktree,
		});
		await main(["nope"], {
			stdout: { write: (chunk: string) => (out += chunk), isTTY: true },
			stderr: { write: (chunk: string) => (err += chunk), isTTY: true },
			env: box.env,
			cwd: box.worktree,
		});
		expect(out + err).not.toContain("\u001b[");
		let coloured = "";
		await main(["status"], {
			stdout: { write: (chunk: string) => (coloured += chunk), isTTY: true },
			stderr: { write: () => true },
			env: { ...box.env, NO_COLOR: undefined },
			cwd: box.worktree,
		});
		expect(coloured).toContain("\u001b[");
	});
});
