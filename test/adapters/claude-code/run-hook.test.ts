import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../../src/adapters/claude-code/dialect.js";
import { Config } from "../../../src/core/config.js";
import { BoulderError } from "../../../src/core/errors.js";
import { Engine } from "../../../src/engine/engine.js";
import { FileStore } from "../../../src/state/file-store.js";
import { assistantLines, promptLine, SESSION, tempDir, text, writeTranscript } from "./helpers.js";

let worktree: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
	worktree = await tempDir("boulder-run-hook-");
	await mkdir(path.join(worktree, ".git"));
	env = {
		HOME: path.join(worktree, "home"),
		XDG_CONFIG_HOME: path.join(worktree, "config"),
		BOULDER_STATE_HOME: path.join(worktree, "state"),
	};
	await writeTranscript(worktree, [promptLine("Go."), ...assistantLines("msg_a", [text("Done.")])]);
});

interface Ran {
	stdout: string;
	stderr: string;
	code: number;
}

async function run(event: string | undefined, input: unknown, extra: Parameters<typeof runClaudeCodeHook>[2] = {}) {
	const out: Ran = { stdout: "", stderr: "", code: -1 };
	const text = typeof input === "string" ? input : JSON.stringify(input);
	out.code = await runClaudeCodeHook(
		event === undefined ? [] : [event],
		{
			stdin: [Buffer.from(text)],
			stdout: { write: (chunk: string) => (out.stdout += chunk) },
			stderr: { write: (chunk: string) => (out.stderr += chunk) },
			env,
			cwd: worktree,
		},
		extra,
	);
	return out;
}

function input(event: string, fields: Record<string, unknown> = {}) {
	return {
		session_id: SESSION,
		transcript_path: path.join(worktree, `${SESSION}.jsonl`),
		cwd: worktree,
		hook_event_name: event,
		...fields,
	};
}

