/**
 * What every installer does to a harness's own config file: read it if it is
 * there, keep a copy of it before changing it, replace it atomically keeping
 * its permissions, take away again a file (and folders) that only boulder
 * put there, and find the package boulder runs from.
 *
 * The copies live in the user's state folder (`install-backups/`), not next to
 * the config, where they would end up committed: one per config file, the
 * file as it was before boulder last changed it (not one per run). When a
 * config file did not exist, a note says so there instead, with the folders
 * that were made for it; uninstall reads it to remove a file that would
 * otherwise be left holding `{}`.
 */
import { constants, existsSync, readFileSync, realpathSync, type Stats } from "node:fs";
import {
	chmod,
	copyFile,
	type FileHandle,
	lstat,
	mkdir,
	open,
	rename,
	rm,
	rmdir,
	stat,
	unlink,
	writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BoulderError } from "../../core/errors.js";
import { hash64 } from "../../core/hash.js";

export const PACKAGE_NAME = "boulder-agent";

/** Where an installer runs: its folder, and the environment that locates the user's folders. */
export interface ConfigPlace {
	env: NodeJS.ProcessEnv;
	now?: () => Date;
}

/** Larger than any harness's settings by far; anything bigger is not a settings file (docs/bad-input.md). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * The file's text, or null when there is none. A link is followed (a settings
 * file kept in a dotfiles folder is the user's choice), but only a regular
 * file is read: a FIFO would block forever and a device never end. Opened
 * non-blocking, checked, and read up to `MAX_CONFIG_BYTES`.
 *
 * Contract: throws `BoulderError("settings-invalid")`, naming the file, for
 * anything else.
 */
export async function readConfigText(file: string): Promise<string | null> {
	let handle: FileHandle;
	try {
		handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw new BoulderError("settings-invalid", `cannot read ${file}: ${(error as Error).message}`, { cause: error });
	}
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) {
			throw new BoulderError(
				"settings-invalid",
				`${file} is ${kindOf(stats)}, not a regular file; boulder reads and edits only a regular settings file and did not touch it.`,
			);
		}
		if (stats.size > MAX_CONFIG_BYTES) throw tooLarge(file, stats.size);
		const bytes = Buffer.alloc(Math.min(stats.size, MAX_CONFIG_BYTES) + 1);
		let length = 0;
		for (;;) {
			const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
			if (length === bytes.length) throw tooLarge(file, length);
		}
		return bytes.subarray(0, length).toString("utf8");
	} catch (error) {
		if (error instanceof BoulderError) throw error;
		throw new BoulderError("settings-invalid", `cannot read ${file}: ${(error as Error).message}`, { cause: error });
	} finally {
		await handle.close();
	}
}

function tooLarge(file: string, size: number): BoulderError {
	return new BoulderError(
		"settings-invalid",
		`${file} is ${size} bytes or more, larger than the ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB boulder reads of a settings file; boulder did not touch it.`,
	);
}

function kindOf(stats: Stats): string {
	if (stats.isDirectory()) return "a folder";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isSocket()) return "a socket";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	return "not a regular file";
}

/**
 * boulder's per-user state folder: `$BOULDER_STATE_HOME`, else
 * `$XDG_STATE_HOME/boulder`, else `~/.local/state/boulder` — the same rule as
 * the state layer's, which adapters do not import (a test keeps the two equal).
 */
export function userStateFolder(env: NodeJS.ProcessEnv): string {
	const own = env.BOULDER_STATE_HOME;
	if (own && path.isAbsolute(own)) return own;
	const xdg = env.XDG_STATE_HOME;
	if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "boulder");
	return path.join(env.HOME || os.homedir(), ".local", "state", "boulder");
}

/**
 * Where install backups go: boulder's per-user state folder, unless that lies
 * inside a git worktree (`XDG_STATE_HOME` pointed into a project): a copy of a
 * settings file, which may hold keys, must not sit there untracked but
 * committable. Then `~/.local/state/boulder`, and when that too is inside a
 * worktree (a home folder kept in git), the system's temp folder, in a folder
 * of the user's own.
 */
export function backupFolder(env: NodeJS.ProcessEnv): string {
	const home = env.HOME || os.homedir();
	const candidates = [userStateFolder(env), path.join(home, ".local", "state", "boulder")];
	for (const folder of candidates) if (worktreeHolding(folder) === null) return path.join(folder, "install-backups");
	const uid = typeof process.getuid === "function" ? process.getuid() : "user";
	return path.join(os.tmpdir(), `boulder-${uid}`, "install-backups");
}

