/** Finds the worktree a session works in: the nearest folder with `.git`, else the folder itself. */
import { existsSync } from "node:fs";
import path from "node:path";

export function findWorktreeRoot(cwd: string): string {
	let dir = path.resolve(cwd);
	for (;;) {
		if (existsSync(path.join(dir, ".git"))) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) return path.resolve(cwd);
		dir = parent;
	}
}
