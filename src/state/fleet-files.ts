/**
 * The fleet's local files, under `<user state folder>/fleet/`: the
 * membership (`member.json`, written by `boulder fleet join`), the
 * shipper's status (`shipper.json`: last error, when to retry), its lock
 * (`shipper.lock`, held for the whole run) and one cursor per worktree
 * (`cursors/<id>.json`: how far that worktree's decision log was shipped).
 *
 * The decision log is the shipper's outbox (docs/fleet.md): a line's place
 * in its log file never changes (the log is append-only and rotation renames
 * whole files), so `<epoch>:<offset>` — a hash of the file's first line and
 * the line's byte offset — names a record for good, whichever shipper reads
 * it and however often. The cursor is only where to start reading.
 *
 * Contract: the hook side reads only with the synchronous, cheap
 * `shipperWanted`; everything else runs in the shipper or the CLI.
 */
import { createHash } from "node:crypto";
import { lstatSync, readSync } from "node:fs";
import { unlink } from "node:fs/promises";
import path from "node:path";
import { type DecisionRecord, DecisionRecord as DecisionRecordSchema } from "../core/decision-record.js";
import { z } from "../core/zod.js";
import { DEFAULT_DECISION_LOG, rotatedLogFile } from "./decision-log.js";
import { DEFAULT_LOCK_OPTIONS, type LockHandle, lockFolderOf, withLock } from "./lock.js";
import { closeStateFile, openStateFileSync, readOpenedStateFileSync } from "./state-file.js";
import { type Clock, systemClock } from "./store.js";
import { readVersionedFile, type VersionedFileSpec, writeVersionedFile } from "./versioned-file.js";
import { boulderStateHome } from "./worktree-index.js";

export const FLEET_DIR_NAME = "fleet";

export function fleetHome(env: Record<string, string | undefined>): string {
	return path.join(boulderStateHome({ env }), FLEET_DIR_NAME);
}

// ---------------------------------------------------------------- membership

export const FleetMember = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		/** A `postgres://` URL; null: the standard `PG*` variables say where. */
		url: z.nullable(z.string()),
		/** This machine's name in the fleet; null: the host name (or `BOULDER_MACHINE`). */
		machine: z.nullable(z.string()),
		joinedAt: z.number(),
	}),
);
export type FleetMember = z.infer<typeof FleetMember>;

export const fleetMemberSpec: VersionedFileSpec<FleetMember> = {
	label: "fleet membership",
	currentVersion: 1,
	schema: FleetMember,
	migrations: [],
};

export function fleetMemberFile(env: Record<string, string | undefined>): string {
	return path.join(fleetHome(env), "member.json");
}

export async function readFleetMember(
	env: Record<string, string | undefined>,
	clock: Clock = systemClock,
): Promise<FleetMember | null> {
	const read = await readVersionedFile(fleetMemberFile(env), fleetMemberSpec, { clock, lock: {} });
	return read.kind === "ok" ? read.value : null;
}

export async function writeFleetMember(env: Record<string, string | undefined>, member: FleetMember): Promise<void> {
	await writeVersionedFile(fleetMemberFile(env), fleetMemberSpec, member);
}

/** Returns whether there was a membership to remove. */
export async function removeFleetMember(env: Record<string, string | undefined>): Promise<boolean> {
	try {
		await unlink(fleetMemberFile(env));
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
}

// ---------------------------------------------------------------- shipper status and lock

export const ShipperStatus = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		lastRunAt: z.nullable(z.number()),
		lastShippedAt: z.nullable(z.number()),
		/** Redacted: never a password. */
		lastError: z.nullable(z.object({ at: z.number(), message: z.string() })),
		/** After a failure, no shipper is started before this (the hook's back-off). */
		retryAt: z.nullable(z.number()),
		failures: z.number(),
	}),
);
export type ShipperStatus = z.infer<typeof ShipperStatus>;

export const shipperStatusSpec: VersionedFileSpec<ShipperStatus> = {
	label: "fleet shipper status",
	currentVersion: 1,
	schema: ShipperStatus,
	migrations: [],
};

export const EMPTY_SHIPPER_STATUS: ShipperStatus = {
	schemaVersion: 1,
	lastRunAt: null,
	lastShippedAt: null,
	lastError: null,
	retryAt: null,
	failures: 0,
};

function shipperStatusFile(env: Record<string, string | undefined>): string {
	return path.join(fleetHome(env), "shipper.json");
}

function shipperLockTarget(env: Record<string, string | undefined>): string {
	return path.join(fleetHome(env), "shipper");
}

export async function readShipperStatus(
	env: Record<string, string | undefined>,
	clock: Clock = systemClock,
): Promise<ShipperStatus> {
	const read = await readVersionedFile(shipperStatusFile(env), shipperStatusSpec, { clock, lock: {} });
	return read.kind === "ok" ? read.value : EMPTY_SHIPPER_STATUS;
}

