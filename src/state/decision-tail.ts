/**
 * Reading the decision log from its end, for a view that stays open (the
 * dashboard): the newest lines without reading a large log whole, then only
 * the bytes appended since the last look. A log rotated in between is
 * followed into its rotated file by inode, so no line is lost or shown twice;
 * when the rotated file is gone too, the reader says there was a gap.
 *
 * Lines are parsed as `decision-log.ts` parses them: one that does not parse
 * (torn, hand-edited, another version) is skipped and counted. A line still
 * being written (no newline yet) is left for the next look.
 *
 * Contract: only reads. A missing log reads as empty.
 */
import { type FileHandle, lstat } from "node:fs/promises";
import type { DecisionRecord } from "../core/decision-record.js";
import { parseDecisionLine, rotatedLogFile } from "./decision-log.js";
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

/** Whole lines between `from` and `to`; a last line without its newline is left unread. */
async function readForward(file: string, from: number, to: number): Promise<Chunked> {
	const handle = await openOrNull(file);
	if (!handle) return { records: [], skipped: 0, end: from };
	try {
		const size = Math.min(to, (await handle.stat()).size);
		if (size <= from) return { records: [], skipped: 0, end: from };
		const bytes = Buffer.alloc(size - from);
		const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
		const text = bytes.subarray(0, bytesRead);
		const last = text.lastIndexOf(0x0a);
		if (last === -1) return { records: [], skipped: 0, end: from };
		return { ...parseLines(text.subarray(0, last).toString("utf8").split("\n")), end: from + last + 1 };
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
		// A last line without its newline is still being written: the next look reads it.
		if (head[0] !== 0x0a) end = await findLineStart(handle, size);
		let carry = Buffer.alloc(0);
		let at = end;
		let found = 0;
		let skipped = 0;
		const records: DecisionRecord[][] = [];
		while (at > 0 && found < wanted) {
			const start = Math.max(0, at - CHUNK);
			const chunk = Buffer.alloc(at - start);
			await handle.read(chunk, 0, chunk.length, start);
			const joined = Buffer.concat([chunk, carry]);
			at = start;
			let complete = joined;
			carry = Buffer.alloc(0);
			if (start > 0) {
				// The bytes before the chunk's first newline belong to a line that starts further back.
				const first = joined.indexOf(0x0a);
				if (first === -1) {
					carry = joined;
					continue;
				}
				carry = joined.subarray(0, first);
				complete = joined.subarray(first + 1);
			}
			const parsed = parseLines(complete.toString("utf8").split("\n"));
			records.unshift(parsed.records);
			found += parsed.records.length;
			skipped += parsed.skipped;
		}
		const flat = records.flat();
		return { records: flat.slice(Math.max(0, flat.length - wanted)), skipped, end };
	} finally {
		await handle.close();
	}
}

/** The offset of the start of the line that ends at `size` (0 when the file is one line). */
async function findLineStart(handle: FileHandle, size: number): Promise<number> {
	let at = size;
	while (at > 0) {
		const start = Math.max(0, at - CHUNK);
		const chunk = Buffer.alloc(at - start);
		await handle.read(chunk, 0, chunk.length, start);
		const newline = chunk.lastIndexOf(0x0a);
		if (newline !== -1) return start + newline + 1;
		at = start;
	}
	return 0;
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
