/**
 * Cross-process lock around a state file: a folder `<file>.lock` made with
 * `mkdir` (which only one process can do), whose modification time the
 * holder keeps fresh while it holds it; one left untouched for the stale time
 * belongs to a dead holder and is taken over. This is proper-lockfile's
 * protocol on disk, kept so that any two boulder processes exclude each
 * other, older ones (which lock through proper-lockfile) included; it is
 * written out here because a hook takes two locks per event and proper-lockfile's
 * machinery (its retry and signal-exit modules, a callback chain per step)
 * cost more than the `mkdir`, `lstat` and `rmdir` it comes down to.
 *
 * Beyond the protocol: the wait is bounded, callers in one process queue
 * rather than poll each other, a lost lock is reported to its holder (never
 * thrown inside a timer, which would crash the harness we run in), and a lock
 * folder no live holder could have left (dated in the future, a link or a
 * file in its place) is dealt with at once. A holder's lock folders are
 * removed when its process exits, or ends on SIGHUP, SIGINT or SIGTERM; one
 * killed outright leaves them to be taken over once stale.
 */
import { rmdirSync } from "node:fs";
import { lstat, mkdir, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { attachCleanupError, ensureDir, inFolder } from "./atomic-write.js";
import { stampStateFolder } from "./state-file.js";

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

/** proper-lockfile's minimums: ours are clamped the same way, so a boulder that locks through it agrees on the stale time. */
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

	const queued = queues.get(key);
	const previous = queued ?? Promise.resolve();
	let leave: () => void = () => {};
	const mine = new Promise<void>((resolve) => {
		leave = resolve;
	});
	const tail = previous.then(() => mine);
	queues.set(key, tail);
	try {
		// First in line (a hook's every lock): no wait, so no timer to race it against.
		const reachedFront = queued === undefined || (await waitUntil(queued, deadline));
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
			// This runs in the refresh timer: a throw here would crash the host process.
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
		const release = await tryLock(file, settings, onCompromised);
		if (release) return release;
		const left = deadline - monotonicMs();
		if (left <= 0) throw lockTimeout(file, settings.waitMs, "another process holds it");
		// Jitter keeps waiting processes from retrying in lockstep.
		await sleep(Math.min(left, delay * (0.5 + Math.random())));
		delay = Math.min(delay * 1.5, 50);
	}
}

/** A lock this process holds. */
interface Held {
	readonly folder: string;
	/** The folder's modification time as last set (and read back) by this process. */
	mtimeMs: number;
	/** When this process last refreshed it (wall clock, as the stale test on disk is). */
	refreshedAt: number;
	timer: NodeJS.Timeout | undefined;
	released: boolean;
}

/** The locks this process holds, removed when it exits (`hold`). */
const held = new Set<Held>();

/**
 * Takes the lock if it is free (or dead), else null. Makes the lock folder;
 * one in the way is looked at (`inTheWay`) and, when it was cleared, the
 * folder is made again, a few times at most before the caller waits.
 */
async function tryLock(
	file: string,
	settings: Required<Omit<LockOptions, "onCompromised">>,
	onCompromised: (error: Error) => void,
): Promise<(() => Promise<void>) | null> {
	const folder = lockFolderOf(path.resolve(file));
	for (let attempt = 0; attempt < 3; attempt++) {
		try {
			await inFolder(path.dirname(folder), () => mkdir(folder));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
				throw new BoulderError("internal", `Could not lock ${file}: ${messageOf(error)}`, { cause: error });
			}
			if (await inTheWay(file, folder, settings.staleMs)) return null;
			continue;
		}
		let mtimeMs: number;
		try {
			mtimeMs = (await lstat(folder)).mtimeMs;
		} catch (error) {
			await rmdir(folder).catch(() => {});
			throw new BoulderError("internal", `Could not lock ${file}: ${messageOf(error)}`, { cause: error });
		}
		const lock: Held = { folder, mtimeMs, refreshedAt: Date.now(), timer: undefined, released: false };
		hold(lock);
		keepFresh(lock, settings, onCompromised);
		return () => release(lock);
	}
	return null;
}

/**
 * What is in the lock folder's place: true when it is a live holder's lock
 * (wait for it), false when it was taken away or had gone (try again at
 * once). Taken away: a lock folder untouched for the stale time (its holder
 * died), one dated further ahead than `FUTURE_SKEW_MS` (a dead holder's,
 * stamped before the clock stepped back: it would otherwise be waited on
 * until the clock caught up), and a link (a checkout can carry one: removed,
 * never followed). A file there is an error naming it.
 */
