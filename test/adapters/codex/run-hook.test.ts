import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dialect } from "../../../src/adapters/codex/dialect.js";
import { runDialect } from "../../../src/adapters/command-hook/runtime.js";

async function run(event: string, input: string) {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-run-"));
	const project = path.join(root, "project");
	await mkdir(path.join(project, ".git"), { recursive: true });
	let stdout = "";
	let stderr = "";
	await runDialect(
		[event],
		{
			stdin: [input],
			stdout: { write: (chunk: string) => (stdout += chunk) },
			stderr: { write: (chunk: string) => (stderr += chunk) },
			env: { HOME: path.join(root, "home"), XDG_STATE_HOME: path.join(root, "state") },
			cwd: project,
		},
		dialect,
	);
	const log = await readFile(path.join(project, ".boulder", "decisions.jsonl"), "utf8").catch(() => "");
	return { stdout, stderr, log };
}

describe("the Codex hook on bad input", () => {
	it("lets the agent stop and says what was wrong with the input, and where", async () => {
		const { stdout, stderr, log } = await run("Stop", "{ not json");
		expect(stdout).toBe("");
		expect(`${stderr}${log}`).toMatch(/codex Stop hook: Stop: the hook input is not JSON/);
	});

	it("does nothing for an event it was not registered for, and says so", async () => {
		const { stdout, stderr, log } = await run("PreModelRequest", JSON.stringify({ session_id: "s1" }));
		expect(stdout).toBe("");
		expect(`${stderr}${log}`).toMatch(/unknown hook event "PreModelRequest"/);
	});

	it("will not guess whose state an input without a session is", async () => {
		const { stdout, stderr, log } = await run("Stop", JSON.stringify({ hook_event_name: "Stop" }));
		expect(stdout).toBe("");
		expect(`${stderr}${log}`).toMatch(/no session_id/);
	});
});
