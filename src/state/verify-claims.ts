/**
 * Which works have their verify commands running, and in which process: a
 * file per worktree in the user's state folder
 * (`verify-claims/<hash of the worktree's real path>.json`), beside the
 * trust record and never in the worktree, so a claim that came with a
 * checkout (a committed file naming a live process, pid 1 say) holds
 * nothing back. A Stop that finds a live claim for its work
 * does not start a second `npm test` beside the first; a claim whose process
 * and process group are gone, or that outlived its deadline, is stale and
 * taken over. The claim is written before the commands start and the verify
 * process group is added as soon as it exists, so even a hook killed with
 * SIGKILL leaves a claim that names the group still running.
 */
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { hash64 } from "../core/hash.js";
import { z } from "../core/zod.js";
import { type LockOptions, withLock } from "./lock.js";
import type { Clock } from "./state-words.js";
import { trustRoot } from "./trust.js";
import { readVersionedFile, type VersionedFileSpec, writeVersionedFile } from "./versioned-file.js";

/** The folder of the user's state folder that holds each worktree's verify claims. */
export const VERIFY_CLAIMS_DIR_NAME = "verify-claims";

/** The verify claims of a worktree: in the user's state folder, keyed by its real path as the trust record is. */
export function verifyClaimsFileOf(stateHome: string, worktree: string): string {
	return path.join(stateHome, VERIFY_CLAIMS_DIR_NAME, `${hash64(trustRoot(worktree))}.json`);
}

export const VerifyClaim = z.lazy(() =>
	z.object({
		/** The process that runs the commands (a hook, a plugin's host). */
		pid: z.int(),
		/** The process group of the command running now, once started. */
		group: z.nullable(z.int()),
		at: z.number(),
		/** After this the claim is stale whatever the processes do (the commands' own timeouts have passed). */
		until: z.number(),
	}),
);
export type VerifyClaim = z.infer<typeof VerifyClaim>;

export const VerifyClaimsFile = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		works: z.record(z.string(), VerifyClaim),
	}),
);
export type VerifyClaimsFile = z.infer<typeof VerifyClaimsFile>;

export const verifyClaimsSpec: VersionedFileSpec<VerifyClaimsFile> = {
	label: "verify claims",
	currentVersion: 1,
	schema: VerifyClaimsFile,
	migrations: [],
};

/** The answer to a claim: granted, or the live claim of another process. */
export type ClaimResult = { granted: true } | { granted: false; holder: VerifyClaim };

/**
 * Whether a process (or, negative, a process group) of this user exists:
 * signal 0 only asks. One that belongs to someone else (EPERM) is no verify
 * of this user's, so it holds no claim of theirs.
 */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** A claim stamped further ahead than this is from a clock stepped back, or was not written by boulder here. */
export const CLAIM_FUTURE_SKEW_MS = 2_000;

/** Contract: pure but for asking whether processes are alive. */
export function isLive(claim: VerifyClaim, now: number, alive: (pid: number) => boolean = processAlive): boolean {
	if (now >= claim.until || claim.at > now + CLAIM_FUTURE_SKEW_MS) return false;
	if (claim.pid === process.pid || alive(claim.pid)) return true;
	return claim.group !== null && alive(-claim.group);
}

export interface ClaimOptions {
	clock: Clock;
	lock?: LockOptions;
	alive?: (pid: number) => boolean;
}

async function change<R>(
	file: string,
	options: ClaimOptions,
	fn: (claims: Record<string, VerifyClaim>) => { result: R; next: Record<string, VerifyClaim> | null },
): Promise<R> {
	return withLock(
		file,
		async (lock) => {
			const read = await readVersionedFile(file, verifyClaimsSpec, { clock: options.clock, held: lock });
			// A bad file is moved aside and starts afresh; one that could not even be moved is never written over.
			if (read.kind === "unreadable" && read.problem.movedTo === null) {
				throw new BoulderError("state-unreadable", `${file} cannot be used: ${read.problem.reason}`);
			}
			const claims = read.kind === "ok" ? read.value.works : {};
			const { result, next } = fn(claims);
			if (next !== null) {
				lock.assertHeld();
				await writeVersionedFile(file, verifyClaimsSpec, { schemaVersion: 1, works: next });
			}
			return result;
		},
		options.lock,
	);
}

/** Claims the work's verify for this process until `until`, unless a live claim (this process's own included) holds it. */
export async function claimVerify(
	file: string,
	workId: string,
	until: number,
	options: ClaimOptions,
): Promise<ClaimResult> {
	return change<ClaimResult>(file, options, (claims) => {
		const now = options.clock.now();
		const held = Object.hasOwn(claims, workId) ? claims[workId] : undefined;
		if (held && isLive(held, now, options.alive)) {
			return { result: { granted: false, holder: held }, next: null };
		}
		const mine: VerifyClaim = { pid: process.pid, group: null, at: now, until };
		return { result: { granted: true }, next: { ...claims, [workId]: mine } };
	});
}

/** Names the process group of the command that runs now under this process's claim. */
export async function noteVerifyGroup(
	file: string,
	workId: string,
	group: number | null,
	options: ClaimOptions,
): Promise<void> {
	await change(file, options, (claims) => {
		const held = Object.hasOwn(claims, workId) ? claims[workId] : undefined;
		if (!held || held.pid !== process.pid) return { result: undefined, next: null };
		return { result: undefined, next: { ...claims, [workId]: { ...held, group } } };
	});
}

/** Drops this process's claim (another's is left alone). */
export async function releaseVerify(file: string, workId: string, options: ClaimOptions): Promise<void> {
	await change(file, options, (claims) => {
		const held = Object.hasOwn(claims, workId) ? claims[workId] : undefined;
		if (!held || held.pid !== process.pid) return { result: undefined, next: null };
		const { [workId]: _, ...rest } = claims;
		return { result: undefined, next: rest };
	});
}
