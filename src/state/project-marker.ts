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
import path from "node:path";
import { STATE_DIR_NAME, WORKS_FILE_NAME } from "./file-store.js";
import { parseAsideName } from "./versioned-file.js";

/** Contract: only looks; throws only when `.boulder/` exists and cannot be listed. */
export function hasStartedWork(folder: string): boolean {
	const dir = path.join(folder, STATE_DIR_NAME);
	let names: string[];
	try {
		if (!lstatSync(dir).isDirectory()) return false;
		names = readdirSync(dir);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return false;
		throw error;
	}
	return names.some((name) => name === WORKS_FILE_NAME || parseAsideName(name)?.original === WORKS_FILE_NAME);
}
