/**
 * What every installer does to a harness's own config file: read it if it is
 * there, back it up before changing it, replace it atomically keeping its
 * permissions, and find the package boulder runs from (whose absolute paths
 * the installed entries point at).
 */
import { constants, existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BoulderError } from "../../core/errors.js";

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
 * Backs the old file up (when there is one), then replaces it atomically,
 * keeping its permissions. Returns the backup's path, or null for a new file.
 */
export async function writeConfigText(
	file: string,
	original: string | null,
	text: string,
	now: () => Date = () => new Date(),
): Promise<string | null> {
	await mkdir(path.dirname(file), { recursive: true });
	let backup: string | null = null;
	let mode = 0o644;
	if (original !== null) {
		mode = (await stat(file)).mode & 0o777;
		backup = await backUp(file, now());
	}
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
	return backup;
}

async function backUp(file: string, at: Date): Promise<string> {
	const stamp = at
		.toISOString()
		.replace(/[-:]/g, "")
		.replace(/\.\d+Z$/, "Z");
	for (let n = 1; ; n++) {
		const backup = `${file}.boulder-backup-${stamp}${n > 1 ? `-${n}` : ""}`;
		try {
			await copyFile(file, backup, constants.COPYFILE_EXCL);
			return backup;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		}
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

/** The root of the boulder-agent package this code runs from. */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
	let dir = from;
	for (;;) {
		const manifest = path.join(dir, "package.json");
		if (existsSync(manifest) && /"name"\s*:\s*"boulder-agent"/.test(readFileSync(manifest, "utf8"))) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) throw new BoulderError("internal", `cannot find boulder-agent's package.json above ${from}`);
		dir = parent;
	}
}

/** This copy of boulder's version, from its package.json. */
export function packageVersion(root: string = packageRoot()): string {
	const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version?: unknown };
	return typeof manifest.version === "string" ? manifest.version : "0.0.0";
}
