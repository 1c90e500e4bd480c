/**
 * Crash-safe file replacement: a reader (or a restart after SIGKILL or power
 * loss) sees either the old content or the new, never a torn file. The temp
 * file lives in the target's folder so the rename cannot cross file systems,
 * and its name can never be taken for a state file (see `isTempFileName`).
 */
import { type FileHandle, mkdir, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { DIR_MODE, FILE_MODE, openStateFile, openStateFolder } from "./state-file.js";

export { DIR_MODE, FILE_MODE };

const TEMP_SUFFIX = ".tmp";

/**
 * Creates the folder (and its parents) owner-only; an existing folder keeps
 * its mode. Once per folder and process: a hook writes into the same two
 * folders several times an event. What creates a file in it goes through
 * `inFolder`, which makes the folder again if it was removed since.
 */
export async function ensureDir(dir: string): Promise<void> {
	const key = path.resolve(dir);
	if (madeFolders.has(key)) return;
	await mkdir(key, { recursive: true, mode: DIR_MODE });
	madeFolders.add(key);
}

const madeFolders = new Set<string>();

/**
 * Runs `create`, which makes something in `dir` (made by `ensureDir`); if
 * the folder turns out to be gone (ENOENT: removed behind this process's
 * back), it is made again and `create` runs once more.
 */
export async function inFolder<T>(dir: string, create: () => Promise<T>): Promise<T> {
	try {
		return await create();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		madeFolders.delete(path.resolve(dir));
		await ensureDir(dir);
		return create();
	}
}

/** `.<target name>.<pid>-<random>.tmp`: hidden, unique per writer, never a state name. */
export function tempFileName(target: string): string {
	const unique = `${process.pid}-${randomHex(12)}`;
	return `.${path.basename(target)}.${unique}${TEMP_SUFFIX}`;
}

/** Uniqueness within one process is all a temp name needs (the pid separates processes). */
function randomHex(digits: number): string {
	let out = "";
	while (out.length < digits)
		out += Math.floor(Math.random() * 0x100000000)
			.toString(16)
			.padStart(8, "0");
	return out.slice(0, digits);
}

export function isTempFileName(name: string): boolean {
	return /^\..+\.\d+-[0-9a-f]{12}\.tmp$/.test(name);
}

/**
 * Contract: when this resolves, `file` holds exactly `data` (mode 0600) and
 * the rename is durable; when it rejects, `file` is unchanged and no temp file
 * is left behind unless the process dies mid-way (those are recognisable by
 * `isTempFileName` and ignored by every reader). With `durable: false` (a
 * cache, which loses nothing when it is lost) nothing is flushed: a reader
 * still sees the old content or the new, but a crash may leave either, or an
 * empty file.
 */
export async function writeFileAtomic(
	file: string,
	data: string | Uint8Array,
	options: { durable?: boolean } = {},
): Promise<void> {
	const durable = options.durable ?? true;
	const dir = path.dirname(file);
	await ensureDir(dir);
	const temp = path.join(dir, tempFileName(file));
	let handle: FileHandle | null = null;
	try {
		handle = await inFolder(dir, () => openStateFile(temp, "create"));
		await handle.writeFile(data);
		if (durable) await handle.sync();
		await handle.close();
		handle = null;
		await rename(temp, file);
	} catch (error) {
		await handle?.close().catch((closeError: unknown) => attachCleanupError(error, closeError));
		await unlink(temp).catch((unlinkError: NodeJS.ErrnoException) => {
			if (unlinkError.code !== "ENOENT") attachCleanupError(error, unlinkError);
		});
		throw namingFile(error, file);
	}
	if (durable) await syncDir(dir).catch((error: unknown) => Promise.reject(namingFile(error, file)));
}

/** Makes a rename or an unlink in `dir` durable. Windows cannot fsync a folder. */
export async function syncDir(dir: string): Promise<void> {
	if (process.platform === "win32") return;
	const handle = await openStateFolder(dir);
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/**
 * An I/O error of a write (ENOSPC, EIO, EFBIG) says "write" but not which
 * file: its message gets the file's name in front, the error itself (its
 * `code`) stays as it was.
 */
export function namingFile(error: unknown, file: string): unknown {
	if (!(error instanceof Error) || error.message.includes(file)) return error;
	if (typeof (error as NodeJS.ErrnoException).code !== "string") return error;
	error.message = `cannot write ${file}: ${error.message}`;
	return error;
}

/**
 * A failed cleanup must not hide the error that caused it, nor vanish: it
 * rides along on that error as `cleanupErrors`.
 */
export function attachCleanupError(error: unknown, cleanupError: unknown): void {
	if (!(error instanceof Error)) return;
	const carrier = error as Error & { cleanupErrors?: unknown[] };
	carrier.cleanupErrors = [...(carrier.cleanupErrors ?? []), cleanupError];
}
