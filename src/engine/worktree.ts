/**
 * Finds the project a session works in, and so where boulder keeps its state:
 * the nearest folder up the tree that is a git worktree (holds `.git`), where
 * the user started a work (`boulder start`), or where boulder was installed
 * at a project scope (`boulder install <harness>` without `--user`). State
 * lives in the project's `.boulder/`.
 *
 * Anywhere else (`/`, the home folder, a temp folder) there is no project,
 * and boulder is not off there: a session still gets continuation for its
 * own todo list, with the folder's state kept under the user's state folder
 * (`folderStateDir`), so the folder itself is never littered.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { FileStore, type FileStoreOptions } from "../state/file-store.js";
import { folderStateDir } from "../state/folder-state.js";
import { markInstalledProject, projectMarkerOf } from "../state/project-marker.js";
import { boulderStateHome } from "../state/worktree-index.js";

export type ProjectKind = "git" | "started" | "installed" | "none";

export interface Project {
	/** The project's root; for `none`, the folder itself. */
	root: string;
	kind: ProjectKind;
}

/** Contract: only looks; the nearest project wins, a git worktree over a marker in the same folder. */
export function findProject(cwd: string): Project {
	const start = path.resolve(cwd);
	let dir = start;
	for (;;) {
		if (existsSync(path.join(dir, ".git"))) return { root: dir, kind: "git" };
		const marker = projectMarkerOf(dir);
		if (marker) return { root: dir, kind: marker };
		const parent = path.dirname(dir);
		if (parent === dir) return { root: start, kind: "none" };
		dir = parent;
	}
}

/** The project's root, or the folder itself outside any project. */
export function findWorktreeRoot(cwd: string): string {
	return findProject(cwd).root;
}

/**
 * The store of a project: its `.boulder/`, or, for a folder that is no
 * project, the folder's own state under the user's state folder.
 */
export function projectStore(
	project: Project,
	env: NodeJS.ProcessEnv,
	options: Omit<FileStoreOptions, "stateDir"> = {},
): FileStore {
	// The trust record lives in the same user's state folder as a no-project folder's state: both from `env`.
	const withHome = { ...options, stateHome: options.stateHome ?? boulderStateHome({ env }) };
	if (project.kind !== "none") return new FileStore(project.root, withHome);
	return new FileStore(project.root, { ...withHome, stateDir: folderStateDir(project.root, env) });
}

/**
 * After an install at a project scope in `cwd`: a folder that was in no
 * project becomes one (its state is kept in it from then on). Returns the
 * folder when it was made one; null when it already was a project (a git
 * worktree, say), which then stays as it was.
 */
export async function markInstalledHere(cwd: string, harness: string): Promise<string | null> {
	const project = findProject(cwd);
	if (project.kind !== "none") return null;
	await markInstalledProject(project.root, harness);
	return project.root;
}