export async function writeShipperStatus(
	env: Record<string, string | undefined>,
	status: ShipperStatus,
): Promise<void> {
	await writeVersionedFile(shipperStatusFile(env), shipperStatusSpec, status);
}

/** Whether a shipper holds the lock now (its lock folder is fresh). Synchronous and cheap: one lstat. */
export function shipperRunning(env: Record<string, string | undefined>, now: number): boolean {
	try {
		const stats = lstatSync(lockFolderOf(shipperLockTarget(env)));
		return now - stats.mtimeMs < DEFAULT_LOCK_OPTIONS.staleMs;
	} catch {
		// No lock folder (or none readable): no shipper runs.
		return false;
	}
}

/**
 * The hook's question, answered without the network and in well under a
 * millisecond: is a shipper wanted now? No when one runs, or when the last
 * one failed and its back-off has not passed.
 */
export function shipperWanted(env: Record<string, string | undefined>, now: number): boolean {
	if (shipperRunning(env, now)) return false;
	const opened = (() => {
		try {
			return openStateFileSync(shipperStatusFile(env));
		} catch {
			return null;
		}
	})();
	if (opened === null) return true;
	try {
		const raw = JSON.parse(readOpenedStateFileSync(opened.fd).toString("utf8")) as { retryAt?: unknown };
		return !(typeof raw.retryAt === "number" && raw.retryAt > now);
	} catch {
		// An unreadable status file is the shipper's to repair: start it.
		return true;
	} finally {
		closeStateFile(opened.fd);
	}
}

export class ShipperBusy extends Error {
	constructor() {
		super("another shipper is running on this machine");
	}
}

/**
 * Runs `fn` holding the shipper's lock; throws `ShipperBusy` at once when
 * another process holds it. The lock folder is kept fresh while `fn` runs,
 * and is taken over once stale (a shipper killed with SIGKILL).
 */
export async function withShipperLock<T>(
	env: Record<string, string | undefined>,
	fn: (lost: () => boolean) => Promise<T>,
): Promise<T> {
	let compromised = false;
	try {
		return await withLock(shipperLockTarget(env), async (_lock: LockHandle) => fn(() => compromised), {
			waitMs: 0,
			onCompromised: () => {
				compromised = true;
			},
		});
	} catch (error) {
		if ((error as { code?: string }).code === "lock-timeout" && !compromised) throw new ShipperBusy();
		throw error;
	}
}

// ---------------------------------------------------------------- cursors

export const ShipCursor = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(1),
		root: z.string(),
		/** Hash of the first line of the log file being read; null before any line. */
		epoch: z.nullable(z.string()),
		/** Byte offset in that file of the first line not yet shipped. */
		offset: z.number(),
		/** The sequence number the next shipped record gets (order per worktree). */
		seq: z.number(),
		/** Hash of the last snapshot shipped, so an unchanged worktree is not sent again. */
		snapshotHash: z.nullable(z.string()),
		/** Records that rotated out of the log before they were shipped. */
		lost: z.number(),
	}),
);
export type ShipCursor = z.infer<typeof ShipCursor>;

export const shipCursorSpec: VersionedFileSpec<ShipCursor> = {
	label: "fleet cursor",
	currentVersion: 1,
	schema: ShipCursor,
	migrations: [],
};

/** A worktree's id in the fleet: stable for its root on this machine. */
export function worktreeId(root: string): string {
	return createHash("sha256").update(path.resolve(root)).digest("hex").slice(0, 16);
}

/** Where a record goes: the fleet's database, or the OpenTelemetry exporter; each keeps its own cursor. */
export type ShipSink = "fleet" | "otel";

function cursorFile(env: Record<string, string | undefined>, root: string, sink: ShipSink): string {
	return path.join(fleetHome(env), "cursors", `${worktreeId(root)}${sink === "fleet" ? "" : `.${sink}`}.json`);
}

export async function readShipCursor(
	env: Record<string, string | undefined>,
	root: string,
	clock: Clock = systemClock,
	sink: ShipSink = "fleet",
): Promise<ShipCursor | null> {
	const read = await readVersionedFile(cursorFile(env, root, sink), shipCursorSpec, { clock, lock: {} });
	return read.kind === "ok" ? read.value : null;
}

export async function writeShipCursor(
	env: Record<string, string | undefined>,
	cursor: ShipCursor,
	sink: ShipSink = "fleet",
): Promise<void> {
	await writeVersionedFile(cursorFile(env, cursor.root, sink), shipCursorSpec, cursor);
}

export function freshCursor(root: string): ShipCursor {
	return { schemaVersion: 1, root: path.resolve(root), epoch: null, offset: 0, seq: 0, snapshotHash: null, lost: 0 };
}

// ---------------------------------------------------------------- reading the outbox

export interface OutboxLine {
	/** `<epoch>:<offset>`: the record's name for good. */
	key: string;
	seq: number;
	/** null: the line does not parse (torn, hand-edited); it is skipped, never shipped. */
	record: DecisionRecord | null;
}

