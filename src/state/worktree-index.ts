/**
 * The index of worktrees boulder has seen, for `boulder status --all` and the
 * dashboard: one small versioned file in the user's state folder
 * (`$BOULDER_STATE_HOME`, else `$XDG_STATE_HOME/boulder`, else
 * `~/.local/state/boulder`). It is a convenience list: a bad index is moved
 * aside like any state file and rebuilt as worktrees are seen again.
 *
 * Beside it, one empty stamp file per worktree (`worktree-stamps/`, named by
 * a hash of the root) whose modification time is when that worktree was
 * last recorded: a hook asks "recorded recently?" on every event, and one
 * lstat of the stamp answers it without reading an index that grows with
 * every worktree the user has.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { exactly, fields, handCheck, nonEmpty, num, recordOf } from "../core/hand-check.js";
import { hash64 } from "../core/hash.js";
import { z } from "../core/zod.js";
import { ensureDir, inFolder } from "./atomic-write.js";
import { FUTURE_SKEW_MS, type LockOptions, withLock } from "./lock.js";
import { openStateFile } from "./state-file.js";
import { type Clock, type Read, type StateProblem, systemClock } from "./store.js";
import { xdgFolder } from "./user-home.js";
import { readVersionedFile, type VersionedFileSpec, writeVersionedFile } from "./versioned-file.js";

export const WORKTREE_INDEX_FILE = "worktrees.json";
/** The folder of the worktrees' stamps, next to the index. */
export const WORKTREE_STAMPS_DIR = "worktree-stamps";

const time = z.lazy(() => z.number());

export const WorktreeEntry = z.lazy(() =>
	z.object({
		root: z.string().check(z.minLength(1)),
		firstSeen: time,
		lastSeen: time,
	}),
);
export type WorktreeEntry = z.infer<typeof WorktreeEntry>;

export const WorktreeIndex = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		/** Keyed by the absolute root. */
		worktrees: z.record(z.string(), WorktreeEntry),
	}),
);
export type WorktreeIndex = z.infer<typeof WorktreeIndex>;

/** Contract: the one spec the index is read and written with; `boulder doctor` inspects the file with it. */
export const worktreeIndexSpec: VersionedFileSpec<WorktreeIndex> = {
	label: "worktree index",
	currentVersion: 1,
	schema: WorktreeIndex,
	migrations: [],
	quick: handCheck((value) => quickWorktreeIndex(value)),
};

/** `WorktreeIndex`'s well-formed case by hand: the hook reads the index on every event. */
function quickWorktreeIndex(value: unknown): WorktreeIndex {
	const file = fields(value, ["schemaVersion", "worktrees"]);
	return {
		schemaVersion: exactly(file.schemaVersion, 1),
		worktrees: recordOf(file.worktrees, (item) => {
			const entry = fields(item, ["root", "firstSeen", "lastSeen"]);
			return { root: nonEmpty(entry.root), firstSeen: num(entry.firstSeen), lastSeen: num(entry.lastSeen) };
		}),
	};
}

export interface WorktreeIndexOptions {
	/** boulder's own state folder; wins over the environment. */
	stateHome?: string;
	/** Defaults to `process.env`. */
	env?: Record<string, string | undefined>;
	clock?: Clock;
	lock?: LockOptions;
}

/**
 * Contract: boulder's per-user state folder, always absolute. Relative
 * values in the environment are ignored, as the XDG spec asks, and an empty
 * or relative `HOME` too (`user-home.ts`).
 */
export function boulderStateHome(options: Pick<WorktreeIndexOptions, "stateHome" | "env"> = {}): string {
	if (options.stateHome) return path.resolve(options.stateHome);
	const env = options.env ?? process.env;
	const own = env.BOULDER_STATE_HOME;
	if (own && path.isAbsolute(own)) return own;
	return path.join(xdgFolder(env, "XDG_STATE_HOME", path.join(".local", "state")), "boulder");
}

export function worktreeIndexFile(options: WorktreeIndexOptions = {}): string {
	return path.join(boulderStateHome(options), WORKTREE_INDEX_FILE);
}

/** The stamp of one worktree: its modification time is when `refreshWorktree` last recorded it. */
export function worktreeStampFile(root: string, options: WorktreeIndexOptions = {}): string {
	return path.join(boulderStateHome(options), WORKTREE_STAMPS_DIR, hash64(path.resolve(root)));
}

