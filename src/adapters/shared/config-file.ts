/**
 * What every installer does to a harness's own config file: read it if it is
 * there, keep a copy of it before changing it, replace it atomically keeping
 * its permissions, take away again a file (and folders) that only boulder
 * put there, and find the package boulder runs from.
 *
 * The copies, and the note that boulder created a file, are state of the
 * user's, kept by the state layer in their state folder
 * (`state/install-backups.ts`, reached through `engine/install-backups.ts`),
 * never next to the config, where they would end up committed.
 */
import { constants, existsSync, readFileSync, realpathSync, type Stats } from "node:fs";
import {
	chmod,
	type FileHandle,
	mkdir,
	open,
	readFile,
	rename,
	rmdir,
	stat,
	unlink,
	writeFile,
} from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BoulderError } from "../../core/errors.js";
import {
	dropCreatedNote,
	forgetBackups,
	keepBackup,
	noteCreated,
	readCreatedNote,
} from "../../engine/install-backups.js";

export { backupFile, backupFolder } from "../../engine/install-backups.js";

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
		backup = await keepBackup(file, await readFile(target), place.env);
	} else {
		await noteCreated(file, await makeFolders(path.dirname(file)), place.env);
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
		await forgetBackups(file, place.env);
		return { removed: true, backup: null };
	}
	if (note !== null) await dropCreatedNote(file, place.env);
	return { removed: false, backup: await writeConfigText(file, original, text, place) };
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
