/**
 * boulder as a user gets it: the tarball `npm pack` makes, installed with npm
 * into a throwaway prefix (never the machine's own global folder).
 *
 * The tarball is packed once for all test files of a run, and again only when
 * its sources change: the first file to ask packs it under a lock (a folder
 * made with `mkdir`, which only one process can make), the others wait for
 * it. It is packed from a copy of the sources without `dist/`, so the test
 * also proves that `npm pack` builds what it needs (`prepack`), and the
 * working tree's `dist/` is never touched.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** What the package is built and packed from (package.json's `files`, plus the build's own inputs). */
const SOURCES = [
	"package.json",
	"tsconfig.json",
	"tsconfig.build.json",
	"tsdown.config.ts",
	"src",
	"scripts",
	"bin",
	"schema",
	".claude-plugin",
	"hooks",
	"commands",
	"plugins",
	"README.md",
	"CHANGELOG.md",
	"LICENSE",
];

const PACK_TIMEOUT_MS = 240_000;

export interface PackedPackage {
	tarball: string;
	/** What `npm pack --json` said: bytes packed and unpacked, and the number of files. */
	size: number;
	unpackedSize: number;
	entryCount: number;
}

/** The packed tarball of the working tree's sources (packed at most once per change of them). */
export async function packedPackage(): Promise<PackedPackage> {
	const dir = join(tmpdir(), `boulder-e2e-pack-${await fingerprint()}`);
	const info = join(dir, "pack.json");
	const lock = `${dir}.lock`;
	const deadline = Date.now() + PACK_TIMEOUT_MS;
	for (;;) {
		if (existsSync(info)) return JSON.parse(await readFile(info, "utf8")) as PackedPackage;
		if (await takeLock(lock)) {
			try {
				if (!existsSync(info)) await pack(dir);
			} finally {
				await rm(lock, { recursive: true, force: true });
			}
			continue;
		}
		if (Date.now() > deadline) throw new Error(`waited ${PACK_TIMEOUT_MS} ms for another test file to pack boulder`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Makes the lock folder; false when another live process holds it. A holder that died is cleared. */
async function takeLock(lock: string): Promise<boolean> {
	try {
		await mkdir(lock);
		await writeFile(join(lock, "pid"), String(process.pid));
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
	}
	const holder = Number(await readFile(join(lock, "pid"), "utf8").catch(() => "0"));
	if (holder > 0 && !alive(holder)) await rm(lock, { recursive: true, force: true });
	return false;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

async function pack(dir: string): Promise<void> {
	const work = `${dir}.work`;
	await rm(work, { recursive: true, force: true });
	await mkdir(work, { recursive: true });
	for (const source of SOURCES) {
		if (existsSync(join(REPO, source))) await cp(join(REPO, source), join(work, source), { recursive: true });
	}
	// The build needs the dev tools (tsc, tsdown); the tarball itself takes nothing from node_modules.
	await symlink(join(REPO, "node_modules"), join(work, "node_modules"), "junction");
	const out = `${dir}.out`;
	await rm(out, { recursive: true, force: true });
	await mkdir(out, { recursive: true });
	const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", out], {
		cwd: work,
		env: npmEnv(process.env),
		maxBuffer: 64 * 1024 * 1024,
		timeout: PACK_TIMEOUT_MS,
	});
	// The prepack build prints its own lines (some with brackets) before npm's JSON,
	// which starts on a line of its own.
	const start = stdout.search(/^\[\s*$/m);
	if (start < 0) throw new Error(`npm pack printed no JSON: ${stdout}`);
	const [result] = JSON.parse(stdout.slice(start)) as {
		filename: string;
		size: number;
		unpackedSize: number;
		entryCount: number;
	}[];
	if (!result) throw new Error(`npm pack said nothing useful: ${stdout}`);
	const packed: PackedPackage = {
		tarball: join(dir, result.filename),
		size: result.size,
		unpackedSize: result.unpackedSize,
		entryCount: result.entryCount,
	};
	await writeFile(join(out, "pack.json"), `${JSON.stringify(packed, null, 2)}\n`);
	await rm(dir, { recursive: true, force: true });
	await rename(out, dir);
	await rm(work, { recursive: true, force: true });
}

/** Changes when any source file changes (its path, size or time). */
async function fingerprint(): Promise<string> {
	const { createHash } = await import("node:crypto");
	const hash = createHash("sha256");
	const walk = async (path: string): Promise<void> => {
		const stats = await stat(path).catch(() => null);
		if (stats === null) return;
		if (stats.isDirectory()) {
			for (const name of (await readdir(path)).sort()) await walk(join(path, name));
			return;
		}
		hash.update(`${path}\0${stats.size}\0${stats.mtimeMs}\n`);
	};
	for (const source of SOURCES) await walk(join(REPO, source));
	return hash.digest("hex").slice(0, 16);
}

/**
 * The environment for npm in a test: the caller's, without the settings an
 * `npm run`/`npx` parent passes down to its children (prefix, global, the
 * running script), and with the machine's npm cache, so installs of the
 * tarball's few dependencies need no network once they were fetched.
 */
export function npmEnv(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(base)) {
		if (/^npm_(config|lifecycle|package|command|execpath|node_execpath)/i.test(key)) continue;
		env[key] = value;
	}
	env.npm_config_cache = process.env.npm_config_cache || join(process.env.HOME || tmpdir(), ".npm");
	env.npm_config_update_notifier = "false";
	env.npm_config_fund = "false";
	env.npm_config_audit = "false";
	return { ...env, ...extra };
}

export interface GlobalInstall {
	/** The npm prefix the package was installed into. */
	prefix: string;
	/** `<prefix>/bin`, to put first on the PATH. */
	bin: string;
	/** `<prefix>/lib/node_modules/boulder-agent`. */
	root: string;
}

/**
 * `npm install -g <tarball>` into `prefix`, as a user would, with
 * `npm_config_prefix` pointing at a throwaway folder. npm itself runs with
 * this machine's own settings (its npmrc, certificates, proxy), which are no
 * part of the journey: only where it installs to is the test's.
 */
export async function installGlobally(tarball: string, prefix: string): Promise<GlobalInstall> {
	await mkdir(prefix, { recursive: true });
	await run("npm", ["install", "--global", "--prefer-offline", tarball], {
		env: npmEnv(process.env, { npm_config_prefix: prefix }),
		cwd: dirname(prefix),
		timeout: PACK_TIMEOUT_MS,
	});
	const root = join(prefix, "lib", "node_modules", "boulder-agent");
	if (!existsSync(root)) throw new Error(`npm install -g put nothing at ${root}`);
	return { prefix, bin: join(prefix, "bin"), root };
}

/** Every file under `dir` (but `skip`), with its bytes: a snapshot to compare a folder before and after. */
export async function snapshot(dir: string, skip: (relative: string) => boolean): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	const walk = async (relative: string): Promise<void> => {
		for (const entry of await readdir(join(dir, relative), { withFileTypes: true })) {
			const path = relative ? `${relative}/${entry.name}` : entry.name;
			if (skip(path)) continue;
			if (entry.isDirectory()) {
				files[`${path}/`] = "";
				await walk(path);
			} else {
				files[path] = (await readFile(join(dir, path))).toString("base64");
			}
		}
	};
	await walk("");
	return files;
}
