/**
 * The real `bin/boulder.js` from a fresh build (`npm run build`; `npm test`
 * builds first), run as a child process: the bin, the compiled CLI and the
 * exit codes work outside the test runner.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { PLAN, sandbox } from "./helpers.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(repoRoot, "bin", "boulder.js");

/** A stale build would test old code: refuse to run against one. */
function assertCliBuildFresh(): void {
	const walk = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
		);
	for (const source of walk(path.join(repoRoot, "src", "cli")).filter((file) => file.endsWith(".ts"))) {
		const built = path
			.join(repoRoot, "dist", path.relative(path.join(repoRoot, "src"), source))
			.replace(/\.ts$/, ".js");
		if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) {
			throw new Error(`${path.relative(repoRoot, built)} is missing or older than its source: run \`npm run build\``);
		}
	}
}

function runBin(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
	return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
		execFile(
			process.execPath,
			[bin, ...args],
			{ cwd, env: { PATH: process.env.PATH, ...env } },
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
				resolve({ code, stdout, stderr });
			},
		);
	});
}

describe("bin/boulder.js", () => {
	beforeAll(assertCliBuildFresh);

	it("starts a plan and reports its status as JSON, with exit code 0", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		const env = { ...box.env, NO_COLOR: undefined };
		const started = await runBin(["start", "PLAN.md"], box.worktree, env);
		expect(started.stderr).toBe("");
		expect(started.code).toBe(0);
		// Not a terminal: no colour codes even without NO_COLOR.
		expect(started.stdout).not.toContain("\u001b[");
		expect(started.stdout).toContain("Started Ship the CLI");
		const status = await runBin(["status", "--json"], box.worktree, env);
		expect(status.code).toBe(0);
		expect(JSON.parse(status.stdout).worktrees[0].works[0]).toMatchObject({ id: "ship-the-cli", status: "active" });
	});

	it("runs from bundles of ASCII alone, and still prints the marks they escape", async () => {
		for (const bundle of ["dist/cli/boulder-main.cjs", "dist/hook/claude-code-main.cjs"]) {
			const bytes = readFileSync(path.join(repoRoot, bundle));
			expect(
				bytes.findIndex((byte) => byte > 0x7f),
				bundle,
			).toBe(-1);
		}
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await runBin(["start", "PLAN.md"], box.worktree, box.env);
		const status = await runBin(["status"], box.worktree, box.env);
		expect(status.stdout).toContain("\u25cf Ship the CLI");
	});

	it("exits 2 for an unknown command and 1 for a missing plan", async () => {
		const box = await sandbox();
		const unknown = await runBin(["frobnicate"], box.worktree, box.env);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("unknown command 'frobnicate'");
		const missing = await runBin(["start", "NOPE.md"], box.worktree, box.env);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("no plan file at NOPE.md");
	});

	// The CLI is one bundle: a dependency that loads its parts at run time breaks only there.
	it.each(ADAPTERS.map((adapter) => adapter.name))("installs and uninstalls %s's default scope", async (name) => {
		const box = await sandbox();
		const env = { ...box.env, NO_COLOR: "1" };
		const installed = await runBin(["install", name], box.worktree, env);
		expect(installed.stderr).not.toContain("unexpected error");
		expect(installed.code, installed.stderr).toBe(0);
		const removed = await runBin(["uninstall", name], box.worktree, env);
		expect(removed.stderr).not.toContain("unexpected error");
		expect(removed.code, removed.stderr).toBe(0);
	});
});