/**
 * Records the worktree unless its stamp says it was recorded less than
 * `refreshMs` ago, then stamps it. The check is one lstat, whatever the size
 * of the index. The stamp only ever delays a recording: an index removed or
 * reset while the stamp is fresh gets the worktree back within `refreshMs`,
 * and a stamp dated after now (a clock set back) counts as old, beyond the
 * lock's `FUTURE_SKEW_MS`.
 *
 * Contract: "recent": nothing was read or written; throws what recording or
 * stamping throws (the index is written before the stamp, so a failed stamp
 * costs only a recording again next time).
 */
export async function refreshWorktree(
	root: string,
	refreshMs: number,
	options: WorktreeIndexOptions = {},
): Promise<"recent" | "recorded"> {
	const clock = options.clock ?? systemClock;
	const stamp = worktreeStampFile(root, options);
	const stampedAt = stampTime(stamp);
	const now = clock.now();
	// A file system may round the time it was given up; beyond that skew, a stamp from the future is an old one.
	if (stampedAt !== null && stampedAt - now <= FUTURE_SKEW_MS && now - stampedAt < refreshMs) return "recent";
	const entry = await recordWorktree(root, { ...options, clock });
	await writeStamp(stamp, entry.lastSeen);
	return "recorded";
}

/** The stamp's modification time; null when there is none (or something else is in its place). */
function stampTime(stamp: string): number | null {
	try {
		const stats = lstatSync(stamp, { throwIfNoEntry: false });
		return stats?.isFile() ? stats.mtimeMs : null;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return null;
		throw error;
	}
}

async function writeStamp(stamp: string, at: number): Promise<void> {
	const dir = path.dirname(stamp);
	await ensureDir(dir);
	const handle = await inFolder(dir, () => openStateFile(stamp, "append"));
	try {
		const time = new Date(at);
		await handle.utimes(time, time);
	} finally {
		await handle.close();
	}
}

/** Adds the worktree or refreshes its last-seen time (atomic, under the index's lock). */
export async function recordWorktree(root: string, options: WorktreeIndexOptions = {}): Promise<WorktreeEntry> {
	const file = worktreeIndexFile(options);
	const clock = options.clock ?? systemClock;
	const key = path.resolve(root);
	return withLock(
		file,
		async (lock) => {
			const read = await readVersionedFile(file, worktreeIndexSpec, { clock, held: lock });
			if (read.kind === "unreadable" && read.problem.movedTo === null) {
				throw new BoulderError("state-unreadable", `${file} cannot be used: ${read.problem.reason}`);
			}
			const index: WorktreeIndex = read.kind === "ok" ? read.value : { schemaVersion: 1, worktrees: {} };
			const now = clock.now();
			const entry: WorktreeEntry = { root: key, firstSeen: index.worktrees[key]?.firstSeen ?? now, lastSeen: now };
			const next: WorktreeIndex = { ...index, worktrees: { ...index.worktrees, [key]: entry } };
			lock.assertHeld();
			await writeVersionedFile(file, worktreeIndexSpec, next);
			return entry;
		},
		options.lock,
	);
}

/** The index as stored: `missing` before any worktree was recorded. */
export async function readWorktreeIndex(options: WorktreeIndexOptions = {}): Promise<Read<WorktreeIndex>> {
	const read = await readVersionedFile(worktreeIndexFile(options), worktreeIndexSpec, {
		clock: options.clock ?? systemClock,
		lock: options.lock ?? {},
	});
	return read.kind === "ok" ? { kind: "ok", value: read.value } : read;
}

/** Known worktrees, most recently seen first; empty if the index is missing or unreadable. */
export async function listWorktrees(options: WorktreeIndexOptions = {}): Promise<WorktreeEntry[]> {
	return (await readWorktreeList(options)).entries;
}

export interface WorktreeList {
	/** Most recently seen first. */
	entries: WorktreeEntry[];
	/** Set when the index could not be read: the list is then empty, and this says why and where the file went. */
	problem: StateProblem | null;
}

/** Like `listWorktrees`, saying why the list is empty when the index was unreadable. */
export async function readWorktreeList(options: WorktreeIndexOptions = {}): Promise<WorktreeList> {
	const read = await readWorktreeIndex(options);
	if (read.kind === "unreadable") return { entries: [], problem: read.problem };
	if (read.kind === "missing") return { entries: [], problem: null };
	const entries = Object.values(read.value.worktrees).sort(
		(a, b) => b.lastSeen - a.lastSeen || a.root.localeCompare(b.root),
	);
	return { entries, problem: null };
}