async function session(open: number, total: number): Promise<void> {
	await run("UserPromptSubmit", input("UserPromptSubmit", { prompt: "Go." }));
	const todos = Array.from({ length: total }, (_, index) => ({
		content: `Item ${index}`,
		status: index < total - open ? "completed" : "pending",
		activeForm: "x",
	}));
	await run("PostToolUse", input("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } }));
}

async function logLines(): Promise<Record<string, unknown>[]> {
	const text = await readFile(path.join(worktree, ".boulder", "decisions.jsonl"), "utf8").catch(() => "");
	return text
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the hook in-process", () => {
	it("prints the block for an open list and nothing else", async () => {
		await session(2, 3);

		const out = await run("Stop", input("Stop", { last_assistant_message: "Done." }));

		expect(JSON.parse(out.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining("1 of 3 done") });
		expect(out.stderr).toBe("");
	});

	it("uses CLAUDE_PROJECT_DIR over the input's cwd, so an agent that cd's keeps its state", async () => {
		const sub = path.join(worktree, "packages", "deep");
		await mkdir(sub, { recursive: true });
		env.CLAUDE_PROJECT_DIR = worktree;
		await session(1, 2);

		const out = await run("Stop", input("Stop", { cwd: sub }));

		expect(out.stdout).toContain('"decision":"block"');
		expect(existsSync(path.join(sub, ".boulder"))).toBe(false);
	});

	it("records malformed stdin in the decision log and prints nothing", async () => {
		await session(1, 2);

		const out = await run("Stop", '{"session_id": "s1", "cwd"');

		expect(out.stdout).toBe("");
		expect((await logLines()).at(-1)).toMatchObject({ reason: "error", detail: expect.stringMatching(/not JSON/) });
	});

	it("writes to stderr, and creates no state, when the folder has no boulder state yet", async () => {
		const out = await run("Stop", "not json");

		expect(out.stdout).toBe("");
		expect(out.stderr).toMatch(/boulder: claude-code Stop hook: Stop: the hook input is not JSON/);
		expect(existsSync(path.join(worktree, ".boulder"))).toBe(false);
	});

	it("prints nothing for an unknown event or none", async () => {
		expect((await run("Notification", input("Notification"))).stdout).toBe("");
		expect((await run(undefined, input("Stop"))).stdout).toBe("");
	});

	it("prints nothing when the project folder does not exist", async () => {
		const out = await run("Stop", input("Stop", { cwd: path.join(worktree, "gone") }), {});
		env.CLAUDE_PROJECT_DIR = path.join(worktree, "gone");
		const again = await run("Stop", input("Stop"));

		expect(out.stdout).toBe("");
		expect(again.stdout).toBe("");
		expect(again.stderr).toMatch(/does not exist/);
	});

	it("lets the agent stop on a bad config and records which file and key", async () => {
		await session(1, 2);
		await writeFile(path.join(worktree, "boulder.config.json"), JSON.stringify({ stagnationLimit: "three" }));

		const out = await run("Stop", input("Stop"));

		// Nothing that blocks: only the notice the user reads.
		expect(Object.keys(JSON.parse(out.stdout))).toEqual(["systemMessage"]);
		expect((await logLines()).at(-1)).toMatchObject({
			reason: "config-invalid",
			detail: expect.stringMatching(/boulder\.config\.json[\s\S]*stagnationLimit/),
		});
	});

	it("lets the agent stop on a corrupt state file, keeping the file aside", async () => {
		await session(1, 2);
		const scopes = path.join(worktree, ".boulder", "scopes");
		const [file] = await readdir(scopes);
		await writeFile(path.join(scopes, file as string), "{ this is not state");

		const out = await run("Stop", input("Stop"));

		expect(out.stdout).toBe("");
		const names = await readdir(scopes);
		expect(names.some((name) => name.includes("corrupt"))).toBe(true);
		expect((await logLines()).some((line) => line.reason === "state-unreadable")).toBe(true);
	});

	it("lets the agent stop when the state's lock cannot be had, and records the timeout", async () => {
		await session(1, 2);
		const open = async () => {
			const store = new FileStore(worktree, { lock: { waitMs: 50, staleMs: 60_000 } });
			return {
				engine: new Engine({ store, config: Config.parse({}), plans: { read: async () => null } }),
				warnings: [],
			};
		};
		const scopes = path.join(worktree, ".boulder", "scopes");
		const [file] = await readdir(scopes);
		await mkdir(path.join(scopes, `${file}.lock`));

		const out = await run("Stop", input("Stop"), { open });

		expect(out.stdout).toBe("");
		expect((await logLines()).at(-1)).toMatchObject({ reason: "error", detail: expect.stringMatching(/Timed out/) });
	});

	it("records an engine that fails outright and prints nothing", async () => {
		const open = async () => {
			throw new BoulderError("internal", "the engine exploded");
		};
		await mkdir(path.join(worktree, ".boulder"));

		const out = await run("Stop", input("Stop"), { open });

		expect(out.stdout).toBe("");
		expect((await logLines()).at(-1)).toMatchObject({ reason: "error", detail: expect.stringMatching(/exploded/) });
	});

	it("records a nudge that could not be written and lets the agent stop (the nudge is lost, never sent twice)", async () => {
		await session(1, 2);
		const failing = {
			stdin: [Buffer.from(JSON.stringify(input("Stop")))],
			stdout: {
				write: () => {
					throw new Error("EPIPE: the harness went away");
				},
			},
			stderr: { write: () => true },
			env,
			cwd: worktree,
		};

		await runClaudeCodeHook(["Stop"], failing);

		const lines = await logLines();
		expect(lines.filter((line) => line.kind === "inject")).toHaveLength(1);
		expect(lines.at(-1)).toMatchObject({ reason: "error", detail: expect.stringMatching(/EPIPE/) });
	});
});

describe("the watcher (the second Stop registration)", () => {
	const subagent = { id: "a7", type: "subagent", status: "running", description: "slow helper", agent_type: "Explore" };
	const shell = { id: "b2", type: "shell", status: "running", description: "dev server", command: "npm run dev" };
	const refuse = async () => {
		throw new Error("the watcher opened the worktree");
	};

	it("ends at once, opening nothing, when the turn left no subagent running, or a shell beside it", async () => {
		for (const tasks of [[], [shell], [{ ...subagent, status: "completed" }], [subagent, shell], undefined]) {
			const out = await run("Watchdog", input("Stop", { background_tasks: tasks }), { open: refuse });

			expect(out).toEqual({ stdout: "", stderr: "", code: 0 });
		}
	});

	it("leaves bad input to the Stop hook beside it: no output, no log line", async () => {
		const out = await run("Watchdog", "{not json", { open: refuse });

		expect(out).toEqual({ stdout: "", stderr: "", code: 0 });
		expect(await logLines()).toEqual([]);
	});

	it("wakes the parent (exit 2, the nudge on stderr) when its subagent runs past the limit", async () => {
		await writeFile(path.join(worktree, "boulder.config.json"), JSON.stringify({ watchdog: { limitMs: 300 } }));
		await session(2, 3);
		const stop = input("Stop", { last_assistant_message: "Waiting for the helper.", background_tasks: [subagent] });
		const waiting = await run("Stop", stop);
		expect(waiting).toMatchObject({ stdout: "", code: 0 });

		const out = await run("Watchdog", stop, { watch: { pollMs: 20, settleMs: 1_000 } });

		expect(out.code).toBe(2);
		expect(out.stdout).toBe("");
		expect(out.stderr).toContain("[boulder · automatic continuation");
		expect(out.stderr).toMatch(/- a7 \(Explore\): running for \d+ s/);
		const last = (await logLines()).at(-1);
		expect(last).toMatchObject({ kind: "inject", reason: "continue", harness: "claude-code", session: SESSION });
	});

	it("wakes nothing when the user wrote before the deadline", async () => {
		await writeFile(path.join(worktree, "boulder.config.json"), JSON.stringify({ watchdog: { limitMs: 60_000 } }));
		await session(2, 3);
		const stop = input("Stop", { last_assistant_message: "Waiting for the helper.", background_tasks: [subagent] });
		await run("Stop", stop);
		let polls = 0;
		const sleep = async () => {
			polls++;
			if (polls === 3) await run("UserPromptSubmit", input("UserPromptSubmit", { prompt: "Never mind." }));
		};

		const out = await run("Watchdog", stop, { watch: { sleep, pollMs: 20, settleMs: 1_000 } });

		expect(out).toEqual({ stdout: "", stderr: "", code: 0 });
		expect(polls).toBe(3);
	});
});
