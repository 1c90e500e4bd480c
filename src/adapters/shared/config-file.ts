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
import { constants, existsSync, readFileSync, realpathSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
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

/** The file's text, or null when there is none. */
export async function readConfigText(file: string): Promise<string | null> {
	try {
		return await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw new BoulderError("settings-invalid", `cannot read ${file}: ${(error as Error).message}`, { cause: error });
	}
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

/** The one backup slot of a config file: `<state>/install-backups/<name>-<hash of its path>`. */
export function backupFile(file: string, env: NodeJS.ProcessEnv): string {
	const absolute = path.resolve(file);
	return path.join(userStateFolder(env), "install-backups", `${path.basename(absolute)}-${hash64(absolute)}`);
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
	if (original !== null) {
		mode = (await stat(file)).mode & 0o777;
		backup = await backUp(file, place.env);
	} else {
		const folders = await makeFolders(path.dirname(file));
		const note: CreatedNote = { file: path.resolve(file), folders };
		await writePrivate(createdNote(file, place.env), `${JSON.stringify(note, null, 2)}\n`);
	}
	await replaceAtomically(file, text, mode);
	return backup;
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

async function backUp(file: string, env: NodeJS.ProcessEnv): Promise<string> {
	const backup = backupFile(file, env);
	await mkdir(path.dirname(backup), { recursive: true, mode: 0o700 });
	const temp = `${backup}.${process.pid}.tmp`;
	await copyFile(file, temp, constants.COPYFILE_EXCL);
	await rename(temp, backup);
	return backup;
}

async function writePrivate(file: string, text: string): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
	await replaceAtomically(file, text, 0o600);
}

async function replaceAtomically(file: string, text: string, mode: number): Promise<void> {
	const temp = `${file}.boulder-${process.pid}.tmp`;
	try {
		await writeFile(temp, text, { mode, flag: "wx" });
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
