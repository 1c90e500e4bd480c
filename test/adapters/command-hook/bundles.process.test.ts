/**
 * The hook bundles as built (`npm run build`): one per command-hook harness,
 * so a harness's hook loads no other harness's code (Claude Code's Stop hook
 * does not compile Copilot's session-database reader), and the one loader
 * picks the harness's bundle by its first argument.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/adapters/registry.js";

const HOOK = fileURLToPath(new URL("../../../dist/hook/", import.meta.url));
const HARNESSES = ADAPTERS.filter((adapter) => adapter.hook !== undefined).map((adapter) => adapter.name);
const home = mkdtempSync(path.join(os.tmpdir(), "boulder-bundles-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function bundle(harness: string): string {
	const file = path.join(HOOK, `${harness}-main.cjs`);
	if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
	return readFileSync(file, "latin1");
}

describe("the hook bundles", () => {
	it("hold one harness each: Copilot's session-database reader is in Copilot's alone", () => {
		const marker = "is a WITHOUT ROWID table";
		expect(bundle("copilot")).toContain(marker);
		for (const harness of HARNESSES.filter((name) => name !== "copilot")) expect(bundle(harness)).not.toContain(marker);
		expect(bundle("claude-code")).not.toContain("QWEN_CODE_STOP_HOOK_BLOCK_CAP");
	});

	it("are chosen by the harness named first, Claude Code's when none is", () => {
		const run = (args: string[]) =>
			spawnSync(process.execPath, [path.join(HOOK, "boulder-hook.cjs"), ...args], {
				input: "",
				env: { PATH: process.env.PATH, HOME: home, BOULDER_STATE_HOME: path.join(home, "state") },
				cwd: home,
				encoding: "utf8",
			});
		// An event of another harness is unknown to the bundle that runs: what it says names its harness.
		expect(run(["codex", "agentStop"]).stderr).toContain("codex agentStop hook");
		expect(run(["copilot", "Stop"]).stderr).toContain("copilot Stop hook");
		expect(run(["Stop"]).stderr).toContain("claude-code Stop hook");
		for (const args of [["codex", "agentStop"], ["Stop"]]) expect(run(args).status).toBe(0);
	});
});
