/**
 * Reading the decision log from its end, for a view that stays open (the
 * dashboard): the newest lines without reading a large log whole, then only
 * the bytes appended since the last look. A log rotated in between is
 * followed into its rotated file by inode, so no line is lost or shown twice;
 * when the rotated file is gone too, the reader says there was a gap.
 *
 * Lines are parsed as `decision-log.ts` parses them: one that does not parse
 * (torn, hand-edited, another version) is skipped and counted, and so is a
 * line longer than `MAX_RECORD_BYTES`, which is never held in memory: what a
 * look holds is bounded by the records it returns, not by the file. A line
 * still being written (no newline yet) is left for the next look, unless it
 * is already longer than any record.
 *
 * Contract: only reads. A missing log reads as empty.
 */
import { type FileHandle, lstat } from "node:fs/promises";
import type { DecisionRecord } from "../core/decision-record.js";
import { MAX_LOG_SCAN_BYTES, MAX_RECORD_BYTES, parseDecisionLine, rotatedLogFile } from "./decision-log.js";
import { openStateFile } from "./state-file.js";

/**
 * Where a reader stopped: the current file's inode, its first bytes (an inode
 * number is reused once a rotated file is deleted, so the inode alone does not
 * say it is the same file) and the offset just after its last whole line.
 */
export interface LogPosition {
	ino: number;
	head: string;
	offset: number;
}

export interface TailRead {
	/** Oldest first. */
	records: DecisionRecord[];
	skipped: number;
	position: LogPosition;
	/** Lines may have been missed: the log rotated past every file kept since the last look. */
	gap: boolean;
}

const CHUNK = 64 * 1024;
const START: LogPosition = { ino: 0, head: "", offset: 0 };
/** Enough of a file's first line to tell two log files apart (each line starts with its own time). */
const HEAD_BYTES = 96;

/** The newest `limit` records across the current and rotated files, reading each from its end. */
export async function readNewestDecisions(file: string, options: { limit: number; keep: number }): Promise<TailRead> {
	const current = await statOrNull(file);
	const position: LogPosition = current ? { ino: current.ino, head: "", offset: 0 } : START;
	const newestFirst: DecisionRecord[][] = [];
	let found = 0;
	let skipped = 0;
	for (let n = 0; n <= options.keep && found < options.limit; n++) {
		const name = rotatedLogFile(file, n);
		const size = n === 0 ? (current?.size ?? 0) : ((await statOrNull(name))?.size ?? 0);
		const read = await readBackwards(name, size, options.limit - found);
		if (n === 0) position.offset = read.end;
		if (n === 0) position.head = await headOf(file, read.end);
		newestFirst.push(read.records);
		found += read.records.length;
		skipped += read.skipped;
	}
	const records = newestFirst.reverse().flat();
	return { records: records.slice(Math.max(0, records.length - options.limit)), skipped, position, gap: false };
}

/** The records appended since `position`, following a rotation into the rotated files. */
export async function readDecisionsSince(
	file: string,
	position: LogPosition,
	options: { keep: number },
): Promise<TailRead> {
	const current = await statOrNull(file);
	if (!current) return { records: [], skipped: 0, position: START, gap: false };
	if (await isSameFile(file, current, position)) {
		const read = await readForward(file, position.offset, current.size);
		const head = await headOf(file, read.end);
		return { ...read, position: { ino: current.ino, head, offset: read.end }, gap: false };
	}
	const records: DecisionRecord[] = [];
	let skipped = 0;
	let gap = position.ino !== 0;
	for (let n = options.keep; n >= 1; n--) {
		const name = rotatedLogFile(file, n);
		const rotated = await statOrNull(name);
		if (!rotated || !(await isSameFile(name, rotated, position))) continue;
		gap = false;
		const read = await readForward(name, position.offset, rotated.size);
		records.push(...read.records);
		skipped += read.skipped;
		for (let newer = n - 1; newer >= 1; newer--) {
			const whole = await readForward(rotatedLogFile(file, newer), 0, Number.POSITIVE_INFINITY);
			records.push(...whole.records);
			skipped += whole.skipped;
		}
		break;
	}
	const fresh = await readForward(file, 0, current.size);
	records.push(...fresh.records);
	const next = { ino: current.ino, head: await headOf(file, fresh.end), offset: fresh.end };
	return { records, skipped: skipped + fresh.skipped, position: next, gap };
}

