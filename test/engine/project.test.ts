/**
 * boulder keeps state in a project: a git worktree, a folder where the user
 * started a work, or one where boulder is installed at a project scope. A
 * harness session opened anywhere else (`/`, the home folder) still gets
 * continuation for its own list, with the folder's state under the user's
 * state folder: never a `.boulder/` in the folder, never off without a word.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../src/adapters/claude-code/dialect.js";
import { main } from "../../src/cli/main.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { Engine } from "../../src/engine/engine.js";
import { openState, openWorkspace } from "../../src/engine/open.js";
import { filePlans } from "../../src/engine/plan-files.js";
import { findProject, markInstalledHere } from "../../src/engine/worktree.js";
import { FileStore } from "../../src/state/file-store.js";
import { asideName } from "../../src/state/versioned-file.js";

let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
	root = await mkdtemp(path.join(os.tmpdir(), "boulder-project-"));
	// The tests below need a folder that is in no project to begin with.
	expect(findProject(root).kind).toBe("none");
	env = {
		HOME: path.join(root, "home"),
		XDG_CONFIG_HOME: path.join(root, "config"),
		BOULDER_STATE_HOME: path.join(root, "state"),
		NO_COLOR: "1",
	};
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

/** Every file under `dir` with its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const name of await readdir(dir, { recursive: true })) {
		const full = path.join(dir, name);
		out[name] = existsSync(full) && !(await stat(full)).isDirectory() ? await readFile(full, "utf8") : "dir";
	}
	return out;
}

async function folder(...parts: string[]): Promise<string> {
	const dir = path.join(root, ...parts);
	await mkdir(dir, { recursive: true });
	return dir;
}

const PLAN = "# Tidy up\n\n- [ ] one\n- [ ] two\n";

async function cli(args: string[], cwd: string) {
	let stdout = "";
	let stderr = "";
	const code = await main(args, {
		stdout: { write: (chunk: string) => (stdout += chunk) },
		stderr: { write: (chunk: string) => (stderr += chunk) },
		env,
		cwd,
	});
	return { code, stdout, stderr };
}

/** A Claude Code session in `cwd`: a prompt, a todo list with an open item, then Stop. Returns what Stop printed. */
async function claudeSession(cwd: string): Promise<string> {
	let stdout = "";
	const transcript = path.join(root, "transcript.jsonl");
	const hook = async (event: string, fields: Record<string, unknown>) => {
		stdout = "";
		await runClaudeCodeHook([event], {
			stdin: [
				Buffer.from(
					JSON.stringify({
						session_id: "s-1",
						transcript_path: transcript,
						cwd,
						hook_event_name: event,
						...fields,
					}),
				),
			],
			stdout: { write: (chunk: string) => (stdout += chunk) },
			stderr: { write: () => true },
			env,
			cwd,
		});
	};
	await hook("UserPromptSubmit", { prompt: "Go." });
	// The transcript says how the turn ended: a plain answer, after the prompt.
	const at = new Date(Date.now() + 1000).toISOString();
	const lines = [
		{ type: "user", uuid: "u-1", timestamp: at, message: { role: "user", content: "Go." } },
		{
			type: "assistant",
			uuid: "a-1",
			timestamp: at,
			message: {
				id: "msg-1",
				type: "message",
				role: "assistant",
				content: [{ type: "text", text: "Did one." }],
				stop_reason: "end_turn",
				usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
			},
		},
	];
	await writeFile(transcript, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
	const todos = [
		{ content: "one", status: "completed", activeForm: "x" },
		{ content: "two", status: "pending", activeForm: "x" },
	];
	await hook("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } });
	await hook("Stop", { stop_hook_active: false });
	return stdout;
}

describe("findProject", () => {
	it("finds the nearest git worktree up the tree", async () => {
		const repo = await folder("repo");
		await mkdir(path.join(repo, ".git"));
		const deep = await folder("repo", "src", "deep");
		expect(findProject(deep)).toEqual({ root: repo, kind: "git" });
	});

	it("finds a folder where a work was started, also from below it", async () => {
		const notes = await folder("notes");
		await writeFile(path.join(notes, "PLAN.md"), PLAN);
		expect((await cli(["start", "PLAN.md"], notes)).code).toBe(0);
		expect(findProject(await folder("notes", "drafts"))).toEqual({ root: notes, kind: "started" });
	});

	it("counts a works file moved aside, so a bad one does not hide the state from `boulder doctor`", async () => {
		const notes = await folder("notes");
		await mkdir(path.join(notes, ".boulder"));
		await writeFile(path.join(notes, ".boulder", asideName("works.json", "corrupt", Date.now(), 1)), "{");
		expect(findProject(notes).kind).toBe("started");
	});

	it("does not count a .boulder/ that hooks of an older boulder left behind, nor a link", async () => {
		const stray = await folder("stray");
		await mkdir(path.join(stray, ".boulder", "scopes"), { recursive: true });
		await writeFile(path.join(stray, ".boulder", "decisions.jsonl"), "");
		expect(findProject(stray)).toEqual({ root: stray, kind: "none" });

		const started = await folder("started");
		await writeFile(path.join(started, "PLAN.md"), PLAN);
		expect((await cli(["start", "PLAN.md"], started)).code).toBe(0);
		const linked = await folder("linked");
		await symlink(path.join(started, ".boulder"), path.join(linked, ".boulder"));
		expect(findProject(linked).kind).toBe("none");
	});
});

describe("outside any project", () => {
	it("a Claude Code session is nudged on its own list, its state kept under the user's state folder, never in the folder", async () => {
		const anywhere = await folder("downloads");
		expect(await claudeSession(anywhere)).toContain('"decision":"block"');
		expect(await readdir(anywhere)).toEqual([]);
		const kept = path.join(root, "state", "folders");
		const [key] = await readdir(kept);
		expect(key).toMatch(/^downloads-[0-9a-f]{16}$/);
		expect(await readdir(path.join(kept, key as string, "scopes"))).toHaveLength(1);

		const repo = await folder("repo");
		await mkdir(path.join(repo, ".git"));
		await claudeSession(repo);
		expect(await readdir(path.join(repo, ".boulder", "scopes"))).toHaveLength(1);
		expect(existsSync(path.join(repo, ".boulder", "decisions.jsonl"))).toBe(true);
	});

	it("the engine continues the session's own list, and leaves the state an older boulder left in the folder alone", async () => {
		const stray = await folder("stray");
		const ref = { harness: "claude-code", sessionId: "s-1" };
		const roll = async (engine: Engine) => {
			await engine.turnStarted(ref, "user");
			await engine.todosChanged(ref, [{ content: "two", status: "pending" }]);
			await engine.turnEnded(ref, { outcome: "end" });
			return engine.onIdle(ref);
		};
		// What an older boulder did here: kept the session's list in the folder itself.
		const old = new Engine({ store: new FileStore(stray), config: DEFAULT_CONFIG, plans: filePlans });
		expect((await roll(old)).kind).toBe("inject");
		const before = await snapshot(path.join(stray, ".boulder"));

		const workspace = await openWorkspace({ cwd: stray, env });
		expect(workspace.project).toBe("none");
		expect(workspace.store.keepsState).toBe(true);
		expect(workspace.store.dir.startsWith(path.join(root, "state", "folders"))).toBe(true);
		const idle = await roll(workspace.engine);
		expect(idle.kind).toBe("inject");
		expect(await workspace.engine.worktreeStatus()).toMatchObject({
			works: [],
			lastDecision: expect.objectContaining({ reason: "continue" }),
		});
		expect(await snapshot(path.join(stray, ".boulder"))).toEqual(before);
	});

	it("`boulder stop` holds there, and `boulder why` tells the decisions", async () => {
		const anywhere = await folder("downloads");
		expect(await claudeSession(anywhere)).toContain('"decision":"block"');
		const why = await cli(["why"], anywhere);
		expect(why.stdout).toContain("continued");
		expect(why.stdout).not.toContain("No decisions yet");
		const status = await cli(["status"], anywhere);
		expect(status.stdout).toContain("no project here");
		expect(status.stdout).toContain(`its state kept in ${path.join(root, "state", "folders")}`);
		expect(status.stdout).toContain("claude-code:s-1  its own list  1 open, 1/2 done");
		const stop = await cli(["stop"], anywhere);
		expect(stop.code).toBe(0);
		expect(stop.stdout).toContain("Stopped");
		expect(await claudeSession(anywhere)).toBe("");
		expect((await cli(["go"], anywhere)).stdout).toContain("On");
		expect(await readdir(anywhere)).toEqual([]);
	});

	it("`boulder doctor` warns that the folder is no project, says where its state is and names the fix", async () => {
		const stray = await folder("stray");
		const clean = await cli(["doctor", "--json"], stray);
		const findings = (
			JSON.parse(clean.stdout) as { findings: { check: string; level: string; message: string; fix: string | null }[] }
		).findings;
		const state = findings.filter((finding) => finding.check === "state");
		expect(state[0]).toMatchObject({
			level: "warn",
			message: expect.stringContaining(`${stray} is in no project`),
			fix: expect.stringContaining("boulder install <harness> --project"),
		});
		expect(state[0]?.message).toContain(path.join(root, "state", "folders"));
		expect(state.map((finding) => finding.message).join("\n")).not.toContain("keeps no state");

		await mkdir(path.join(stray, ".boulder", "scopes"), { recursive: true });
		const left = await cli(["doctor", "--json"], stray);
		const warned = (JSON.parse(left.stdout) as { findings: { level: string; message: string }[] }).findings;
		expect(warned).toContainEqual(
			expect.objectContaining({
				level: "warn",
				message: expect.stringContaining(`${path.join(stray, ".boulder")} holds state an older boulder left`),
			}),
		);
	});

	it("`boulder install <harness> --project` makes the folder a project that keeps its state in itself", async () => {
		const notes = await folder("notes");
		// What `boulder install <harness> --project` does after writing the harness's settings (the journey e2e runs it).
		expect(await markInstalledHere(notes, "claude-code")).toBe(notes);
		expect(await markInstalledHere(notes, "opencode")).toBe(null);
		expect(findProject(await folder("notes", "drafts"))).toEqual({ root: notes, kind: "installed" });
		expect(await claudeSession(notes)).toContain('"decision":"block"');
		expect(await readdir(path.join(notes, ".boulder", "scopes"))).toHaveLength(1);
		expect(await readFile(path.join(notes, ".boulder", ".gitignore"), "utf8")).toContain("*");
		expect(existsSync(path.join(root, "state", "folders"))).toBe(false);
		// Inside a git worktree an install marks nothing: the worktree is the project.
		const repo = await folder("repo");
		await mkdir(path.join(repo, ".git"));
		expect(await markInstalledHere(await folder("repo", "sub"), "claude-code")).toBe(null);
		expect(existsSync(path.join(repo, "sub", ".boulder"))).toBe(false);
	});

	it("`boulder start` makes the folder a project: state is kept there and found from below", async () => {
		const notes = await folder("notes");
		await writeFile(path.join(notes, "PLAN.md"), PLAN);
		expect(findProject(notes).kind).toBe("none");

		const missing = await cli(["start", "NOPE.md"], notes);
		expect(missing.code).toBe(1);
		expect(existsSync(path.join(notes, ".boulder"))).toBe(false);

		const started = await cli(["start", "PLAN.md"], notes);
		expect(started.code).toBe(0);
		expect(started.stdout).toContain(`Started Tidy up (tidy-up): the active work of ${notes}`);
		const handle = await openState({ cwd: await folder("notes", "drafts"), env });
		expect(handle).toMatchObject({ worktree: notes, project: "started" });
		expect(handle.store.keepsState).toBe(true);
		const status = await cli(["status", "--all", "--json"], root);
		expect((JSON.parse(status.stdout) as { worktrees: { worktree: string }[] }).worktrees).toEqual([
			expect.objectContaining({ worktree: notes }),
		]);
	});
});