async function inTheWay(file: string, folder: string, staleMs: number): Promise<boolean> {
	try {
		const found = await lstat(folder);
		if (found.isSymbolicLink()) {
			await unlink(folder);
			return false;
		}
		if (!found.isDirectory()) {
			throw new BoulderError(
				"state-unreadable",
				`${folder} is not a lock folder (it is a file); boulder cannot lock ${file} until it is moved away.`,
			);
		}
		const now = Date.now();
		// As proper-lockfile tests it (whole milliseconds), so both agree on when a lock is stale.
		const stale = found.mtime.getTime() < now - staleMs;
		if (!stale && found.mtimeMs <= now + FUTURE_SKEW_MS) return true;
		// Looked at again right before removing: a waiter that cleared it first may hold a fresh lock by now
		// (another inode, a current time). Should that still slip through, the holder's lock reads as compromised.
		const again = await lstat(folder);
		if (again.ino !== found.ino || again.mtimeMs !== found.mtimeMs) return false;
		await rmdir(folder);
		return false;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		if (error instanceof BoulderError) throw error;
		throw new BoulderError("internal", `Could not lock ${file}: ${messageOf(error)}`, { cause: error });
	}
}

/**
 * Every `updateMs` while held, the folder's time is set to now, after
 * checking it is still the one this process set: a folder gone or stamped by
 * someone else means another process took the lock over (this one stalled
 * past the stale time), and the holder is told. A refresh that fails for
 * another reason is tried again a second later, until the stale time since
 * the last good one has passed. The timer never keeps the process alive.
 */
function keepFresh(
	lock: Held,
	settings: Required<Omit<LockOptions, "onCompromised">>,
	onCompromised: (error: Error) => void,
): void {
	const lost = (error: Error) => {
		if (lock.released) return;
		lock.released = true;
		letGo(lock);
		onCompromised(Object.assign(error, { code: "ECOMPROMISED" }));
	};
	const schedule = (ms: number) => {
		lock.timer = setTimeout(refresh, ms);
		lock.timer.unref();
	};
	const retryOrLose = (error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT" || lock.refreshedAt + settings.staleMs < Date.now()) lost(error);
		else schedule(1_000);
	};
	const refresh = async () => {
		lock.timer = undefined;
		if (lock.released) return;
		try {
			const found = await lstat(lock.folder);
			if (lock.released) return;
			if (found.mtimeMs !== lock.mtimeMs) {
				lost(new Error("Unable to update lock within the stale threshold"));
				return;
			}
			await stampStateFolder(lock.folder, new Date());
			const stamped = await lstat(lock.folder);
			if (lock.released) return;
			lock.mtimeMs = stamped.mtimeMs;
			lock.refreshedAt = Date.now();
			schedule(settings.updateMs);
		} catch (error) {
			if (!lock.released) retryOrLose(error as NodeJS.ErrnoException);
		}
	};
	schedule(settings.updateMs);
}

async function release(lock: Held): Promise<void> {
	if (lock.released) throw Object.assign(new Error("Lock is already released"), { code: "ERELEASED" });
	lock.released = true;
	clearTimeout(lock.timer);
	letGo(lock);
	try {
		await rmdir(lock.folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
}

const EXIT_SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM"] as const;
let exitHooked = false;
/** This process's signal listeners: there only while it holds a lock, so a host's signals are its own otherwise. */
let signalListeners: (readonly [NodeJS.Signals, () => void])[] = [];

/**
 * The lock folders this process holds are removed when it exits, and when a
 * signal that ends a process arrives while it holds one. A signal nobody
 * else listened for ends the process by that signal, as it would have; one
 * the host program listens for (an SDK program's Ctrl-C, say, which aborts
 * its run) is left to the host. The listeners are added with the first lock
 * held and removed with the last, as proper-lockfile's were.
 */
function hold(lock: Held): void {
	held.add(lock);
	if (!exitHooked) {
		exitHooked = true;
		process.on("exit", removeHeld);
	}
	if (signalListeners.length > 0) return;
	signalListeners = EXIT_SIGNALS.map((signal) => {
		const alone = process.listenerCount(signal) === 0;
		const onSignal = () => {
			removeHeld();
			if (alone && process.listenerCount(signal) === 0) process.kill(process.pid, signal);
		};
		process.on(signal, onSignal);
		return [signal, onSignal] as const;
	});
}

function letGo(lock: Held): void {
	held.delete(lock);
	if (held.size > 0) return;
	for (const [signal, listener] of signalListeners) process.removeListener(signal, listener);
	signalListeners = [];
}

function removeHeld(): void {
	for (const lock of [...held]) {
		lock.released = true;
		clearTimeout(lock.timer);
		letGo(lock);
		try {
			rmdirSync(lock.folder);
		} catch {
			// Gone already, or it stays until stale: either way nothing more can be done at exit.
		}
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
