import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runDialect } from "../../../src/adapters/command-hook/runtime.js";
import { dialect } from "../../../src/adapters/gemini/dialect.js";
import { header, jsonl, prompt, reply, SESSION, writeTodos } from "./helpers.js";

let worktree: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
	worktree = await mkdtemp(path.join(os.tmpdir(), "boulder-gemini-run-hook-"));
	await mkdir(path.join(worktree, ".git"));
	env = {
		HOME: path.join(worktree, "home"),
		XDG_CONFIG_HOME: path.join(worktree, "config"),
		BOULDER_STATE_HOME: path.join(worktree, "state"),
	};
});

async function run(event: string, input: unknown, cwd = worktree) {
	const out = { stdout: "", stderr: "" };
	await runDialect(
		[event],
		{
			stdin: [Buffer.from(typeof input === "string" ? input : JSON.stringify(input))],
			stdout: { write: (chunk: string) => (out.stdout += chunk) },
			stderr: { write: (chunk: string) => (out.stderr += chunk) },
			env,
			cwd,
		},
		dialect,
	);
	return out;
}

function input(event: string, fields: Record<string, unknown> = {}) {
	return {
		session_id: SESSION,
		transcript_path: path.join(worktree, "session.jsonl"),
		cwd: worktree,
		hook_event_name: event,
		timestamp: "2026-12-01T12:00:00.000Z",
		...fields,
	};
}

describe("the Gemini CLI hook, end to end in one process", () => {
	it("nudges through the file store with Gemini CLI's deny", async () => {
		await run("BeforeAgent", input("BeforeAgent", { prompt: "Go." }));
		const todos = [
			{ description: "Item A", status: "in_progress" },
			{ description: "Item B", status: "pending" },
		];
		await run("AfterTool", input("AfterTool", { tool_name: "write_todos", tool_input: { todos } }));
		await writeFile(
			path.join(worktree, "session.jsonl"),
			jsonl([header(), prompt("Go."), ...writeTodos(["in_progress", "pending"]), reply("Started.")]),
		);
		const out = await run("AfterAgent", input("AfterAgent", { prompt: "Go.", prompt_response: "Started." }));
		expect(JSON.parse(out.stdout)).toEqual({ decision: "deny", reason: expect.stringContaining("Item A") });
		expect(await readFile(path.join(worktree, ".boulder", "decisions.jsonl"), "utf8")).toContain('"gemini"');
	});

	it("lets the agent stop on input that is not JSON, saying what and where, and prints nothing", async () => {
		const out = await run("AfterAgent", "{not json");
		expect(out.stdout).toBe("");
		expect(out.stderr).toMatch(/gemini AfterAgent hook: AfterAgent: the hook input is not JSON/);
	});

	it("refuses an input registered for another event", async () => {
		const out = await run("AfterAgent", input("BeforeAgent", { prompt: "Go." }));
		expect(out.stdout).toBe("");
		expect(out.stderr).toMatch(/registered for AfterAgent but the input says "BeforeAgent"/);
	});

	it("keeps the session's state in GEMINI_PROJECT_DIR when the agent has cd'd elsewhere", async () => {
		// A nested repository: without GEMINI_PROJECT_DIR its folder would take the state.
		const elsewhere = path.join(worktree, "sub");
		await mkdir(path.join(elsewhere, ".git"), { recursive: true });
		env.GEMINI_PROJECT_DIR = worktree;
		await run("BeforeAgent", { ...input("BeforeAgent", { prompt: "Go." }), cwd: elsewhere }, elsewhere);
		expect(await readFile(path.join(worktree, ".boulder", "decisions.jsonl"), "utf8")).toContain("user-turn");
		expect(existsSync(path.join(elsewhere, ".boulder"))).toBe(false);
	});
});
