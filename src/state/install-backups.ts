/**
 * The copies installers keep of a harness's config file before changing it,
 * and the note that boulder created a config file: state of the user's, in
 * their state folder (`install-backups/`), never next to the config, where it
 * would end up committed. One backup per config file: the file as it was
 * before boulder last changed it (not one per run). When a config file did
 * not exist, a note says so instead, with the folders made for it; uninstall
 * reads it to remove a file that would otherwise be left holding `{}`.
 *
 * Installers (in the adapters) reach this through `engine/install-backups.ts`.
 * Every file here is opened through `state-file.ts`, owner-only.
 */
import { existsSync } from "node:fs";
import { lstat, mkdir, rm, rmdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { hash64 } from "../core/hash.js";
import { writeFileAtomic } from "./atomic-write.js";
import { openStateFile } from "./state-file.js";
import { userHome } from "./user-home.js";
import { boulderStateHome } from "./worktree-index.js";

/** A note is a few paths: anything larger is not boulder's. */
const MAX_NOTE_BYTES = 64 * 1024;

/**
 * Where install backups go: boulder's per-user state folder, unless that lies
 * inside a git worktree (`XDG_STATE_HOME` pointed into a project): a copy of a
 * settings file, which may hold keys, must not sit there untracked but
 * committable. Then `~/.local/state/boulder`, and when that too is inside a
 * worktree (a home folder kept in git), the system's temp folder, in a folder
 * of the user's own.
 */
export function backupFolder(env: NodeJS.ProcessEnv): string {
	const candidates = [boulderStateHome({ env }), path.join(userHome(env), ".local", "state", "boulder")];
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
function createdNoteFile(file: string, env: NodeJS.ProcessEnv): string {
	return `${backupFile(file, env)}.created.json`;
}

export interface CreatedNote {
	file: string;
	folders: string[];
}

/** Keeps `bytes` (what `file` holds now) in `file`'s backup slot, owner-only whatever the umask; returns the slot. */
export async function keepBackup(file: string, bytes: Uint8Array, env: NodeJS.ProcessEnv): Promise<string> {
	const backup = backupFile(file, env);
	await privateFolder(path.dirname(backup));
	await writeFileAtomic(backup, bytes);
	return backup;
}

/** Notes that boulder created `file`, and the folders it made for it (outermost first). */
export async function noteCreated(file: string, folders: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
	const note = createdNoteFile(file, env);
	await privateFolder(path.dirname(note));
	const content: CreatedNote = { file: path.resolve(file), folders: [...folders] };
	await writeFileAtomic(note, `${JSON.stringify(content, null, 2)}\n`);
}

/** The note that boulder created `file`, or null: none, or one that is not about this file. */
export async function readCreatedNote(file: string, env: NodeJS.ProcessEnv): Promise<CreatedNote | null> {
	const handle = await openStateFile(createdNoteFile(file, env), "read");
	if (handle === null) return null;
	let text: string;
	try {
		if ((await handle.stat()).size > MAX_NOTE_BYTES) return null;
		text = await handle.readFile("utf8");
	} finally {
		await handle.close();
	}
	try {
		const note = JSON.parse(text) as Partial<CreatedNote>;
		if (note.file !== path.resolve(file) || !Array.isArray(note.folders)) return null;
		return { file: note.file, folders: note.folders.filter((folder): folder is string => typeof folder === "string") };
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
}

/** Drops the note that boulder created `file`: the file is the user's now. */
export async function dropCreatedNote(file: string, env: NodeJS.ProcessEnv): Promise<void> {
	await rm(createdNoteFile(file, env), { force: true });
}

/** Drops the backup and the note of a file boulder no longer has anything in. */
export async function forgetBackups(file: string, env: NodeJS.ProcessEnv): Promise<void> {
	await dropCreatedNote(file, env);
	await rm(backupFile(file, env), { force: true });
	await rmdir(path.dirname(backupFile(file, env))).catch(() => undefined);
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
