/**
 * What a hook process loads of node for us: every module of a hook bundle
 * runs at start, so a built-in it imports is loaded on every event unless the
 * build makes it lazy (`tsdown.config.ts`). Read from the built hooks' own
 * `process.moduleLoadList` at exit, on the path Claude Code's hooks take
 * with state there, and for each command-hook harness's bundle; and no
 * bundle copies a built-in into a module object at start (the bundler's
 * CommonJS interop for a default import).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { assistantLines, promptLine, SESSION, text, writeTranscript } from "../claude-code/helpers.js";
import { isolatedHookWorktree } from "./isolated-worktree.js";

const HOOKS = fileURLToPath(new URL("../../../dist/hook/", import.meta.url));
const CLAUDE_CODE = path.join(HOOKS, "claude-code.cjs");
const ANY_HARNESS = path.join(HOOKS, "boulder-hook.cjs");

/** node's ES module loader comes with `node:module`; `node:os` is only for a `HOME` that is not set. */
const NOT_AT_START = ["NativeModule module", "NativeModule internal/modules/esm/loader", "NativeModule os"];

let worktree: string;
let env: NodeJS.ProcessEnv;
let preload: string;
let loaded: string;

beforeEach(freshWorktree);

/** A worktree of its own, with the preload that writes what the hook loaded, and a transcript. */
async function freshWorktree(): Promise<void> {
	({ worktree, env } = await isolatedHookWorktree("boulder-hook-start-"));
	loaded = path.join(worktree, "loaded.txt");
	preload = path.join(worktree, "loaded-at-exit.cjs");
	await writeFile(
		preload,
		`process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join("\\n")));\n`,
	);
	await writeTranscript(worktree, [promptLine("Go."), ...assistantLines("msg_a", [text("Done.")])]);
}

function input(event: string, fields: Record<string, unknown> = {}): string {
	const transcript = path.join(worktree, `${SESSION}.jsonl`);
	return JSON.stringify({
		session_id: SESSION,
		transcript_path: transcript,
		cwd: worktree,
		hook_event_name: event,
		...fields,
	});
}

/** Runs a hook with the preload; what it loaded, and how it went. */
async function run(args: string[], stdin: string, runEnv: NodeJS.ProcessEnv = env) {
	const child = spawnSync(process.execPath, ["--require", preload, ...args], {
		input: stdin,
		env: runEnv,
		cwd: worktree,
	});
	const modules = (await readFile(loaded, "utf8")).split("\n");
	return { status: child.status, stdout: child.stdout.toString(), modules };
}

const notAtStart = (modules: readonly string[]) => NOT_AT_START.filter((name) => modules.includes(name));

describe.runIf(existsSync(CLAUDE_CODE) && existsSync(ANY_HARNESS))("the built-ins a hook process loads", () => {
	it("are not node's module loader nor node:os on a Claude Code PreToolUse and a Stop that continues", async () => {
		await run([CLAUDE_CODE, "UserPromptSubmit"], input("UserPromptSubmit", { prompt: "Go." }));
		const todos = [{ content: "One", status: "pending", activeForm: "One" }];
		await run([CLAUDE_CODE, "PostToolUse"], input("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } }));

		const edit = { file_path: path.join(worktree, "a.ts") };
		const pre = await run([CLAUDE_CODE, "PreToolUse"], input("PreToolUse", { tool_name: "Edit", tool_input: edit }));
		expect(pre.status).toBe(0);
		expect(notAtStart(pre.modules)).toEqual([]);

		const stop = await run([CLAUDE_CODE, "Stop"], input("Stop", { last_assistant_message: "Done." }));
		expect(JSON.parse(stop.stdout)).toMatchObject({ decision: "block" });
		expect(notAtStart(stop.modules)).toEqual([]);
	});

	it("are not those either for any command-hook harness's bundle", async () => {
		const harnesses = readdirSync(HOOKS)
			.filter((name) => name.endsWith("-main.cjs"))
			.map((name) => name.slice(0, -"-main.cjs".length));
		expect(harnesses).toContain("codex");
		for (const harness of harnesses) {
			const hook = await run([ANY_HARNESS, harness, "Stop"], "not a hook input");
			expect({ harness, status: hook.status, loaded: notAtStart(hook.modules) }).toEqual({
				harness,
				status: 0,
				loaded: [],
			});
		}
	});

	it("copies no built-in into a module object at start: no bundle holds the bundler's CommonJS interop", () => {
		const bundles = readdirSync(HOOKS).filter((name) => name.endsWith(".cjs"));
		expect(bundles).toContain("claude-code-main.cjs");
		// The interop's helpers, as the bundler writes them at the top (minified or not): `Object.getOwnPropertyNames` under a name.
		const interop = /(__copyProps|=\s*Object\.getOwnPropertyNames)\b/;
		expect(bundles.filter((name) => interop.test(readFileSync(path.join(HOOKS, name), "utf8")))).toEqual([]);
	});

	it("keeps no code cache when the environment names no absolute folder for one, never under the working folder", async () => {
		// An empty or relative HOME or XDG_CACHE_HOME would be the working folder's: a checkout could ship
		// bytecode there. The hook then compiles its bundle each run, and answers as ever.
		const todos = [{ content: "One", status: "pending", activeForm: "One" }];
		for (const dirs of [{ HOME: "" }, { HOME: "home" }, { HOME: "", XDG_CACHE_HOME: "cache" }]) {
			await freshWorktree();
			const { XDG_CACHE_HOME: _cache, ...rest } = env;
			const runEnv = { ...rest, ...dirs };
			await run([CLAUDE_CODE, "UserPromptSubmit"], input("UserPromptSubmit", { prompt: "Go." }), runEnv);
			const written = input("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } });
			await run([CLAUDE_CODE, "PostToolUse"], written, runEnv);
			const hook = await run([CLAUDE_CODE, "Stop"], input("Stop", { last_assistant_message: "Done." }), runEnv);
			expect({ dirs, status: hook.status, stdout: hook.stdout }).toMatchObject({
				dirs,
				status: 0,
				stdout: expect.stringContaining('"decision":"block"'),
			});
			expect(readdirSync(worktree).filter((name) => [".cache", "home", "cache"].includes(name))).toEqual([]);
		}
	});
});
