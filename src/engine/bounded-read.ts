/**
 * Reading files boulder does not own (a plan, a harness's transcript) without
 * trusting them. Only regular files are read: a FIFO would block the open or
 * the read forever, a device such as `/dev/zero` reads without end, a folder
 * cannot be read as text. A whole-file read stops at a stated size.
 *
 * Symbolic links are followed (a link to a regular file is fine); what
 * counts is what the path finally names. The path is checked before it is
 * opened, so a device is never opened at all; it is opened non-blocking and
 * without taking a terminal, so a FIFO or a terminal swapped in after the
 * check cannot hang the open; and the open handle is checked again, so what
 * is read is what was checked.
 *
 * Contract: these functions reject only with a `FileProblem`.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";

export type FileProblemKind = "missing" | "not-regular" | "too-large" | "unreadable";

/** Why a file cannot be read; `reason` is a phrase that reads after the file's name and a colon. */
export class FileProblem extends Error {
	readonly file: string;
	readonly kind: FileProblemKind;
	readonly reason: string;

	constructor(file: string, kind: FileProblemKind, reason: string, options?: { cause?: unknown }) {
		super(`${file}: ${reason}`, options);
		this.name = "FileProblem";
		this.file = file;
		this.kind = kind;
		this.reason = reason;
	}
}

/** The `FileProblem` behind an error (itself or its cause), if there is one. */
export function fileProblemOf(error: unknown): FileProblem | null {
	if (error instanceof FileProblem) return error;
	if (error instanceof Error && error.cause instanceof FileProblem) return error.cause;
	return null;
}

export interface OpenedFile {
	handle: FileHandle;
	/** The size when it was opened. */
	size: number;
}

/** Non-blocking (a FIFO's open returns at once) and never the process's controlling terminal; 0 where unknown. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Opens a regular file for reading; the caller closes the handle. */
export async function openRegularFile(file: string): Promise<OpenedFile> {
	refuseIrregular(file, await statOf(file, () => stat(file)));
	let handle: FileHandle;
	try {
		handle = await open(file, OPEN_FLAGS);
	} catch (error) {
		throw problemOf(file, error);
	}
	try {
		const stats = await statOf(file, () => handle.stat());
		refuseIrregular(file, stats);
		return { handle, size: stats.size };
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/**
 * The whole text of a regular file (UTF-8) of at most `maxBytes`. The limit
 * holds however the file's size is reported (a file growing while it is
 * read, a size of 0 for a file that has content): reading stops one byte
 * past it.
 *
 * Synchronous inside, with the same checks as `openRegularFile`: what is read
 * is a regular file, which never blocks, and a view that reads a thousand
 * plans pays a thread-pool trip per call otherwise, several per file.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<string> {
	return (await readRegularBytes(file, maxBytes)).toString("utf8");
}

/** The whole of a regular file of at most `maxBytes`, as bytes; as `readRegularFile`. */
export async function readRegularBytes(file: string, maxBytes: number): Promise<Buffer> {
	refuseIrregular(
		file,
		statOfSync(file, () => statSync(file)),
	);
	let fd: number;
	try {
		fd = openSync(file, OPEN_FLAGS);
	} catch (error) {
		throw problemOf(file, error);
	}
	try {
		const { size } = statOfSync(file, () => {
			const stats = fstatSync(fd);
			refuseIrregular(file, stats);
			return stats;
		});
		if (size > maxBytes) throw tooLarge(file, maxBytes);
		// One byte more than the size, to see the end at once; a size of 0 may hide content.
		let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, size > 0 ? size + 1 : 64 * 1024));
		let length = 0;
		for (;;) {
			if (length === buffer.length) {
				if (length > maxBytes) throw tooLarge(file, maxBytes);
				const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
				buffer.copy(bigger, 0, 0, length);
				buffer = bigger;
			}
			let bytesRead: number;
			try {
				bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
			} catch (error) {
				throw problemOf(file, error);
			}
			if (bytesRead === 0) break;
			length += bytesRead;
		}
		if (length > maxBytes) throw tooLarge(file, maxBytes);
		return buffer.subarray(0, length);
	} finally {
		closeSync(fd);
	}
}

/** Reads into `buffer` from `offset` to its end, at that same file position; a read error is a `FileProblem`. */
export async function readAt(
	file: string,
	handle: FileHandle,
	buffer: Buffer,
	offset: number,
	position: number = offset,
): Promise<{ bytesRead: number }> {
	try {
		return await handle.read(buffer, offset, buffer.length - offset, position);
	} catch (error) {
		throw problemOf(file, error);
	}
}

/** A size in words: "4 MB", "640 KB", "12 bytes". */
export function sizeInWords(bytes: number): string {
	const mb = 1024 * 1024;
	if (bytes >= mb) return `${Number.isInteger(bytes / mb) ? bytes / mb : (bytes / mb).toFixed(1)} MB`;
	if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
	return `${bytes} bytes`;
}

function statOfSync(file: string, fn: () => Stats): Stats {
	try {
		return fn();
	} catch (error) {
		throw problemOf(file, error);
	}
}

async function statOf(file: string, fn: () => Promise<Stats>): Promise<Stats> {
	try {
		return await fn();
	} catch (error) {
		throw problemOf(file, error);
	}
}

function refuseIrregular(file: string, stats: Stats): void {
	if (stats.isFile()) return;
	throw new FileProblem(file, "not-regular", `it is ${kindOf(stats)}, not a regular file`);
}

function kindOf(stats: Stats): string {
	if (stats.isDirectory()) return "a folder";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isCharacterDevice()) return "a character device";
	if (stats.isBlockDevice()) return "a block device";
	if (stats.isSocket()) return "a socket";
	return "something other than a file";
}

function tooLarge(file: string, maxBytes: number): FileProblem {
	return new FileProblem(file, "too-large", `it is larger than ${sizeInWords(maxBytes)}, the most boulder reads`);
}

function problemOf(file: string, error: unknown): FileProblem {
	if (error instanceof FileProblem) return error;
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return new FileProblem(file, "missing", "it does not exist", { cause: error });
	const message = error instanceof Error ? error.message : String(error);
	return new FileProblem(file, "unreadable", message, { cause: error });
}

/**
 * The whole lines of the last `tailBytes` of a regular file, oldest first: a
 * line cut by the start of the window is dropped. For readers that want the
 * newest record of a kind in a log that only grows (a goal's state in a
 * transcript). Opened without blocking, as `openRegularFile`.
 *
 * Contract: rejects with a `FileProblem` when the file cannot be opened or read.
 */
export async function readTailLines(file: string, tailBytes: number): Promise<string[]> {
	const { handle, size } = await openRegularFile(file);
	try {
		const start = Math.max(0, size - tailBytes);
		const buffer = Buffer.alloc(size - start);
		await readAt(file, handle, buffer, 0, start);
		const lines = buffer.toString("utf8").split("\n");
		if (start > 0) lines.shift();
		return lines;
	} finally {
		await handle.close();
	}
}