/** Whether `file` is the one `position` was taken in: the same inode, no shorter, and the same first bytes. */
async function isSameFile(file: string, found: { ino: number; size: number }, position: LogPosition): Promise<boolean> {
	if (found.ino !== position.ino || found.size < position.offset) return false;
	return (await headOf(file, position.offset)) === position.head;
}

/** The first bytes of the file, up to `upTo` (only whole lines are known to stay as they are). */
async function headOf(file: string, upTo: number): Promise<string> {
	const length = Math.min(HEAD_BYTES, upTo);
	if (length <= 0) return "";
	const handle = await openOrNull(file);
	if (!handle) return "";
	try {
		const bytes = Buffer.alloc(length);
		const { bytesRead } = await handle.read(bytes, 0, length, 0);
		return bytes.subarray(0, bytesRead).toString("base64");
	} finally {
		await handle.close();
	}
}

interface Chunked {
	records: DecisionRecord[];
	skipped: number;
	/** The offset just after the last whole line read. */
	end: number;
}

/**
 * Whole lines between `from` and `to`, read a chunk at a time; a last line
 * without its newline is left unread (unless it is over-long: then it is
 * skipped, and the next look starts after it).
 */
async function readForward(file: string, from: number, to: number): Promise<Chunked> {
	const handle = await openOrNull(file);
	if (!handle) return { records: [], skipped: 0, end: from };
	try {
		const size = Math.min(to, (await handle.stat()).size);
		const out = new LineSink();
		let end = from;
		let at = from;
		/** The start of the line being read, kept until its newline (never more than a record's length). */
		let carry: Buffer = Buffer.alloc(0);
		let overlong = false;
		const chunk = Buffer.allocUnsafe(CHUNK);
		while (at < size) {
			const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, size - at), at);
			if (bytesRead === 0) break;
			const bytes = chunk.subarray(0, bytesRead);
			let start = 0;
			for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
				const piece = bytes.subarray(start, newline);
				if (overlong || carry.length + piece.length > MAX_RECORD_BYTES) out.overlong();
				else out.line(carry.length > 0 ? Buffer.concat([carry, piece]) : piece);
				carry = Buffer.alloc(0);
				overlong = false;
				start = newline + 1;
				end = at + start;
			}
			at += bytesRead;
			if (!overlong && start < bytesRead) {
				if (carry.length + bytesRead - start > MAX_RECORD_BYTES) {
					overlong = true;
					carry = Buffer.alloc(0);
				} else carry = Buffer.concat([carry, bytes.subarray(start)]);
			}
		}
		// A last line already longer than any record will not become one: skipped now, not read again.
		if (overlong) {
			out.overlong();
			end = at;
		}
		return { ...out.result(), end };
	} finally {
		await handle.close();
	}
}

