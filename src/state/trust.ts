/**
 * The trust record: which works in a worktree this user started or approved
 * on this machine, and which exact verify command lists they approved. State
 * that arrives with a checkout (`.boulder/works.json`, a plan's `verify:`
 * front matter) was not written here by this user, so boulder acts on it only
 * once this record says so.
 *
 * It lives in the user's state folder, never in the worktree (a clone could
 * carry a forged one): one small versioned file per worktree,
 * `<state home>/trust/<hash of the worktree's real path>.json`, which names
 * the worktree it belongs to. Only this module writes it, under its lock.
 *
 * A work is known by its id and its start time together: a checkout cannot
 * guess when the user started a work of the same name. A verify list is kept
 * whole and compared exactly, never by a short hash alone.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { arrayOf, exactly, fields, handCheck, nonEmpty, num, recordOf, str } from "../core/hand-check.js";
import { hash64 } from "../core/hash.js";
import { z } from "../core/zod.js";
import { type LockOptions, withLock } from "./lock.js";
import type { Clock, Read, StateProblem } from "./state-words.js";
import { readVersionedFile, type VersionedFileSpec, writeVersionedFile } from "./versioned-file.js";

export const TRUST_DIR_NAME = "trust";

const time = z.lazy(() => z.number());

export const TrustedWork = z.lazy(() =>
	z.object({
		/** The work's own `startedAt`: with the id, what makes it this user's work and not a look-alike. */
		startedAt: time,
		/** When the user started or approved it. */
		at: time,
	}),
);
export type TrustedWork = z.infer<typeof TrustedWork>;

export const ApprovedVerify = z.lazy(() =>
	z.object({
		commands: z.array(z.string()),
		at: time,
	}),
);
export type ApprovedVerify = z.infer<typeof ApprovedVerify>;

export const TrustFile = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		/** The worktree's real path: a record found under another worktree's name is not used. */
		root: z.string().check(z.minLength(1)),
		works: z.record(z.string(), TrustedWork),
		verify: z.array(ApprovedVerify),
	}),
);
export type TrustFile = z.infer<typeof TrustFile>;

export const trustFileSpec: VersionedFileSpec<TrustFile> = {
	label: "trust record",
	currentVersion: 1,
	schema: TrustFile,
	migrations: [],
	quick: handCheck((value) => quickTrustFile(value)),
};

/** `TrustFile`'s well-formed case by hand: the hook reads the trust record on every event. */
function quickTrustFile(value: unknown): TrustFile {
	const file = fields(value, ["schemaVersion", "root", "works", "verify"]);
	return {
		schemaVersion: exactly(file.schemaVersion, 1),
		root: nonEmpty(file.root),
		works: recordOf(file.works, (item) => {
			const work = fields(item, ["startedAt", "at"]);
			return { startedAt: num(work.startedAt), at: num(work.at) };
		}),
		verify: arrayOf(file.verify, (item) => {
			const approved = fields(item, ["commands", "at"]);
			return { commands: arrayOf(approved.commands, str), at: num(approved.at) };
		}),
	};
}

/** At most this many approved verify lists are kept per worktree; the oldest go first. */
export const MAX_APPROVED_LISTS = 32;

/** What the user grants: works they started or approved, and verify lists they approved. */
export interface TrustGrant {
	works?: readonly { id: string; startedAt: number }[];
	verify?: readonly (readonly string[])[];
}

/**
 * Contract: the trust of one worktree as read; `null` from a store that
 * trusts everything it holds (the memory store, for tests of other layers).
 */
export type TrustView = TrustFile | null;

export function emptyTrust(root: string): TrustFile {
	return { schemaVersion: 1, root, works: {}, verify: [] };
}

export function isWorkTrusted(trust: TrustView, work: { id: string; startedAt: number }): boolean {
	if (trust === null) return true;
	const entry = Object.hasOwn(trust.works, work.id) ? trust.works[work.id] : undefined;
	return entry !== undefined && entry.startedAt === work.startedAt;
}

export function isVerifyApproved(trust: TrustView, commands: readonly string[]): boolean {
	if (trust === null || commands.length === 0) return true;
	return trust.verify.some((approved) => sameList(approved.commands, commands));
}

/** The record with the grant added (pure). */
export function withGrant(trust: TrustFile, grant: TrustGrant, now: number): TrustFile {
	const works = { ...trust.works };
	for (const work of grant.works ?? []) works[work.id] = { startedAt: work.startedAt, at: now };
	let verify = [...trust.verify];
	for (const commands of grant.verify ?? []) {
		if (commands.length === 0) continue;
		verify = verify.filter((approved) => !sameList(approved.commands, commands));
		verify.push({ commands: [...commands], at: now });
	}
	return { ...trust, works, verify: verify.slice(-MAX_APPROVED_LISTS) };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((command, index) => command === b[index]);
}

/**
 * The worktree as the trust record names it: its real path, so a link to it
 * is the same worktree. Found once per worktree and process (a hook asks for
 * it for the trust record, the verify claims, the worktree index), by the
 * system's own `realpath` where it has one that agrees with node's.
 */
export function trustRoot(worktree: string): string {
	const known = realPaths.get(worktree);
	if (known !== undefined) return known;
	let found: string;
	try {
		found = process.platform === "win32" ? realpathSync(worktree) : realpathSync.native(worktree);
	} catch {
		return path.resolve(worktree);
	}
	realPaths.set(worktree, found);
	return found;
}

const realPaths = new Map<string, string>();

export function trustFileOf(stateHome: string, worktree: string): string {
	return path.join(stateHome, TRUST_DIR_NAME, `${hash64(trustRoot(worktree))}.json`);
}

export interface TrustBookOptions {
	clock: Clock;
	lock?: LockOptions;
}

/**
 * Reads the worktree's record. Missing, unreadable (moved aside) or written
 * for another root: nothing is trusted (fail closed), and an unreadable one
 * is a problem for `boulder doctor`.
 */
export async function readTrust(
	stateHome: string,
	worktree: string,
	options: TrustBookOptions,
): Promise<{ trust: TrustFile; problem: StateProblem | null }> {
	const root = trustRoot(worktree);
	const read = await readTrustFile(trustFileOf(stateHome, worktree), options);
	if (read.kind === "ok" && read.value.root === root) return { trust: read.value, problem: null };
	return { trust: emptyTrust(root), problem: read.kind === "unreadable" ? read.problem : null };
}

async function readTrustFile(file: string, options: TrustBookOptions): Promise<Read<TrustFile>> {
	const read = await readVersionedFile(file, trustFileSpec, { clock: options.clock, lock: options.lock ?? {} });
	return read.kind === "ok" ? { kind: "ok", value: read.value } : read;
}

/** Adds the grant under the record's lock, atomically. */
export async function grantTrust(
	stateHome: string,
	worktree: string,
	grant: TrustGrant,
	options: TrustBookOptions,
): Promise<TrustFile> {
	const file = trustFileOf(stateHome, worktree);
	const root = trustRoot(worktree);
	return withLock(
		file,
		async (lock) => {
			const read = await readVersionedFile(file, trustFileSpec, { clock: options.clock, held: lock });
			if (read.kind === "unreadable" && read.problem.movedTo === null) {
				throw new BoulderError("state-unreadable", `${file} cannot be used: ${read.problem.reason}`);
			}
			const current = read.kind === "ok" && read.value.root === root ? read.value : emptyTrust(root);
			const next = withGrant(current, grant, options.clock.now());
			lock.assertHeld();
			await writeVersionedFile(file, trustFileSpec, next);
			return next;
		},
		options.lock,
	);
}
