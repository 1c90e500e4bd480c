/**
 * The decision log: one JSON line per decision or event, appended with
 * O_APPEND in a single write so concurrent appenders never interleave inside
 * a line. Rotated by size (`decisions.jsonl` → `decisions.1.jsonl` → …),
 * keeping a bounded number of old files; rotation runs under the log's lock
 * and re-checks the size there, so two appenders never rotate twice.
 *
 * The log explains; it is not what decisions are made from (that is the scope
 * state), so lines are not fsynced: a crash may lose the last few, or leave
 * the last one torn. A torn line is never glued to the next: an append that
 * finds the file not ending in a newline starts with one, and readers skip
 * (and count) the torn line.
 */
import { readSync } from "node:fs";
import { type FileHandle, lstat, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { DecisionRecord, eventRecord, handDecisionRecord } from "../core/decision-record.js";
import { BoulderError } from "../core/errors.js";
import { ensureDir, inFolder, namingFile, syncDir } from "./atomic-write.js";
import { type LockOptions, withLock } from "./lock.js";
import { closeStateFile, isNotAStateFile, openStateFile, openStateFileSync } from "./state-file.js";
import type { ReadDecisionsQuery } from "./store.js";
import { moveAside } from "./versioned-file.js";

export interface DecisionLogOptions {
	/** Rotate before a line would take the current file past this size. */
	maxBytes?: number;
	/** Rotated files kept besides the current one (at least 1). */
	keep?: number;
	lock?: LockOptions;
}

export const DEFAULT_DECISION_LOG = { maxBytes: 1024 * 1024, keep: 3 } as const;

/**
 * The longest line a reader builds: far more than any record boulder writes
 * (a record holds clipped titles and trimmed outputs). A longer line (a
 * hand-edited log, a file that is not a log) is skipped and counted, never
 * held in memory, however far back its start is.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * How far back from its end one log file is read, at most: a file boulder
 * wrote is rotated at `maxBytes` (1 MB), so this is only ever reached in a
 * file that is not a log boulder kept (a huge or sparse one); what lies
 * further back is skipped, counted as one line, and never read.
 */
export const MAX_LOG_SCAN_BYTES = 64 * 1024 * 1024;

export interface DecisionLogRead {
	/** Oldest first, newest last. */
	records: DecisionRecord[];
	/** Lines that did not parse as a decision record (torn, hand-edited, other versions). */
	skipped: number;
}

export interface ReadDecisionsOptions extends ReadDecisionsQuery {
	/** Rotated files to look at; defaults to the log's `keep`. */
	keep?: number;
}

/** `decisions.jsonl` → `decisions.<n>.jsonl`; n = 0 is the current file. */
export function rotatedLogFile(file: string, n: number): string {
	if (n === 0) return file;
	const ext = path.extname(file);
	return `${file.slice(0, file.length - ext.length)}.${n}${ext}`;
}

function keepOf(options: { keep?: number }): number {
	return Math.max(1, Math.floor(options.keep ?? DEFAULT_DECISION_LOG.keep));
}

/**
 * Contract: the record is validated first (an invalid one is a caller bug and
 * is never written), then appended as one line, on a line of its own even
 * after a torn last line.
 */
export async function appendDecisionLine(
	file: string,
	record: DecisionRecord,
	options: DecisionLogOptions = {},
): Promise<void> {
	const checked = handDecisionRecord(record);
	const parsed = checked !== undefined ? { success: true as const, data: checked } : DecisionRecord.safeParse(record);
	if (!parsed.success) {
		throw new BoulderError("internal", `Refusing to log an invalid decision record: ${parsed.error.message}`);
	}
	const line = Buffer.from(`${JSON.stringify(parsed.data)}\n`, "utf8");
	const maxBytes = options.maxBytes ?? DEFAULT_DECISION_LOG.maxBytes;
	await ensureDir(path.dirname(file));
	if (needsRotation(await sizeOf(file), line.length, maxBytes)) {
		await withLock(
			file,
			async (lock) => {
				if (!needsRotation(await sizeOf(file), line.length, maxBytes)) return;
				lock.assertHeld();
				await rotate(file, keepOf(options));
			},
			options.lock,
		);
	}
	const { handle, note } = await inFolder(path.dirname(file), () => openForAppend(file, parsed.data, options));
	try {
		const lines = note ? Buffer.concat([note, line]) : line;
		const bytes = (await endsTorn(handle)) ? Buffer.concat([NEWLINE, lines]) : lines;
		let offset = 0;
		while (offset < bytes.length) {
			const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
			offset += bytesWritten;
		}
	} catch (error) {
		throw namingFile(error, file);
	} finally {
		await handle.close();
	}
}

const NEWLINE = Buffer.from("\n", "utf8");

/**
 * Opens the log for appending. Something other than a regular file in its
 * place (a link a checkout planted, a FIFO, a folder) is never written
 * through: it is moved aside untouched, under the log's lock, and the fresh
 * log starts with an event line saying so (which `boulder doctor` and `why`
 * show).
 */
async function openForAppend(
	file: string,
	record: DecisionRecord,
	options: DecisionLogOptions,
): Promise<{ handle: FileHandle; note: Buffer | null }> {
	try {
		return { handle: await openStateFile(file, "append"), note: null };
	} catch (error) {
		if (!isNotAStateFile(error)) throw error;
		const what = error.what;
		const movedTo = await withLock(
			file,
			async (lock) => {
				try {
					await (await openStateFile(file, "read"))?.close();
					return null;
				} catch (again) {
					if (!isNotAStateFile(again)) throw again;
				}
				lock.assertHeld();
				return moveAside(file, "not-a-file", { now: () => record.at });
			},
			options.lock,
		);
		const handle = await openStateFile(file, "append");
		if (movedTo === null) return { handle, note: null };
		const event = eventRecord({
			at: record.at,
			worktree: record.worktree,
			reason: "state-unreadable",
			detail: `${file} was ${what}; moved aside untouched to ${path.basename(movedTo)} and never written through; the decision log starts afresh`,
		});
		return { handle, note: Buffer.from(`${JSON.stringify(event)}\n`, "utf8") };
	}
}

/**
 * Whether the file's last byte is not a newline: a writer died mid-line. Read
 * without the lock: two appenders that both find it torn add two newlines,
 * and the empty line between is skipped by readers, which costs nothing.
 */
async function endsTorn(handle: FileHandle): Promise<boolean> {
	const { size } = await handle.stat();
	if (size === 0) return false;
	const last = Buffer.alloc(1);
	const { bytesRead } = await handle.read(last, 0, 1, size - 1);
	return bytesRead === 1 && last[0] !== NEWLINE[0];
}

function needsRotation(size: number, adding: number, maxBytes: number): boolean {
	return size > 0 && size + adding > maxBytes;
}

async function rotate(file: string, keep: number): Promise<void> {
	await unlinkIfPresent(rotatedLogFile(file, keep));
	for (let n = keep - 1; n >= 0; n--) {
		await renameIfPresent(rotatedLogFile(file, n), rotatedLogFile(file, n + 1));
	}
	await syncDir(path.dirname(file));
}

/**
 * Reads the current and rotated files, newest last. Each file is read from
 * its end, and reading stops as soon as `limit` records are found (or the
 * caller says it has `enough`), so the
 * newest lines of a log of any size cost what those lines cost. Lines that do
 * not parse are skipped and counted (among the lines read), never silently.
 */
export async function readDecisionLines(file: string, options: ReadDecisionsOptions = {}): Promise<DecisionLogRead> {
	const limit = options.limit ?? Number.POSITIVE_INFINITY;
	const newestFirst: DecisionRecord[] = [];
	let skipped = 0;
	let done = false;
	for (let n = 0; n <= keepOf(options) && !done; n++) {
		for (const line of linesFromEnd(rotatedLogFile(file, n))) {
			if (line !== OVERLONG && line.trim() === "") continue;
			const record = line === OVERLONG ? null : parseDecisionLine(line);
			if (!record) {
				skipped++;
				continue;
			}
			if (options.session !== undefined && record.session !== options.session) continue;
			newestFirst.push(record);
			done = newestFirst.length >= limit || options.enough?.(record) === true;
			if (done) break;
		}
	}
	return { records: newestFirst.reverse(), skipped };
}

/**
 * How much of a log file one read takes, going back from its end: a first
 * small read, since most callers want the newest few lines (a status view
 * reads a hundred logs for a dozen lines each), then bigger ones.
 */
const FIRST_CHUNK_BYTES = 8 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** What `linesFromEnd` yields for a line longer than `MAX_RECORD_BYTES`: its text is never built. */
const OVERLONG: unique symbol = Symbol("over-long line");

/**
 * The lines of a file, last first; nothing when it does not exist. A newline
 * byte never occurs inside a UTF-8 sequence, so lines are cut in bytes and
 * decoded whole; a line longer than `MAX_RECORD_BYTES` is `OVERLONG`, and
 * what is kept of a line whose start is further back never exceeds that.
 * Reading stops `MAX_LOG_SCAN_BYTES` from the end, the rest one `OVERLONG`.
 * Contract: stopping the iteration closes the file.
 *
 * Synchronous: a view reads the newest lines of a hundred logs, and each
 * thread-pool trip (open, stat, read, close) costs more than the read. Only a
 * regular file is read (`openStateFileSync`): a link, FIFO or folder in the
 * log's place is refused with `NotAStateFileError`, naming it.
 */
function* linesFromEnd(file: string): Generator<string | typeof OVERLONG> {
	const opened = openStateFileSync(file);
	if (opened === null) return;
	const { fd, stats } = opened;
	try {
		let position = stats.size;
		// The later pieces, in file order, of a line whose start is further back, and their length.
		let pending: Buffer[] = [];
		let pendingBytes = 0;
		let overlong = false;
		for (let chunkBytes = FIRST_CHUNK_BYTES; position > 0; chunkBytes = CHUNK_BYTES) {
			if (stats.size - position >= MAX_LOG_SCAN_BYTES) {
				yield OVERLONG;
				return;
			}
			const size = Math.min(chunkBytes, position);
			position -= size;
			const chunk = Buffer.allocUnsafe(size);
			readFully(fd, chunk, position);
			let end = size;
			let newline = chunk.lastIndexOf(0x0a, end - 1);
			while (newline >= 0) {
				const piece = chunk.subarray(newline + 1, end);
				if (overlong || pendingBytes + piece.length > MAX_RECORD_BYTES) yield OVERLONG;
				else yield (pending.length > 0 ? Buffer.concat([piece, ...pending]) : piece).toString("utf8");
				pending = [];
				pendingBytes = 0;
				overlong = false;
				end = newline;
				newline = end > 0 ? chunk.lastIndexOf(0x0a, end - 1) : -1;
			}
			if (end > 0 && !overlong) {
				pending.unshift(chunk.subarray(0, end));
				pendingBytes += end;
				if (pendingBytes > MAX_RECORD_BYTES) {
					overlong = true;
					pending = [];
					pendingBytes = 0;
				}
			}
		}
		if (overlong) yield OVERLONG;
		else if (pending.length > 0) yield Buffer.concat(pending).toString("utf8");
	} finally {
		closeStateFile(fd);
	}
}

function readFully(fd: number, into: Buffer, position: number): void {
	let offset = 0;
	while (offset < into.length) {
		const bytesRead = readSync(fd, into, offset, into.length - offset, position + offset);
		if (bytesRead === 0) throw new Error(`${into.length - offset} bytes of the decision log vanished while reading`);
		offset += bytesRead;
	}
}

/** One line of the log as a record, or null when it does not parse (the caller counts it). */
export function parseDecisionLine(line: string): DecisionRecord | null {
	let raw: unknown;
	try {
		raw = JSON.parse(line);
	} catch {
		// Counted by the caller as a skipped line.
		return null;
	}
	const checked = handDecisionRecord(raw);
	if (checked !== undefined) return checked;
	const parsed = DecisionRecord.safeParse(raw);
	return parsed.success ? parsed.data : null;
}

/** Of the path itself: a link in the log's place is not followed (the open refuses it). */
async function sizeOf(file: string): Promise<number> {
	try {
		return (await lstat(file)).size;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
		throw error;
	}
}

async function unlinkIfPresent(file: string): Promise<void> {
	try {
		await unlink(file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
}

async function renameIfPresent(from: string, to: string): Promise<void> {
	try {
		await rename(from, to);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
}
