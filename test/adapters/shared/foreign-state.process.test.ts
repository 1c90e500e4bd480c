/**
 * A cloned repository that commits `.boulder/works.json` (an active work,
 * `"worktree": "."`, a ticked plan with a verify command) and is opened by a
 * user who has boulder installed: the real built hook program, fed the
 * harness's Stop input on stdin, must neither run the command nor nudge.
 * Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { committedWorks } from "../../support/committed-works.js";

const HOOK = fileURLToPath(new URL("../../../dist/hook/boulder-hook.cjs", import.meta.url));
const SESSION = "0b7c3f1e-9d2a-4c5b-8e6f-1a2b3c4d5e6f";

beforeAll(() => {
	if (!existsSync(HOOK)) throw new Error("run `npm run build` first");
});

async function hostileClone() {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-foreign-"));
	const repo = path.join(root, "repo");
	await mkdir(path.join(repo, ".git"), { recursive: true });
	await mkdir(path.join(repo, ".boulder"), { recursive: true });
	const marker = path.join(root, "pwned");
	const works = committedWorks({ verify: [`touch ${marker}`] });
	await writeFile(path.join(repo, ".boulder", "works.json"), JSON.stringify(works));
	await writeFile(
		path.join(repo, "plan.md"),
		`---\nverify: ["touch ${marker}"]\n---\n# Build\n\n- [x] one\n- [x] two\n`,
	);
	const transcript = path.join(root, `${SESSION}.jsonl`);
	await writeFile(
		transcript,
		`${[
			{ type: "user", message: { role: "user", content: "hello" }, uuid: "u1", timestamp: new Date().toISOString() },
			{
				type: "assistant",
				message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "Hi." }], stop_reason: "end_turn" },
				uuid: "a1",
				timestamp: new Date().toISOString(),
			},
		]
			.map((line) => JSON.stringify(line))
			.join("\n")}\n`,
	);
	const env = {
		HOME: path.join(root, "home"),
		XDG_CONFIG_HOME: path.join(root, "config"),
		BOULDER_STATE_HOME: path.join(root, "state"),
		PATH: process.env.PATH,
	};
	return { root, repo, marker, transcript, env };
}

function hook(harness: string, event: string, input: unknown, cwd: string, env: NodeJS.ProcessEnv) {
	const child = spawnSync(process.execPath, [HOOK, harness, event], {
		input: JSON.stringify(input),
		cwd,
		env,
		encoding: "utf8",
	});
	return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

type Clone = Awaited<ReturnType<typeof hostileClone>>;

/** A Claude Code turn in the clone: the prompt, then the Stop, whose answer it returns. */
function claudeCodeTurn(clone: Clone, transcriptPath: string, prompt: string) {
	const input = {
		session_id: SESSION,
		transcript_path: transcriptPath,
		cwd: clone.repo,
		hook_event_name: "Stop",
		stop_hook_active: false,
	};
	hook(
		"claude-code",
		"UserPromptSubmit",
		{ ...input, hook_event_name: "UserPromptSubmit", prompt },
		clone.repo,
		clone.env,
	);
	return hook("claude-code", "Stop", input, clone.repo, clone.env);
}

describe("the hook in a cloned repository with committed boulder state", () => {
	for (const transcript of ["real", "/dev/null"] as const) {
		it(`Claude Code: runs no verify command and sends no nudge on the first Stop (transcript ${transcript})`, async () => {
			const clone = await hostileClone();

			const stop = claudeCodeTurn(clone, transcript === "real" ? clone.transcript : "/dev/null", "hello");

			expect(stop.status).toBe(0);
			expect(stop.stdout).not.toContain('"decision":"block"');
			expect(existsSync(clone.marker)).toBe(false);
			const log = await readFile(path.join(clone.repo, ".boulder", "decisions.jsonl"), "utf8");
			expect(log).not.toContain('"kind":"verify"');
		});
	}

	it("Codex: runs no verify command and sends no nudge on the first Stop", async () => {
		const clone = await hostileClone();
		const base = { session_id: SESSION, turn_id: "t1", cwd: clone.repo, transcript_path: null };
		hook(
			"codex",
			"UserPromptSubmit",
			{ ...base, hook_event_name: "UserPromptSubmit", prompt: "hello" },
			clone.repo,
			clone.env,
		);

		const stop = hook(
			"codex",
			"Stop",
			{ ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Hi." },
			clone.repo,
			clone.env,
		);

		expect(stop.status).toBe(0);
		expect(stop.stdout).not.toContain('"decision":"block"');
		expect(existsSync(clone.marker)).toBe(false);
		const log = await readFile(path.join(clone.repo, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).toContain("foreign state");
	});

	it("runs the verify command once the user ran `boulder start` on the plan", async () => {
		const clone = await hostileClone();
		const bin = fileURLToPath(new URL("../../../dist/cli/bin.js", import.meta.url));
		const started = spawnSync(process.execPath, [bin, "start", "plan.md"], {
			cwd: clone.repo,
			env: clone.env,
			encoding: "utf8",
		});
		expect(started.status, started.stderr).toBe(0);

		const stop = claudeCodeTurn(clone, clone.transcript, "go");

		expect(stop.status).toBe(0);
		expect(existsSync(clone.marker)).toBe(true);
	});
});
