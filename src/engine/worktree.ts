/**
 * Finds the project a session works in, and so where boulder keeps its state:
 * the nearest folder up the tree that is a git worktree (holds `.git`) or
 * where the user started a work (`boulder start`). Anywhere else there is no
 * project: boulder keeps no state there and nudges nobody, so a harness
 * session opened in `/`, the home folder or a download folder is left alone.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { hasStartedWork } from "../state/project-marker.js";

export type ProjectKind = "git" | "started" | "none";

export interface Project {
	/** The project's root; for `none`, the folder itself. */
	root: string;
	kind: ProjectKind;
}

/** Contract: only looks; the nearest project wins, a git worktree over a started work in the same folder. */
export function findProject(cwd: string): Project {
	const start = path.resolve(cwd);
	let dir = start;
	for (;;) {
		if (existsSync(path.join(dir, ".git"))) return { root: dir, kind: "git" };
		if (hasStartedWork(dir)) return { root: dir, kind: "started" };
		const parent = path.dirname(dir);
		if (parent === dir) return { root: start, kind: "none" };
		dir = parent;
	}
}

/** The project's root, or the folder itself outside any project. */
export function findWorktreeRoot(cwd: string): string {
	return findProject(cwd).root;
}
