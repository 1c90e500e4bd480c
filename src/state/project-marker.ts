/**
 * Whether a folder outside any git worktree is one where the user started a
 * work: its `.boulder/` is a real folder holding a works file, or a works
 * file moved aside (so a bad works file does not hide the state from
 * `boulder doctor`). Only `boulder start` writes a works file where there was
 * none, so a `.boulder/` that hooks left behind in some random folder (older
 * boulders made one wherever a session opened) does not count.
 *
 * Synchronous: it is asked once per folder up the tree, on every hook event.
 */
import { lstatSync, readdirSync } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import path from "node:path";
import { DIR_MODE, writeFileAtomic } from "./atomic-write.js";
import { STATE_DIR_NAME, WORKS_FILE_NAME } from "./file-store.js";
import { openStateFile } from "./state-file.js";
import { parseAsideName } from "./versioned-file.js";

/**
 * `boulder install <harness>` at a project scope (not `--user`) in a folder
 * that was no project writes this into its `.boulder/`: the folder is a
 * project from then on, and keeps its state there as a git worktree does.
 * One harness name a line, for `doctor` to say which install made it one.
 */
export const INSTALL_MARKER_NAME = "installed";

export type ProjectMarker = "started" | "installed";

/** Contract: only looks; `started` wins over `installed`; throws only when `.boulder/` exists and cannot be listed. */
export function projectMarkerOf(folder: string): ProjectMarker | null {
	const names = stateNames(folder);
	if (names === null) return null;
	if (names.some((name) => name === WORKS_FILE_NAME || parseAsideName(name)?.original === WORKS_FILE_NAME)) {
		return "started";
	}
	return names.includes(INSTALL_MARKER_NAME) ? "installed" : null;
}

/**
 * Marks the folder as a project that boulder is installed in for `harness`.
 * Returns false when it was marked for that harness already.
 *
 * Contract: refuses (throws) a `.boulder` that is a link or a file, as the store does.
 */
export async function markInstalledProject(folder: string, harness: string): Promise<boolean> {
	const dir = path.join(folder, STATE_DIR_NAME);
	try {
		await mkdir(dir, { mode: DIR_MODE });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
	}
	if (!(await lstat(dir)).isDirectory())
		throw new Error(`${dir} is not a real folder; boulder keeps its state only in one`);
	const gitignore = path.join(dir, ".gitignore");
	if ((await readText(gitignore)) === null)
		await writeFileAtomic(gitignore, "# boulder's state: never commit it.\n*\n");
	const marker = path.join(dir, INSTALL_MARKER_NAME);
	const harnesses = ((await readText(marker)) ?? "").split("\n").filter((line) => line.trim() !== "");
	if (harnesses.includes(harness)) return false;
	await writeFileAtomic(marker, `${[...harnesses, harness].join("\n")}\n`);
	return true;
}

/** A small text file of boulder's own, read through the one door (never through a link); null when absent. */
async function readText(file: string): Promise<string | null> {
	const handle = await openStateFile(file, "read");
	if (handle === null) return null;
	try {
		return await handle.readFile("utf8");
	} finally {
		await handle.close();
	}
}

/** Contract: only looks; throws only when `.boulder/` exists and cannot be listed. */
export function hasStartedWork(folder: string): boolean {
	return projectMarkerOf(folder) === "started";
}

function stateNames(folder: string): string[] | null {
	const dir = path.join(folder, STATE_DIR_NAME);
	try {
		if (!lstatSync(dir).isDirectory()) return null;
		return readdirSync(dir);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return null;
		throw error;
	}
}