/** The git worktree (a folder with `.git`) that holds `folder`, or null. */
function worktreeHolding(folder: string): string | null {
	let dir = path.resolve(folder);
	for (;;) {
		if (existsSync(path.join(dir, ".git"))) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) return null;
		dir = parent;
	}
}

/** The one backup slot of a config file: `<backups>/<name>-<hash of its path>` (see `backupFolder`). */
export function backupFile(file: string, env: NodeJS.ProcessEnv): string {
	const absolute = path.resolve(file);
	return path.join(backupFolder(env), `${path.basename(absolute)}-${hash64(absolute)}`);
}

/** The note that boulder created `file` (and which folders it made for it). */
function createdNote(file: string, env: NodeJS.ProcessEnv): string {
	return `${backupFile(file, env)}.created.json`;
}

interface CreatedNote {
	file: string;
	folders: string[];
}

/**
 * Writes `text` over `file` atomically, keeping its permissions. The old file
 * (when there is one) is copied to its backup slot first; a new file is
 * noted as boulder's. Returns the backup's path, or null for a new file.
 */
export async function writeConfigText(
	file: string,
	original: string | null,
	text: string,
	place: ConfigPlace,
): Promise<string | null> {
	let backup: string | null = null;
	let mode = 0o644;
	// A link is written through: the user's dotfile gets the change, and the link stays a link.
	const target = original !== null ? writeTarget(file) : file;
	if (original !== null) {
		mode = (await stat(target)).mode & 0o777;
		if ((mode & 0o222) === 0) {
			throw new BoulderError(
				"settings-invalid",
				`${file} is read-only (mode ${mode.toString(8).padStart(4, "0")}); boulder did not change it. Make it writable (chmod u+w) and run the command again, or leave it as it is.`,
			);
		}
		backup = await backUp(target, file, place.env);
	} else {
		const folders = await makeFolders(path.dirname(file));
		const note: CreatedNote = { file: path.resolve(file), folders };
		await writePrivate(createdNote(file, place.env), `${JSON.stringify(note, null, 2)}\n`);
	}
	await replaceAtomically(target, text, mode, original === null ? null : () => unchangedSince(file, original));
	return backup;
}

/** Where a write to `file` lands: the file a link (or a chain of them) leads to, or `file` itself. */
function writeTarget(file: string): string {
	try {
		return realpathSync(file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return file;
		throw error;
	}
}

/**
 * Refuses to write over a change made since the installer read the file (the
 * user's editor, the harness itself): the file is read again right before the
 * rename and must still hold what the edit was made from.
 */
async function unchangedSince(file: string, original: string): Promise<void> {
	const now = await readConfigText(file);
	if (now !== original) {
		throw new BoulderError(
			"settings-invalid",
			`${file} changed while boulder was editing it (another program wrote to it); boulder wrote nothing. Run the command again.`,
		);
	}
}

/**
 * After uninstall took boulder's entries out: when boulder created the file
 * and nothing of anyone else's is left in it (`empty`), the file goes, with
 * the folders made for it if they are empty, and the note and the backup.
 * Otherwise `text` is written (backed up first) and the file is the user's.
 * Returns whether the file was removed, and the backup written if it was not.
 */
export async function writeOrRemoveConfig(
	file: string,
	original: string,
	text: string,
	empty: boolean,
	place: ConfigPlace,
): Promise<{ removed: boolean; backup: string | null }> {
	const note = await readCreatedNote(file, place.env);
	if (note !== null && empty) {
		await unlink(file);
		for (const folder of [...note.folders].reverse()) {
			await rmdir(folder).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST" && error.code !== "ENOENT") throw error;
			});
		}
		await forgetFile(file, place.env);
		return { removed: true, backup: null };
	}
	if (note !== null) await rm(createdNote(file, place.env), { force: true });
	return { removed: false, backup: await writeConfigText(file, original, text, place) };
}

/** Drops the backup and the note of a file boulder no longer has anything in. */
async function forgetFile(file: string, env: NodeJS.ProcessEnv): Promise<void> {
	await rm(createdNote(file, env), { force: true });
	await rm(backupFile(file, env), { force: true });
	await rmdir(path.dirname(backupFile(file, env))).catch(() => undefined);
}

