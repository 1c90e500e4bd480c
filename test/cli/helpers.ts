/**
 * Shared pieces of the CLI tests: a throwaway worktree (a folder with `.git`)
 * with its own user config and state folders, `main()` run in-process with
 * captured output, and a settable clock.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { AdapterRegistry } from "../../src/adapters/registry.js";
import type { Input } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { openWorkspace } from "../../src/engine/open.js";
import type { Clock } from "../../src/state/store.js";

const made: string[] = [];

afterEach(async () => {
	for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

export interface Ran {
	code: number;
	stdout: string;
	stderr: string;
}

export interface Sandbox {
	root: string;
	worktree: string;
	env: NodeJS.ProcessEnv;
	clock: Clock & { set(at: number): void; advance(ms: number): void };
	/** Runs `boulder …` in the worktree (or `cwd`). */
	run(
		args: string[],
		options?: { cwd?: string; signal?: AbortSignal; adapters?: AdapterRegistry; stdin?: Input },
	): Promise<Ran>;
	/** Writes a file relative to the worktree. */
	write(relative: string, text: string): Promise<string>;
	/** An engine on the worktree, as an adapter would open it: a fresh instance each call. */
	engine(): Promise<Awaited<ReturnType<typeof openWorkspace>>["engine"]>;
	/** Another worktree under the same user folders. */
	another(name: string): Promise<string>;
}

/** Today at 14:02 local time: `boulder why` prints times without a date. */
export function todayAt(hours: number, minutes: number, seconds = 0): number {
	const at = new Date();
	at.setHours(hours, minutes, seconds, 0);
	return at.getTime();
}

export async function sandbox(): Promise<Sandbox> {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-cli-"));
	made.push(root);
	const worktree = path.join(root, "wt");
	await mkdir(path.join(worktree, ".git"), { recursive: true });
	const env: NodeJS.ProcessEnv = {
		BOULDER_STATE_HOME: path.join(root, "state"),
		XDG_CONFIG_HOME: path.join(root, "config"),
		HOME: path.join(root, "home"),
		NO_COLOR: "1",
	};
	let now = todayAt(14, 2);
	const clock = {
		now: () => now,
		set(at: number) {
			now = at;
		},
		advance(ms: number) {
			now += ms;
		},
	};
	const box: Sandbox = {
		root,
		worktree,
		env,
		clock,
		async run(args, options = {}) {
			let stdout = "";
			let stderr = "";
			const code = await main(args, {
				stdout: { write: (chunk: string) => (stdout += chunk) },
				stderr: { write: (chunk: string) => (stderr += chunk) },
				env,
				cwd: options.cwd ?? worktree,
				clock,
				...(options.signal ? { signal: options.signal } : {}),
				...(options.adapters ? { adapters: options.adapters } : {}),
				...(options.stdin ? { stdin: options.stdin } : {}),
			});
			return { code, stdout, stderr };
		},
		async write(relative, text) {
			const file = path.join(worktree, relative);
			await mkdir(path.dirname(file), { recursive: true });
			await writeFile(file, text);
			return file;
		},
		async engine() {
			return (await openWorkspace({ cwd: worktree, env, clock })).engine;
		},
		async another(name) {
			const dir = path.join(root, name);
			await mkdir(path.join(dir, ".git"), { recursive: true });
			return dir;
		},
	};
	return box;
}

export const PLAN = `# Ship the CLI

- [x] Parse the arguments
- [ ] Write the status command
  - [ ] it shows progress
- [~] Ask design about colours
- [ ] Write the tests
`;
