/**
 * boulder keeps state only in a project: a git worktree, or a folder where
 * the user started a work. A harness session opened anywhere else (`/`, the
 * home folder) gets no `.boulder/`, no nudges and no entry in the index.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../src/adapters/claude-code/run-hook.js";
import { main } from "../../src/cli/main.js";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { Engine } from "../../src/engine/engine.js";
import { openState, openWorkspace } from "../../src/engine/open.js";
import { filePlans } from "../../src/engine/plan-files.js";
import { findProject } from "../../src/engine/worktree.js";
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
	const hook = async (event: string, fields: Record<string, unknown>) => {
		stdout = "";
		await runClaudeCodeHook([event], {
			stdin: [
				Buffer.from(
					JSON.stringify({
						session_id: "s-1",
						transcript_path: path.join(root, "none.jsonl"),
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
	it("a Claude Code session gets no nudge and no .boulder/ folder; in a git worktree the same session is kept", async () => {
		const anywhere = await folder("downloads");
		expect(await claudeSession(anywhere)).toBe("");
		expect(await readdir(anywhere)).toEqual([]);
		expect(existsSync(path.join(root, "state"))).toBe(false);

		const repo = await folder("repo");
		await mkdir(path.join(repo, ".git"));
		await claudeSession(repo);
		expect(await readdir(path.join(repo, ".boulder", "scopes"))).toHaveLength(1);
		expect(existsSync(path.join(repo, ".boulder", "decisions.jsonl"))).toBe(true);
	});

	it("the engine sees no works and keeps nothing, even where an older boulder left state", async () => {
		const stray = await folder("stray");
		const ref = { harness: "claude-code", sessionId: "s-1" };
		const roll = async (engine: Engine) => {
			await engine.turnStarted(ref, "user");
			await engine.todosChanged(ref, [{ content: "two", status: "pending" }]);
			await engine.turnEnded(ref, { outcome: "end" });
			return engine.onIdle(ref);
		};
		// What an older boulder did here: kept the session's list and nudged it.
		const old = new Engine({ store: new FileStore(stray), config: DEFAULT_CONFIG, plans: filePlans });
		expect((await roll(old)).kind).toBe("inject");
		const before = await snapshot(path.join(stray, ".boulder"));

		const workspace = await openWorkspace({ cwd: stray, env });
		expect(workspace.project).toBe("none");
		expect(workspace.store.keepsState).toBe(false);
		const idle = await roll(workspace.engine);
		expect(idle.kind).toBe("skip");
		expect(idle.reason).toBe("no-open-work");
		expect(await workspace.engine.worktreeStatus()).toMatchObject({ works: [], lastDecision: null });
		expect(await snapshot(path.join(stray, ".boulder"))).toEqual(before);
	});

	it("`boulder stop` and `boulder go` change nothing and say why", async () => {
		const anywhere = await folder("downloads");
		const stop = await cli(["stop"], anywhere);
		expect(stop.code).toBe(0);
		expect(stop.stdout).toContain(`${anywhere} is in no project`);
		expect(stop.stdout).toContain("nothing to turn off");
		const go = await cli(["go", "--session", "s-1", "--harness", "claude-code"], anywhere);
		expect(go.code).toBe(0);
		expect(go.stdout).toContain("nothing to turn on");
		expect(await readdir(anywhere)).toEqual([]);
	});

	it("`boulder doctor` says no state is kept here, and names a state folder an older boulder left", async () => {
		const stray = await folder("stray");
		const clean = await cli(["doctor", "--json"], stray);
		const findings = (JSON.parse(clean.stdout) as { findings: { check: string; message: string }[] }).findings;
		expect(findings.filter((finding) => finding.check === "state").map((finding) => finding.message)).toEqual([
			`${stray} is in no project (no git worktree up the tree, no work started here): boulder keeps no state here and nudges nobody`,
		]);

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
