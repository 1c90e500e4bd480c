/**
 * The one door to a state file's bytes. Every reader and writer in `state/`
 * opens through here (an architecture test holds the rest of the layer to it),
 * so no state file is ever read or written through a link, a FIFO, a device
 * or a folder in its place: a repository can check out
 * `.boulder/decisions.jsonl -> ../../.bashrc`, and git will.
 *
 * Opened with O_NOFOLLOW (the last component may not be a link) and
 * O_NONBLOCK (a FIFO cannot hang the process), then checked: the open file is
 * a regular file, and the path still names that same file (an lstat of the
 * path agrees with an fstat of what was opened), so a swap between the two
 * cannot slip a different file in.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readlink } from "node:fs/promises";
import { BoulderError } from "../core/errors.js";

/** Every state file is the user's alone, whatever the umask; folders likewise. */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** read: an existing file; append: created if missing, written at its end; create: a new file only. */
export type StateFileUse = "read" | "append" | "create";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

const FLAGS: Record<StateFileUse, number> = {
	read: constants.O_RDONLY | NOFOLLOW | NONBLOCK,
	append: constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK,
	create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
};

/**
 * A state path that holds something other than a regular file. Contract:
 * `what` says which ("a link to ../../.bashrc", "a FIFO", "a folder"), and the
 * message names the file and what to do.
 */
export class NotAStateFileError extends BoulderError {
	readonly file: string;
	readonly what: string;

	constructor(file: string, what: string) {
		super(
			"state-unreadable",
			`${file} is ${what}, not a regular file; boulder never reads or writes its state through anything else. Move it away.`,
		);
		this.name = "NotAStateFileError";
		this.file = file;
		this.what = what;
	}
}

export function isNotAStateFile(error: unknown): error is NotAStateFileError {
	return error instanceof NotAStateFileError;
}

/** What a non-regular file is, in words. */
export function describeFileKind(stats: Stats): string {
	if (stats.isFile()) return "a regular file";
	if (stats.isSymbolicLink()) return "a link";
	if (stats.isDirectory()) return "a folder";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isSocket()) return "a socket";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	return "not a regular file";
}

/**
 * Opens a state file. Resolves null when `use` is "read" and it does not
 * exist. Throws `NotAStateFileError` when the path holds a link, a folder, a
 * FIFO, a device or a socket, or was swapped while being opened.
 */
export async function openStateFile(file: string, use: "read"): Promise<FileHandle | null>;
export async function openStateFile(file: string, use: "append" | "create"): Promise<FileHandle>;
export async function openStateFile(file: string, use: StateFileUse): Promise<FileHandle | null> {
	if (NOFOLLOW === 0) await refuseLinkBeforeOpen(file);
	let handle: FileHandle;
	try {
		handle = await open(file, FLAGS[use], FILE_MODE);
	} catch (error) {
		if (use === "read" && codeOf(error) === "ENOENT") return null;
		throw await explainOpenError(file, error);
	}
	try {
		const opened = await handle.stat();
		if (!opened.isFile()) throw new NotAStateFileError(file, describeFileKind(opened));
		await assertSameFile(file, opened);
		return handle;
	} catch (error) {
		await handle.close().catch(() => {
			// The refusal is what the caller needs to see; a failed close of a file never used loses nothing.
		});
		throw error;
	}
}

/**
 * Synchronous twin of `openStateFile(file, "read")`, for readers that look at
 * hundreds of small files, where each thread-pool trip costs more than the
 * read. Returns the descriptor and what fstat saw; the caller closes it with
 * `closeStateFile`.
 */
export function openStateFileSync(file: string): { fd: number; stats: Stats } | null {
	if (NOFOLLOW === 0) refuseLinkBeforeOpenSync(file);
	let fd: number;
	try {
		fd = openSync(file, FLAGS.read);
	} catch (error) {
		if (codeOf(error) === "ENOENT") return null;
		throw explainOpenErrorSync(file, error);
	}
	try {
		const stats = fstatSync(fd);
		if (!stats.isFile()) throw new NotAStateFileError(file, describeFileKind(stats));
		assertSameFileSync(file, stats);
		return { fd, stats };
	} catch (error) {
		closeSync(fd);
		throw error;
	}
}

