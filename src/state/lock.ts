/**
 * Cross-process lock around a state file, built on proper-lockfile (a `mkdir`
 * lock folder `<file>.lock` whose mtime the holder keeps fresh).
 *
 * Why the extra layer: proper-lockfile's own retries have no deadline, its
 * default reaction to a lost lock is to throw inside a timer (which would
 * crash the harness we run in), and callers in one process should queue
 * rather than poll each other. Here the wait is bounded, a dead holder's lock
 * is taken over once stale, and a lost lock is reported to the holder.
 */
import { lstat, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import { BoulderError } from "../core/errors.js";
import { attachCleanupError, ensureDir } from "./atomic-write.js";

export interface LockOptions {
	/** How long to wait for the lock before failing with `lock-timeout`. */
	waitMs?: number;
	/** A lock folder untouched this long belongs to a dead holder and is taken over (min 2000). */
	staleMs?: number;
	/** How often the holder refreshes its lock folder (min 1000, max staleMs / 2). */
	updateMs?: number;
	/** Told when the lock is lost while held; the holder's `assertHeld` fails from then on. */
	onCompromised?: (error: Error) => void;
}

/**
 * The wait outlasts the stale time, so a lock left by a holder that died is
 * always taken over within one default wait.
 */
export const DEFAULT_LOCK_OPTIONS = {
	waitMs: 7_000,
	staleMs: 5_000,
	updateMs: 1_000,
} as const satisfies LockOptions;

/**
 * A lock folder stamped further ahead than this was not refreshed by a live
 * holder on this clock: the clock stepped back (NTP, a VM restored) while its
 * holder was gone. proper-lockfile would wait until the clock caught up (a
 * day, a year); it is stale now.
 */
export const FUTURE_SKEW_MS = 2_000;

/** Minimums enforced by proper-lockfile; ours are clamped the same way so the maths agree. */
const MIN_STALE_MS = 2_000;
const MIN_UPDATE_MS = 1_000;

export interface LockHandle {
	readonly file: string;
	/**
	 * Contract: call right before committing a write. Throws `lock-timeout` if
	 * the lock may have been lost: reported compromised, or held longer than
	 * the stale time (after which a waiter could have taken it over while this
	 * process was stalled).
	 */
	assertHeld(): void;
}

export function lockFolderOf(file: string): string {
	return `${file}.lock`;
}

export function resolveLockOptions(options: LockOptions = {}): Required<Omit<LockOptions, "onCompromised">> {
	const staleMs = Math.max(options.staleMs ?? DEFAULT_LOCK_OPTIONS.staleMs, MIN_STALE_MS);
	const updateMs = Math.max(Math.min(options.updateMs ?? DEFAULT_LOCK_OPTIONS.updateMs, staleMs / 2), MIN_UPDATE_MS);
	const waitMs = Math.max(options.waitMs ?? DEFAULT_LOCK_OPTIONS.waitMs, 0);
	return { waitMs, staleMs, updateMs };
}

/** In-process FIFO per lock folder, so callers in one process do not poll each other. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding the lock on `file` (which need not exist; its folder
 * is created if missing).
 *
 * Contract: at most one `withLock(file)` body runs at a time across processes
 * that use the same stale time. Fails with `BoulderError("lock-timeout")`,
 * naming the file, if the lock is not acquired within `waitMs`.
 */
export async function withLock<T>(
	file: string,
	fn: (lock: LockHandle) => Promise<T> | T,
	options: LockOptions = {},
): Promise<T> {
	const settings = resolveLockOptions(options);
	const deadline = monotonicMs() + settings.waitMs;
	const key = lockFolderOf(path.resolve(file));

	const previous = queues.get(key) ?? Promise.resolve();
	let leave: () => void = () => {};
	const mine = new Promise<void>((resolve) => {
		leave = resolve;
	});
	const tail = previous.then(() => mine);
	queues.set(key, tail);
	try {
		const reachedFront = await waitUntil(previous, deadline);
		if (!reachedFront) throw lockTimeout(file, settings.waitMs, "another caller in this process holds it");
		await ensureDir(path.dirname(path.resolve(file)));
		return await holdWhile(file, settings, options.onCompromised, deadline, fn);
	} finally {
		leave();
		if (queues.get(key) === tail) queues.delete(key);
	}
}

async function holdWhile<T>(
	file: string,
	settings: Required<Omit<LockOptions, "onCompromised">>,
	onCompromised: LockOptions["onCompromised"],
	deadline: number,
	fn: (lock: LockHandle) => Promise<T> | T,
): Promise<T> {
	let compromised: Error | null = null;
	const release = await acquire(
		file,
		settings,
		(error) => {
			compromised = error;
			// This runs in proper-lockfile's timer: a throw here would crash the host process.
			try {
				onCompromised?.(error);
			} catch (callbackError) {
				attachCleanupError(error, callbackError);
			}
		},
		deadline,
	);
	const acquiredAt = monotonicMs();
	const handle: LockHandle = {
		file,
		assertHeld() {
			if (compromised) {
				throw new BoulderError("lock-timeout", `Lost the lock on ${file}: ${compromised.message}`, {
					cause: compromised,
				});
			}
			const held = monotonicMs() - acquiredAt;
			if (held >= settings.staleMs) {
				throw new BoulderError(
					"lock-timeout",
					`Held the lock on ${file} for ${Math.round(held)} ms, longer than its stale time (${settings.staleMs} ms); not committing.`,
				);
			}
		},
	};
	let result: T;
	try {
		result = await fn(handle);
	} catch (error) {
		await release().catch((releaseError: unknown) => attachCleanupError(error, releaseError));
		throw error;
	}
	try {
		await release();
	} catch (releaseError) {
		throw new BoulderError(
			"lock-timeout",
			`Could not release the lock on ${file} cleanly: ${messageOf(releaseError)}`,
			{
				cause: compromised ?? releaseError,
			},
		);
	}
	if (compromised) handle.assertHeld();
	return result;
}

async function acquire(
	file: string,
	settings: Required<Omit<LockOptions, "onCompromised">>,
	onCompromised: (error: Error) => void,
	deadline: number,
): Promise<() => Promise<void>> {
	let delay = 5;
	for (;;) {
		try {
			return await lockfile.lock(file, {
				stale: settings.staleMs,
				update: settings.updateMs,
				realpath: false,
				retries: 0,
				onCompromised,
			});
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			// ENOTDIR: proper-lockfile found a link where its folder should be and could not remove it.
			if (code !== "ELOCKED" && code !== "ENOTDIR") {
				throw new BoulderError("internal", `Could not lock ${file}: ${messageOf(error)}`, { cause: error });
			}
			if (await clearedUnusableLock(file)) continue;
			if (code === "ENOTDIR") {
				throw new BoulderError("internal", `Could not lock ${file}: ${messageOf(error)}`, { cause: error });
			}
		}
		const left = deadline - monotonicMs();
		if (left <= 0) throw lockTimeout(file, settings.waitMs, "another process holds it");
		// Jitter keeps waiting processes from retrying in lockstep.
		await sleep(Math.min(left, delay * (0.5 + Math.random())));
		delay = Math.min(delay * 1.5, 50);
	}
}

/**
 * Takes away what proper-lockfile cannot: a lock folder dated in the future
 * (see `FUTURE_SKEW_MS`), and a link or file in the lock folder's place (a
 * checkout can carry one; proper-lockfile would stat through it and wait on it
 * forever). A link is removed, never followed. True when something was
 * removed, so the caller retries at once.
 */
async function clearedUnusableLock(file: string): Promise<boolean> {
	const folder = lockFolderOf(file);
	let found: Awaited<ReturnType<typeof lstat>>;
	try {
		found = await lstat(folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
		throw error;
	}
	try {
		if (found.isSymbolicLink()) {
			await unlink(folder);
			return true;
		}
		if (!found.isDirectory()) {
			throw new BoulderError(
				"state-unreadable",
				`${folder} is not a lock folder (it is a file); boulder cannot lock ${file} until it is moved away.`,
			);
		}
		if (found.mtimeMs <= Date.now() + FUTURE_SKEW_MS) return false;
		// Looked at again right before removing: a waiter that cleared it first may hold a fresh lock by now
		// (another inode, a current time). Should that still slip through, the holder's lock reads as compromised.
		const again = await lstat(folder);
		if (again.ino !== found.ino || again.mtimeMs !== found.mtimeMs) return true;
		await rmdir(folder);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return true;
		throw error;
	}
}

function lockTimeout(file: string, waitMs: number, why: string): BoulderError {
	return new BoulderError(
		"lock-timeout",
		`Timed out after ${waitMs} ms waiting for the lock on ${file} (${why}). If no boulder process is running, remove ${lockFolderOf(file)}.`,
	);
}

/** Resolves true once `promise` settles, false if the deadline passes first. */
async function waitUntil(promise: Promise<void>, deadline: number): Promise<boolean> {
	const left = deadline - monotonicMs();
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), Math.max(left, 0));
	});
	try {
		return await Promise.race([promise.then(() => true as const), timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/** Milliseconds on a monotonic clock; `performance.now()` would load perf_hooks, a cost every hook pays at start-up. */
function monotonicMs(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
