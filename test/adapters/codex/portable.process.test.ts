/**
 * The portable hook command a project commits, run as Codex runs it
 * (`sh -c`, in the session's folder, which may be below the project's root):
 * it finds the project's own boulder-agent, or tells a teammate without one,
 * once, at session start. Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdir, mkdtemp, readFile, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { install, NOT_INSTALLED_NOTICE } from "../../../src/adapters/codex/dialect.js";
import { portableHere } from "../../../src/adapters/command-hook/doctor.js";
import { hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { type HookForm, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

beforeAll(() => {
	if (!existsSync(path.join(REPO, "dist", "hook", "boulder-hook.cjs"))) throw new Error("run `npm run build` first");
});

async function project() {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-portable-"));
	const home = path.join(root, "home");
	const folder = path.join(root, "app");
	const below = path.join(folder, "src", "deep");
	await mkdir(path.join(folder, ".git"), { recursive: true });
	await mkdir(below, { recursive: true });
	await mkdir(home, { recursive: true });
	const env = { HOME: home, PATH: "/usr/bin:/bin", XDG_STATE_HOME: path.join(home, "state") };
	return { root, folder, below, env };
}

/**
 * Runs the command as Codex does, with the input on stdin. The branch for a
 * teammate without boulder exits without reading its input, so the write may
 * meet a closed pipe (EPIPE): that is the shell being quick, not a failure.
 */
function run(command: string, cwd: string, env: NodeJS.ProcessEnv, input: unknown): string {
	const node = path.dirname(process.execPath);
	const result = spawnSync("/bin/sh", ["-c", command], {
		cwd,
		env: { ...env, PATH: `${node}:${env.PATH}` },
		input: JSON.stringify(input),
		encoding: "utf8",
	});
	if (result.error && (result.error as NodeJS.ErrnoException).code !== "EPIPE") throw result.error;
	if (result.status !== 0) throw new Error(`the hook command exited ${result.status}: ${result.stderr}`);
	return result.stdout;
}

describe("the portable Codex hook", () => {
	it("runs the project's devDependency from a folder below the project", async () => {
		const { folder, below, env } = await project();
		await mkdir(path.join(folder, "node_modules"), { recursive: true });
		await symlink(REPO, path.join(folder, "node_modules", "boulder-agent"));
		const input = { session_id: "s1", turn_id: "t1", cwd: below, hook_event_name: "UserPromptSubmit", prompt: "Go." };
		run(hookCommand(PORTABLE, "UserPromptSubmit"), below, env, input);
		const log = await readFile(path.join(folder, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).toContain('"harness":"codex"');
		expect(log).toContain("user-turn");
	});

	it("tells a teammate without boulder once, at session start, and stays quiet otherwise", async () => {
		const { below, env } = await project();
		const start = { session_id: "s1", cwd: below, hook_event_name: "SessionStart", source: "startup" };
		expect(JSON.parse(run(hookCommand(PORTABLE, "SessionStart"), below, env, start))).toEqual({
			systemMessage: NOT_INSTALLED_NOTICE,
		});
		const stop = { session_id: "s1", cwd: below, hook_event_name: "Stop", last_assistant_message: "x" };
		expect(run(hookCommand(PORTABLE, "Stop"), below, env, stop)).toBe("");
	});

	it("never runs a boulder-agent found above the project's root", async () => {
		const { root, below, folder, env } = await project();
		await mkdir(path.join(root, "node_modules"), { recursive: true });
		await symlink(REPO, path.join(root, "node_modules", "boulder-agent"));
		const input = { session_id: "s1", turn_id: "t1", cwd: below, hook_event_name: "UserPromptSubmit", prompt: "Go." };

		expect(run(hookCommand(PORTABLE, "UserPromptSubmit"), below, env, input)).toBe("");

		expect(existsSync(path.join(folder, ".boulder"))).toBe(false);
		expect(portableHere(install, { cwd: below, env }).kind).toBe("none");
	});

	it.runIf(process.getuid?.() === 0)(
		"never runs a boulder-agent another user owns (a shared parent such as /tmp)",
		async () => {
			const { root, env } = await project();
			// No .git or package.json: the walk goes up to the shared folder, where someone else planted a copy.
			const loose = path.join(root, "shared", "proj");
			await mkdir(loose, { recursive: true });
			const planted = path.join(root, "shared", "node_modules");
			await mkdir(planted, { recursive: true });
			await symlink(REPO, path.join(planted, "boulder-agent"));
			await chown(planted, 65534, 65534);
			const input = { session_id: "s1", turn_id: "t1", cwd: loose, hook_event_name: "UserPromptSubmit", prompt: "Go." };

			expect(run(hookCommand(PORTABLE, "UserPromptSubmit"), loose, env, input)).toBe("");

			expect(existsSync(path.join(loose, ".boulder"))).toBe(false);
			expect(existsSync(path.join(root, "shared", ".boulder"))).toBe(false);
			expect(portableHere(install, { cwd: loose, env }).kind).toBe("none");
		},
	);
});