/** The whole content of a descriptor from `openStateFileSync`. */
export function readOpenedStateFileSync(fd: number): Buffer {
	return readFileSync(fd);
}

export function closeStateFile(fd: number): void {
	closeSync(fd);
}

/** A folder opened only to fsync it (a rename or unlink in it made durable). */
export async function openStateFolder(dir: string): Promise<FileHandle> {
	return open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
}

/**
 * Sets a lock folder's times to `at` (the lock's refresh: `lock.ts`),
 * through the folder opened without following a link in its place.
 */
export async function stampStateFolder(dir: string, at: Date): Promise<void> {
	const handle = await open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0));
	try {
		await handle.utimes(at, at);
	} finally {
		await handle.close();
	}
}

async function assertSameFile(file: string, opened: Stats): Promise<void> {
	let named: Stats;
	try {
		named = await lstat(file);
	} catch (error) {
		if (codeOf(error) === "ENOENT") throw new NotAStateFileError(file, "gone: it was removed or swapped while opened");
		throw error;
	}
	if (!sameFile(named, opened)) throw new NotAStateFileError(file, swappedWhat(named));
}

function assertSameFileSync(file: string, opened: Stats): void {
	let named: Stats;
	try {
		named = lstatSync(file);
	} catch (error) {
		if (codeOf(error) === "ENOENT") throw new NotAStateFileError(file, "gone: it was removed or swapped while opened");
		throw error;
	}
	if (!sameFile(named, opened)) throw new NotAStateFileError(file, swappedWhat(named));
}

function sameFile(a: Stats, b: Stats): boolean {
	return a.dev === b.dev && a.ino === b.ino;
}

function swappedWhat(named: Stats): string {
	return named.isFile()
		? "swapped for another file while opened"
		: `${describeFileKind(named)} (swapped in while opened)`;
}

/** ELOOP (the link O_NOFOLLOW refused), EISDIR (a folder opened for writing), ENXIO (a FIFO with no reader). */
async function explainOpenError(file: string, error: unknown): Promise<unknown> {
	const code = codeOf(error);
	if (code !== "ELOOP" && code !== "EISDIR" && code !== "ENXIO") return error;
	try {
		return new NotAStateFileError(file, await whatIsAt(file));
	} catch {
		// The path changed again; the open's own error says enough.
		return error;
	}
}

function explainOpenErrorSync(file: string, error: unknown): unknown {
	const code = codeOf(error);
	if (code !== "ELOOP" && code !== "EISDIR" && code !== "ENXIO") return error;
	try {
		return new NotAStateFileError(file, whatIsAtSync(file));
	} catch {
		// The path changed again; the open's own error says enough.
		return error;
	}
}

async function whatIsAt(file: string): Promise<string> {
	const stats = await lstat(file);
	if (!stats.isSymbolicLink()) return describeFileKind(stats);
	return `a link to ${await readlink(file)}`;
}

function whatIsAtSync(file: string): string {
	const stats = lstatSync(file);
	return stats.isSymbolicLink() ? `a link to ${readlinkSync(file)}` : describeFileKind(stats);
}

/** Where O_NOFOLLOW does not exist (Windows), the check comes before the open instead. */
async function refuseLinkBeforeOpen(file: string): Promise<void> {
	try {
		const stats = await lstat(file);
		if (stats.isSymbolicLink()) throw new NotAStateFileError(file, "a link");
	} catch (error) {
		if (codeOf(error) !== "ENOENT") throw error;
	}
}

function refuseLinkBeforeOpenSync(file: string): void {
	try {
		if (lstatSync(file).isSymbolicLink()) throw new NotAStateFileError(file, "a link");
	} catch (error) {
		if (codeOf(error) !== "ENOENT") throw error;
	}
}

function codeOf(error: unknown): string | undefined {
	return (error as NodeJS.ErrnoException | null)?.code;
}
