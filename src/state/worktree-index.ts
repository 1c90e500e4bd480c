/**
 * The index of worktrees boulder has seen, for `boulder status --all` and the
 * dashboard: one small versioned file in the user's state folder
 * (`$BOULDER_STATE_HOME`, else `$XDG_STATE_HOME/boulder`, else
 * `~/.local/state/boulder`). It is a convenience list: a bad index is moved
 * aside like any state file and rebuilt as worktrees are seen again.
 */
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { exactly, fields, handCheck, nonEmpty, num, recordOf } from "../core/hand-check.js";
import { z } from "../core/zod.js";
import { type LockOptions, withLock } from "./lock.js";
import { type Clock, type Read, type StateProblem, systemClock } from "./store.js";
import { readVersionedFile, type VersionedFileSpec, writeVersionedFile } from "./versioned-file.js";

export const WORKTREE_INDEX_FILE = "worktrees.json";

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
 * Contract: boulder's per-user state folder. Relative values in the
 * environment are ignored, as the XDG spec asks.
 */
export function boulderStateHome(options: Pick<WorktreeIndexOptions, "stateHome" | "env"> = {}): string {
	if (options.stateHome) return path.resolve(options.stateHome);
	const env = options.env ?? process.env;
	const own = env.BOULDER_STATE_HOME;
	if (own && path.isAbsolute(own)) return own;
	const xdg = env.XDG_STATE_HOME;
	if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "boulder");
	return path.join(env.HOME || os.homedir(), ".local", "state", "boulder");
}

export function worktreeIndexFile(options: WorktreeIndexOptions = {}): string {
	return path.join(boulderStateHome(options), WORKTREE_INDEX_FILE);
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
