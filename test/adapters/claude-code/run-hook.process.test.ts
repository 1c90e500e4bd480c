/** The bundled hook program, run as Claude Code runs it: a process per event. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { assistantLines, promptLine, SESSION, tempDir, text, writeTranscript } from "./helpers.js";

const BUNDLE = fileURLToPath(new URL("../../../dist/hook/claude-code.cjs", import.meta.url));

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

function input(event: string, fields: Record<string, unknown> = {}) {
	return {
		session_id: SESSION,
		transcript_path: path.join(worktree, `${SESSION}.jsonl`),
		cwd: worktree,
		hook_event_name: event,
		...fields,
	};
}

describe.runIf(existsSync(BUNDLE))("the bundled hook program", () => {
	function spawnHook(event: string, stdin: string) {
		return spawnSync(process.execPath, [BUNDLE, event], {
			input: stdin,
			env: { ...env, PATH: process.env.PATH },
			cwd: worktree,
		});
	}

	it("exits 0 with nothing on stdout for garbage, an empty input and an unknown event", () => {
		for (const [event, stdin] of [
			["Stop", "garbage"],
			["Stop", ""],
			["Bogus", JSON.stringify(input("Bogus"))],
		] as const) {
			const child = spawnHook(event, stdin);
			expect(child.status).toBe(0);
			expect(child.stdout.toString()).toBe("");
		}
	});

	it("keeps V8's code cache in the user's cache folder, and survives a damaged one", async () => {
		const cacheFolder = path.join(worktree, "cache", "boulder", "hook-code-cache");
		env.XDG_CACHE_HOME = path.join(worktree, "cache");

		expect(spawnHook("Stop", "garbage").status).toBe(0);
		const [cache] = await readdir(cacheFolder);
		expect(cache).toMatch(
			new RegExp(`^claude-code-\\d+-\\d+-${process.version.replaceAll(".", "\\.")}-${process.arch}-Stop\\.bin$`),
		);
		await writeFile(path.join(cacheFolder, cache as string), "not a code cache");
		const damaged = spawnHook("Stop", "garbage");

		expect(damaged.status).toBe(0);
		expect(damaged.stdout.toString()).toBe("");
		expect((await readFile(path.join(cacheFolder, cache as string))).length).toBeGreaterThan(1000);
	});

	it("removes the week-old caches of other builds when it writes its own, and keeps recent ones", async () => {
		const cacheFolder = path.join(worktree, "cache", "boulder", "hook-code-cache");
		env.XDG_CACHE_HOME = path.join(worktree, "cache");
		await mkdir(cacheFolder, { recursive: true });
		const old = path.join(cacheFolder, "claude-code-1-1-v0.0.0-x64-Stop.bin");
		const recent = path.join(cacheFolder, "claude-code-2-2-v0.0.0-x64-Stop.bin");
		const others = path.join(cacheFolder, "not-ours.bin");
		for (const file of [old, recent, others]) await writeFile(file, "an old cache");
		const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
		await utimes(old, eightDaysAgo, eightDaysAgo);
		await utimes(others, eightDaysAgo, eightDaysAgo);

		expect(spawnHook("Stop", "garbage").status).toBe(0);
		const names = await readdir(cacheFolder);
		expect(names).not.toContain(path.basename(old));
		expect(names).toEqual(expect.arrayContaining([path.basename(recent), path.basename(others)]));
		expect(names).toHaveLength(3);
	});

	it("nudges through the real files, as Claude Code would run it", () => {
		spawnHook("UserPromptSubmit", JSON.stringify(input("UserPromptSubmit", { prompt: "Go." })));
		spawnHook(
			"PostToolUse",
			JSON.stringify(
				input("PostToolUse", {
					tool_name: "TodoWrite",
					tool_input: { todos: [{ content: "One", status: "pending", activeForm: "One" }] },
				}),
			),
		);

		const child = spawnHook("Stop", JSON.stringify(input("Stop", { last_assistant_message: "Done." })));

		expect(child.status).toBe(0);
		expect(JSON.parse(child.stdout.toString())).toMatchObject({ decision: "block" });
	});
});