async function readCreatedNote(file: string, env: NodeJS.ProcessEnv): Promise<CreatedNote | null> {
	const text = await readConfigText(createdNote(file, env));
	if (text === null) return null;
	try {
		const note = JSON.parse(text) as Partial<CreatedNote>;
		if (note.file !== path.resolve(file) || !Array.isArray(note.folders)) return null;
		return { file: note.file, folders: note.folders.filter((folder): folder is string => typeof folder === "string") };
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
}

/** Makes `dir` and its missing parents; returns the ones it made, outermost first. */
async function makeFolders(dir: string): Promise<string[]> {
	const made: string[] = [];
	let current = path.resolve(dir);
	while (!existsSync(current)) {
		made.unshift(current);
		const parent = path.dirname(current);
		if (parent === current) break;
		current = parent;
	}
	await mkdir(dir, { recursive: true });
	return made;
}

/** Copies `source` (what `file` holds) to `file`'s backup slot, owner-only whatever the umask. */
async function backUp(source: string, file: string, env: NodeJS.ProcessEnv): Promise<string> {
	const backup = backupFile(file, env);
	await privateFolder(path.dirname(backup));
	const temp = `${backup}.${process.pid}.tmp`;
	await copyFile(source, temp, constants.COPYFILE_EXCL);
	await chmod(temp, 0o600);
	await rename(temp, backup);
	return backup;
}

/**
 * Makes the backup folder owner-only; refuses one that someone else owns or
 * can write to (the temp-folder fallback is shared with every local user).
 */
async function privateFolder(dir: string): Promise<void> {
	await mkdir(dir, { recursive: true, mode: 0o700 });
	const uid = typeof process.getuid === "function" ? process.getuid() : null;
	// The parent is checked only in the shared temp folder: elsewhere it is the user's own state folder, whatever its mode.
	const shared = path.resolve(dir).startsWith(path.resolve(os.tmpdir()) + path.sep);
	for (const folder of shared ? [dir, path.dirname(dir)] : [dir]) {
		const found = await lstat(folder);
		const theirs = uid !== null && found.uid !== uid;
		if (!found.isDirectory() || theirs || (found.mode & 0o022) !== 0) {
			throw new BoulderError(
				"settings-invalid",
				`${folder} is not a private folder of yours (a link, someone else's, or writable by others); boulder keeps no backup of a settings file there and did not touch the file.`,
			);
		}
	}
}

async function writePrivate(file: string, text: string): Promise<void> {
	await privateFolder(path.dirname(file));
	await replaceAtomically(file, text, 0o600);
}

async function replaceAtomically(
	file: string,
	text: string,
	mode: number,
	check: (() => Promise<void>) | null = null,
): Promise<void> {
	const temp = `${file}.boulder-${process.pid}.tmp`;
	try {
		await writeFile(temp, text, { mode, flag: "wx" });
		// The umask may have narrowed `mode`; the file keeps exactly the permissions it had.
		await chmod(temp, mode);
		await check?.();
		await rename(temp, file);
	} catch (error) {
		await unlink(temp).catch((cleanup: NodeJS.ErrnoException) => {
			if (cleanup.code !== "ENOENT") (error as Error & { cleanup?: unknown }).cleanup = cleanup;
		});
		throw error;
	}
}

/** Deep equality of JSON values (object key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (Array.isArray(a) || Array.isArray(b)) {
		return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
	}
	if (!isObject(a) || !isObject(b)) return false;
	const keys = Object.keys(a);
	return (
		keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
	);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}

/** Whether two paths name the same file once links are followed; false when either is missing. */
export function samePath(a: string, b: string): boolean {
	try {
		return realpathSync(a) === realpathSync(b);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
}

/** The root of the boulder-agent package this code runs from. */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
	let dir = from;
	for (;;) {
		const found = packageAt(dir);
		if (found) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) throw new BoulderError("internal", `cannot find boulder-agent's package.json above ${from}`);
		dir = parent;
	}
}

/** This copy of boulder's version, from its package.json. */
export function packageVersion(root: string = packageRoot()): string {
	return packageAt(root)?.version ?? "0.0.0";
}

/** The name and version of the boulder-agent package whose root is `dir`, or null when `dir` is not one. */
export function packageAt(dir: string): { version: string } | null {
	let text: string;
	try {
		text = readFileSync(path.join(dir, "package.json"), "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return null;
		throw error;
	}
	let manifest: { name?: unknown; version?: unknown };
	try {
		manifest = JSON.parse(text) as typeof manifest;
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
	if (manifest.name !== PACKAGE_NAME) return null;
	return { version: typeof manifest.version === "string" ? manifest.version : "0.0.0" };
}
