/**
 * Looking at a worktree's state folder rather than at the state in it: files
 * moved aside, lock folders and temp files left by dead processes, unreadable
 * decision-log lines, and which files are scope states. `Store.problems()` and
 * `boulder doctor` ask this; the store itself reads and writes state by name
 * and never lists a folder.
 *
 * Contract: only looks. Nothing on disk changes, and a folder that does not
 * exist has nothing in it.
 */
import { type Dirent, readdirSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { isTempFileName } from "./atomic-write.js";
import { FUTURE_SKEW_MS } from "./lock.js";
import type { StateProblem } from "./store.js";
import { parseAsideName } from "./versioned-file.js";

export interface StateScan {
	/** Folders that may hold aside copies, locks and temp files. */
	folders: readonly string[];
	/** A lock or temp file older than this has outlived its writer. */
	staleMs: number;
	decisionLog: { file: string; skippedLines: number };
	/** Dates the unreadable-log problem, which has no file time of its own. */
	now: number;
}

const ASIDE_WORDS: Record<string, string> = {
	corrupt: "unparseable or empty",
	invalid: "wrong shape or failed migration",
	future: "written by a newer boulder",
	"not-a-file": "not a regular file",
};

/** Oldest first, so a person reads what happened in order. */
export async function scanStateProblems(scan: StateScan): Promise<StateProblem[]> {
	const found: StateProblem[] = [];
	for (const dir of scan.folders) found.push(...(await scanFolder(dir, scan.staleMs)));
	if (scan.decisionLog.skippedLines > 0) {
		found.push({
			file: scan.decisionLog.file,
			movedTo: null,
			reason: `${scan.decisionLog.skippedLines} line(s) of the decision log could not be read and are skipped`,
			at: scan.now,
		});
	}
	return found.sort(
		(a, b) => a.at - b.at || a.file.localeCompare(b.file) || (a.movedTo ?? "").localeCompare(b.movedTo ?? ""),
	);
}

/**
 * A store's scope files themselves, sorted: no aside copies, locks or temp
 * files (those are `scanStateProblems`'s). Takes a `FileStore`. Synchronous
 * inside: `boulder status --all` lists a hundred folders, and a listing is
 * cheaper than its thread-pool trip.
 */
export async function listScopeFiles(store: { readonly paths: { readonly scopes: string } }): Promise<string[]> {
	let names: string[];
	try {
		names = readdirSync(store.paths.scopes);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	return names
		.filter((name) => name.endsWith(".json") && !parseAsideName(name) && !isTempFileName(name))
		.sort()
		.map((name) => path.join(store.paths.scopes, name));
}

async function scanFolder(dir: string, staleMs: number): Promise<StateProblem[]> {
	let entries: Dirent[];
	try {
		entries = await readdir(dir, { withFileTypes: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return [];
		throw error;
	}
	const found: StateProblem[] = [];
	for (const entry of entries) {
		const full = path.join(dir, entry.name);
		const aside = parseAsideName(entry.name);
		if (aside) {
			found.push({
				file: path.join(dir, aside.original),
				movedTo: full,
				reason: `${aside.reason}: ${ASIDE_WORDS[aside.reason]}; moved aside untouched`,
				at: aside.at,
			});
			continue;
		}
		const leftover = entry.name.endsWith(".lock")
			? "lock left behind (its holder probably died); removed automatically by the next writer"
			: isTempFileName(entry.name)
				? "temp file left by an interrupted write; not state, safe to delete"
				: null;
		if (!leftover) continue;
		const mtime = await mtimeOf(full);
		// Compared with the file system's clock, not the injected one: both sides are real times.
		// A lock dated beyond the skew ahead is as dead as an old one (see `FUTURE_SKEW_MS`).
		if (mtime !== null && (Date.now() - mtime > staleMs || mtime - Date.now() > FUTURE_SKEW_MS)) {
			found.push({ file: full, movedTo: null, reason: leftover, at: mtime });
		}
	}
	return found;
}

async function mtimeOf(file: string): Promise<number | null> {
	try {
		return (await lstat(file)).mtimeMs;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}
