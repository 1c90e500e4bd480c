/**
 * A simulated machine for the fleet's tests: its own HOME and state folder,
 * its own name (`BOULDER_MACHINE`), and worktrees with a work started
 * through the real CLI, in process. Decisions are appended through the real
 * file store (without the hook's shipper start, so tests ship by hand).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { main } from "../../../src/cli/main.js";
import { eventRecord } from "../../../src/core/decision-record.js";
import { findProject, projectStore } from "../../../src/engine/worktree.js";
import type { FileStore } from "../../../src/state/file-store.js";
import { shipperRunning } from "../../../src/state/fleet-files.js";
import { recordWorktree } from "../../../src/state/worktree-index.js";

const made: { home: string; env: NodeJS.ProcessEnv }[] = [];

/**
 * Removes every machine's folders (call in `afterAll`: they outlive single
 * tests). A shipper a hook started in the background may still be running
 * and writing into the machine's state folder: its lock is waited out first
 * (bounded), and a folder that fills again while it is removed is retried.
 */
export async function removeMachines(): Promise<void> {
	await Promise.all(
		made.splice(0).map(async ({ home, env }) => {
			const deadline = Date.now() + 30_000;
			while (shipperRunning(env, Date.now()) && Date.now() < deadline) await sleep(100);
			await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
		}),
	);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Machine {
	name: string;
	env: NodeJS.ProcessEnv;
	home: string;
	/** Makes a git worktree with PLAN.md started as its active work; returns its root. */
	worktree(name: string, plan?: string): Promise<string>;
	store(root: string): FileStore;
	/** Appends `count` event lines to the worktree's decision log. */
	log(root: string, count: number, at?: number): Promise<void>;
	/** Runs the CLI in process; returns the exit code and what it printed. */
	cli(args: string[], cwd?: string): Promise<{ code: number; out: string; err: string }>;
}

export const PLAN = "# Ship it\n\n- [x] Read the spec\n- [ ] Write the parser\n- [ ] Document it\n";

export async function makeMachine(name: string, url: string | null, extra: NodeJS.ProcessEnv = {}): Promise<Machine> {
	const home = await mkdtemp(path.join(tmpdir(), `boulder-fleet-${name}-`));
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: home,
		XDG_CONFIG_HOME: path.join(home, ".config"),
		BOULDER_STATE_HOME: path.join(home, "state"),
		BOULDER_MACHINE: name,
		NO_COLOR: "1",
		// Tests ship by hand; the one test of the hook's shipper start turns it back on.
		BOULDER_FLEET_AUTOSHIP: "off",
		...(url ? { BOULDER_FLEET_URL: url } : {}),
		...extra,
	};
	made.push({ home, env });
	const cli: Machine["cli"] = async (args, cwd = home) => {
		let out = "";
		let err = "";
		const code = await main(args, {
			env,
			cwd,
			stdout: {
				write: (text: string) => {
					out += text;
					return true;
				},
			},
			stderr: {
				write: (text: string) => {
					err += text;
					return true;
				},
			},
		});
		return { code, out, err };
	};
	let seq = 0;
	const machine: Machine = {
		name,
		env,
		home,
		cli,
		async worktree(folder, plan = PLAN) {
			const root = path.join(home, folder);
			await mkdir(path.join(root, ".git"), { recursive: true });
			await writeFile(path.join(root, "PLAN.md"), plan);
			const started = await cli(["start", "PLAN.md"], root);
			if (started.code !== 0) throw new Error(`boulder start failed: ${started.err}${started.out}`);
			await recordWorktree(root, { env });
			return root;
		},
		store(root) {
			return projectStore(findProject(root), env);
		},
		async log(root, count, at = Date.now()) {
			const store = machine.store(root);
			for (let i = 0; i < count; i++) {
				seq++;
				await store.appendDecision(
					eventRecord({
						at: at + i,
						worktree: root,
						reason: "user-turn",
						detail: `line ${seq}`,
						session: "s1",
						harness: "claude-code",
					}),
				);
			}
		},
	};
	return machine;
}