/** Up to `wanted` records from the end of the first `size` bytes, reading a chunk at a time. */
async function readBackwards(file: string, size: number, wanted: number): Promise<Chunked> {
	const handle = size > 0 ? await openOrNull(file) : null;
	if (!handle) return { records: [], skipped: 0, end: 0 };
	try {
		const head = Buffer.alloc(1);
		let end = size;
		await handle.read(head, 0, 1, size - 1);
		/** The later part of the line whose start is further back (never more than a record's length). */
		let carry: Buffer = Buffer.alloc(0);
		let overlong = false;
		// A last line without its newline is still being written: the next look reads it. Unless it is
		// already longer than any record: then it is skipped now, and the next look starts after it.
		if (head[0] !== 0x0a) {
			const start = await findLineStart(handle, size);
			if (start === null) overlong = true;
			else end = start;
		}
		let skipped = 0;
		let at = overlong ? size : end;
		const newestFirst: DecisionRecord[] = [];
		const take = (line: Buffer | null) => {
			if (line === null) {
				skipped++;
				return;
			}
			const parsed = parseLines([line.toString("utf8")]);
			skipped += parsed.skipped;
			newestFirst.push(...parsed.records);
		};
		const chunk = Buffer.allocUnsafe(CHUNK);
		while (at > 0 && newestFirst.length < wanted) {
			if (size - at >= MAX_LOG_SCAN_BYTES) {
				// Further back than a log boulder keeps: the rest of the file is skipped as one line.
				skipped++;
				at = -1;
				break;
			}
			const start = Math.max(0, at - CHUNK);
			const length = at - start;
			await handle.read(chunk, 0, length, start);
			const bytes = chunk.subarray(0, length);
			let stop = length;
			for (let newline = bytes.lastIndexOf(0x0a, stop - 1); newline !== -1 && newestFirst.length < wanted; ) {
				const piece = bytes.subarray(newline + 1, stop);
				if (overlong || carry.length + piece.length > MAX_RECORD_BYTES) take(null);
				else take(carry.length > 0 ? Buffer.concat([piece, carry]) : piece);
				carry = Buffer.alloc(0);
				overlong = false;
				stop = newline;
				newline = stop > 0 ? bytes.lastIndexOf(0x0a, stop - 1) : -1;
			}
			at = start;
			if (newestFirst.length >= wanted) break;
			if (!overlong && stop > 0) {
				if (carry.length + stop > MAX_RECORD_BYTES) {
					overlong = true;
					carry = Buffer.alloc(0);
				} else carry = Buffer.concat([bytes.subarray(0, stop), carry]);
			}
		}
		if (at === 0 && newestFirst.length < wanted) {
			// The file's first line, which no newline before it ends.
			if (overlong) take(null);
			else if (carry.length > 0) take(carry);
		}
		const records = newestFirst.slice(0, wanted).reverse();
		return { records, skipped, end };
	} finally {
		await handle.close();
	}
}

/**
 * The offset of the start of the line that ends at `size` (0 when the file is
 * one line), looking back no further than a record's length: null for a line
 * longer than that.
 */
async function findLineStart(handle: FileHandle, size: number): Promise<number | null> {
	let at = size;
	const chunk = Buffer.allocUnsafe(CHUNK);
	while (at > 0) {
		if (size - at > MAX_RECORD_BYTES) return null;
		const start = Math.max(0, at - CHUNK);
		await handle.read(chunk, 0, at - start, start);
		const newline = chunk.subarray(0, at - start).lastIndexOf(0x0a);
		if (newline !== -1) return size - (start + newline + 1) > MAX_RECORD_BYTES ? null : start + newline + 1;
		at = start;
	}
	return 0;
}

/** Lines to records, counting what does not parse and what was too long to read. */
class LineSink {
	private readonly records: DecisionRecord[] = [];
	private skipped = 0;

	line(bytes: Buffer): void {
		const parsed = parseLines([bytes.toString("utf8")]);
		this.records.push(...parsed.records);
		this.skipped += parsed.skipped;
	}

	overlong(): void {
		this.skipped++;
	}

	result(): { records: DecisionRecord[]; skipped: number } {
		return { records: this.records, skipped: this.skipped };
	}
}

function parseLines(lines: readonly string[]): { records: DecisionRecord[]; skipped: number } {
	const records: DecisionRecord[] = [];
	let skipped = 0;
	for (const line of lines) {
		if (line.trim() === "") continue;
		const record = parseDecisionLine(line);
		if (record) records.push(record);
		else skipped++;
	}
	return { records, skipped };
}

async function statOrNull(file: string): Promise<{ ino: number; size: number } | null> {
	try {
		// Of the path itself: a link in the log's place is refused by the open, not followed here.
		const found = await lstat(file);
		return { ino: found.ino, size: found.size };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

/** Null when missing; a link, FIFO or folder in the log's place is refused (`NotAStateFileError`). */
async function openOrNull(file: string): Promise<FileHandle | null> {
	return openStateFile(file, "read");
}