export interface OutboxRead {
	lines: OutboxLine[];
	/** Where to start next time; commit it only once `lines` are stored. */
	next: ShipCursor;
	/** Whether more lines are waiting after `next` (the batch was full). */
	more: boolean;
}

/** The longest first line hashed into an epoch. */
const EPOCH_BYTES = 4096;

/** Hash of a log file's first complete line, or null when it has none yet. */
function epochOf(fd: number, size: number): string | null {
	const head = Buffer.alloc(Math.min(EPOCH_BYTES, size));
	const read = readSync(fd, head, 0, head.length, 0);
	const newline = head.subarray(0, read).indexOf(0x0a);
	const line = newline >= 0 ? head.subarray(0, newline) : read === EPOCH_BYTES ? head : null;
	if (line === null) return null;
	return createHash("sha256").update(line).digest("hex").slice(0, 16);
}

interface LogFile {
	n: number;
	fd: number;
	size: number;
	epoch: string | null;
}

/**
 * The log's files, oldest first, each open. Contract: the caller closes them
 * (`closeLogFiles`).
 */
function openLogFiles(log: string, keep: number): LogFile[] {
	const files: LogFile[] = [];
	for (let n = keep; n >= 0; n--) {
		let opened: { fd: number; stats: { size: number } } | null = null;
		try {
			opened = openStateFileSync(rotatedLogFile(log, n));
		} catch {
			// Something other than a log file in its place: the decision log's writer moves it aside.
			opened = null;
		}
		if (opened === null) continue;
		files.push({ n, fd: opened.fd, size: opened.stats.size, epoch: epochOf(opened.fd, opened.stats.size) });
	}
	return files;
}

function closeLogFiles(files: LogFile[]): void {
	for (const file of files) closeStateFile(file.fd);
}

/**
 * The lines after `cursor`, at most `limit`, across rotated files. Only
 * whole lines (ending in a newline) are read: a line being written is left
 * for the next read. When the cursor's file rotated out of the log
 * altogether, reading restarts at the oldest file kept, and what was lost
 * is counted in `next.lost` (approximately: the lines are gone).
 */
export function readOutbox(
	log: string,
	cursor: ShipCursor,
	limit: number,
	keep: number = DEFAULT_DECISION_LOG.keep,
): OutboxRead {
	const files = openLogFiles(log, keep);
	try {
		const next = { ...cursor };
		const lines: OutboxLine[] = [];
		let index = cursor.epoch === null ? 0 : files.findIndex((file) => file.epoch === cursor.epoch);
		if (index < 0) {
			// Rotated away unread: start again at the oldest file kept.
			next.lost += 1;
			index = 0;
			next.offset = 0;
		}
		if (cursor.epoch === null) next.offset = 0;
		for (; index < files.length; index++) {
			const file = files[index] as LogFile;
			if (file.epoch === null) break;
			if (next.epoch !== file.epoch) {
				next.epoch = file.epoch;
				next.offset = 0;
			}
			while (next.offset < file.size) {
				if (lines.length >= limit) return { lines, next, more: true };
				const chunk = Buffer.allocUnsafe(Math.min(256 * 1024, file.size - next.offset));
				const got = readSync(file.fd, chunk, 0, chunk.length, next.offset);
				let start = 0;
				let newline = chunk.subarray(0, got).indexOf(0x0a, start);
				if (newline < 0) {
					if (got === chunk.length && chunk.length === 256 * 1024) {
						// One over-long line: skip it whole, shipped as nothing.
						next.offset += got;
						continue;
					}
					break;
				}
				while (newline >= 0 && lines.length < limit) {
					const text = chunk.subarray(start, newline).toString("utf8");
					if (text.trim() !== "") {
						lines.push({ key: `${file.epoch}:${next.offset + start}`, seq: next.seq, record: parse(text) });
						next.seq += 1;
					}
					start = newline + 1;
					newline = chunk.subarray(0, got).indexOf(0x0a, start);
				}
				next.offset += start;
			}
		}
		return { lines, next, more: false };
	} finally {
		closeLogFiles(files);
	}
}

function parse(text: string): DecisionRecord | null {
	try {
		const parsed = DecisionRecordSchema.safeParse(JSON.parse(text));
		return parsed.success ? parsed.data : null;
	} catch {
		// Counted by the shipper as a skipped line.
		return null;
	}
}

/** Whether this machine joined a fleet (`boulder fleet join`): one lstat, for the hook. */
export function fleetJoined(env: Record<string, string | undefined>): boolean {
	try {
		// No membership file: not joined. (Asked without a throw: the hook asks on every decision.)
		return lstatSync(fleetMemberFile(env), { throwIfNoEntry: false })?.isFile() ?? false;
	} catch {
		// Unreadable (a folder in the path that is not one): not joined either.
		return false;
	}
}
