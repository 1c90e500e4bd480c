/**
 * How big the fuzzers and crash tests run. `npm test` runs them small, so the
 * suite stays quick; `npm run fuzz` sets `BOULDER_FUZZ=full` for the counts
 * the hardening is proved at (see docs/bad-input.md).
 *
 * - `BOULDER_FUZZ=full`: the full counts.
 * - `BOULDER_FUZZ_SEED=<n>`: replays a run (every finding names its seed).
 *   Small runs use a fixed seed, so `npm test` is the same run every time;
 *   full runs pick a new one unless told.
 * - `BOULDER_FUZZ_TMP=<folder>`: where the fuzzers make their worktrees.
 */
import { existsSync } from "node:fs";
import os from "node:os";

export const FULL = process.env.BOULDER_FUZZ === "full";

/** The count for this run: `small` in `npm test`, `full` under `BOULDER_FUZZ=full`. */
export function scaled(small: number, full: number): number {
	return FULL ? full : small;
}

const FIXED_SEED = 20261130;

export const SEED = ((): number => {
	const given = process.env.BOULDER_FUZZ_SEED;
	if (given !== undefined && given.trim() !== "") {
		const seed = Number(given);
		if (!Number.isSafeInteger(seed)) throw new Error(`BOULDER_FUZZ_SEED must be an integer, not ${given}`);
		return seed;
	}
	return FULL ? Math.floor(Math.random() * 2 ** 31) : FIXED_SEED;
})();

/**
 * A folder for the fuzzers' worktrees: RAM-backed where the system has one,
 * since they write hundreds of thousands of state files and each write is
 * fsynced (on a disk that alone would take hours). The crash tests do not
 * use it: they want real disk writes to kill.
 */
export function fuzzTempBase(): string {
	const given = process.env.BOULDER_FUZZ_TMP;
	if (given) return given;
	return process.platform === "linux" && existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
}

/** A generous bound to catch a hang (never a timing assertion): a call that takes longer is reported as hung. */
export const HANG_MS = 5_000;

export class Hang extends Error {
	constructor(what: string, ms: number) {
		super(`${what} did not settle within ${ms} ms`);
		this.name = "Hang";
	}
}

/**
 * `work`, or a `Hang` once `ms` have passed. The timer is cleared as soon as
 * the work settles, so a quick call leaves nothing behind.
 */
export async function withinBound<T>(work: Promise<T>, what: string, ms = HANG_MS): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const bound = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Hang(what, ms)), ms);
	});
	try {
		return await Promise.race([work, bound]);
	} finally {
		clearTimeout(timer);
	}
}

/** A short, printable account of a value for a finding: its start, escaped, and its size. */
export function sketch(value: unknown, max = 300): string {
	let text: string;
	if (value instanceof Uint8Array)
		text = `bytes(${value.length}) ${Buffer.from(value.subarray(0, 60)).toString("hex")}`;
	else if (typeof value === "string") text = JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
	else {
		try {
			text = JSON.stringify(value) ?? String(value);
		} catch (error) {
			text = `(unprintable: ${error instanceof Error ? error.message : String(error)})`;
		}
	}
	return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
