/**
 * A throwaway project for running a built hook program the way a harness
 * runs it: a temp folder with a `.git` folder (boulder keeps state only in a
 * git worktree), and an environment that keeps only the machine's PATH and
 * puts HOME, the XDG config and cache folders and boulder's state folder
 * inside that folder, so no hook run reads or writes the real user's.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { tempDir } from "../claude-code/helpers.js";

export interface IsolatedHookWorktree {
	worktree: string;
	env: NodeJS.ProcessEnv;
}

/** A new worktree under the temp folder, named from `prefix`, and the environment for hooks run in it. */
export async function isolatedHookWorktree(prefix: string): Promise<IsolatedHookWorktree> {
	const worktree = await tempDir(prefix);
	await mkdir(path.join(worktree, ".git"));
	const env = {
		PATH: process.env.PATH,
		HOME: path.join(worktree, "home"),
		XDG_CONFIG_HOME: path.join(worktree, "config"),
		XDG_CACHE_HOME: path.join(worktree, "cache"),
		BOULDER_STATE_HOME: path.join(worktree, "state"),
	};
	return { worktree, env };
}
