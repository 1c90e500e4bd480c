#!/usr/bin/env node
/**
 * The file Claude Code runs for every hook event (`dist/hook/claude-code.cjs`),
 * and every command-hook harness as `dist/hook/boulder-hook.cjs <harness>
 * <event>`: it loads the harness's bundled hook program (`<harness>-main.cjs`,
 * next to it; Claude Code's when no harness is named) through V8's code
 * cache, which Node 20 does not keep for us. Compiling the
 * bundle is a good part of the hook's start-up; with the cache, V8 reuses the
 * bytecode of the previous run.
 *
 * The cache lives in the user's cache folder, one file per bundle and node
 * (keyed by the bundle's size and modification time, and node's version and
 * architecture: V8 itself only checks the source's length), written once,
 * atomically, when it is missing or V8 rejects it. Anything that goes wrong
 * with the cache only costs the compile: the bundle still runs.
 *
 * It is also the package's `boulder-claude-code-hook` and `boulder-hook` programs (hence the
 * `#!` line), which a global install puts on the PATH for the portable hooks
 * (`claude-code/dialect.ts`). Run through a link or a symlink, it still finds the
 * bundle next to its real path.
 *
 * The same loader starts the bundled `boulder` command line
 * (`dist/cli/boulder.cjs` → `boulder-main.cjs`, run by `bin/boulder.js`),
 * which pays the same compile on every command: which bundle it loads and
 * where its cache goes are set when it is built (`tsdown.config.ts`).
 *
 * Contract: built as CommonJS; imports node built-ins only.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
// Named imports only: a default import of a built-in is copied property by property into a module
// object when the loader starts (the bundler's interop), which costs every start.
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/**
 * Set by the build for each loader it writes: the bundle (next to the loader),
 * where its cache goes, and what picks one of several caches (`variantOf`).
 */
declare const BOULDER_LOADER: {
	bundle: string;
	cacheFolder: string;
	cachePrefix: string;
	/** The first arguments that have a cache of their own; null: any that reads as a name. */
	variants: readonly string[] | null;
	/** The harnesses with a bundle of their own (`<harness>-main.cjs`), chosen by the first argument; absent: `bundle` alone. */
	harnesses?: readonly string[];
};
const LOADER = BOULDER_LOADER;
const HARNESS = LOADER.harnesses?.includes(process.argv[2] ?? "") ? (process.argv[2] as string) : null;
const BUNDLE = join(__dirname, HARNESS === null ? LOADER.bundle : `${HARNESS}-main.cjs`);
const CACHE_PREFIX = HARNESS ?? LOADER.cachePrefix;
const NAME = /^[A-Za-z][A-Za-z-]{0,31}$/;

/**
 * A cache holds the bytecode of the functions its first run compiled, so each
 * kind of run keeps its own: one per hook event (and harness), one per
 * command. A hook's arguments are `<event>` or `<harness> <event>`, names the
 * harness's own settings fix; a command's first argument is checked against
 * the list of commands, so a mistyped one does not leave a file behind.
 */
function variantOf(argv: readonly string[]): string {
	if (LOADER.variants) return LOADER.variants.includes(argv[0] ?? "") ? `-${argv[0]}` : "";
	const names = argv.slice(0, 2).filter((arg) => NAME.test(arg));
	return names.length > 0 ? `-${names.join("-")}` : "";
}

function cacheFile(env: NodeJS.ProcessEnv): { file: string; key: string } {
	const { size, mtimeMs } = statSync(BUNDLE);
	const key = `${CACHE_PREFIX}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}`;
	// `node:os` only when it is needed: loading it costs every start.
	const home = env.HOME || (require("node:os") as typeof import("node:os")).homedir();
	const base = env.XDG_CACHE_HOME || join(home, ".cache");
	const name = `${key}${variantOf(process.argv.slice(2))}.bin`;
	return { file: join(base, "boulder", LOADER.cacheFolder, name), key };
}

/** A cache of another bundle (or node) untouched this long is an old version's: removed when a new one is written. */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

/**
 * Each build and each node leaves its own caches; once a new one is written,
 * those of other keys that have not been written for a week go. (Two
 * installs in use at once each keep theirs: a cache is written once, so a
 * week-old one still in use is only compiled again.)
 */
function pruneCaches(folder: string, key: string): void {
	for (const name of readdirSync(folder)) {
		if (!name.startsWith(`${CACHE_PREFIX}-`) || name.startsWith(key)) continue;
		const old = join(folder, name);
		// Another process may have just removed it.
		const written = statSync(old, { throwIfNoEntry: false })?.mtimeMs;
		if (written !== undefined && Date.now() - written > STALE_CACHE_MS) rmSync(old, { force: true });
	}
}

function readCache(file: string): Buffer | undefined {
	try {
		return readFileSync(file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") warn(`cannot read the code cache ${file}`, error);
		return undefined;
	}
}

function writeCache(file: string, key: string, data: Buffer): void {
	try {
		// Owner-only whatever the umask: every hook run loads this bytecode.
		mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
		const temp = `${file}.${process.pid}.tmp`;
		writeFileSync(temp, data, { mode: 0o600, flag: "wx" });
		renameSync(temp, file);
		pruneCaches(dirname(file), key);
	} catch (error) {
		warn(`cannot write the code cache ${file}`, error);
	}
}

function warn(what: string, error: unknown): void {
	process.stderr.write(
		`boulder: ${what} (${error instanceof Error ? error.message : String(error)}); running without it\n`,
	);
}

const source = readFileSync(BUNDLE, "utf8");
let cache: { file: string; key: string } | null = null;
try {
	cache = cacheFile(process.env);
} catch (error) {
	warn("cannot place the code cache", error);
}
const cachedData = cache ? readCache(cache.file) : undefined;
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
	filename: BUNDLE,
	...(cachedData ? { cachedData } : {}),
});
if (cache && (!cachedData || script.cachedDataRejected)) {
	const { file, key } = cache;
	// At exit, so the bytecode of everything this run executed is in the cache.
	process.once("exit", () => writeCache(file, key, script.createCachedData()));
}
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, require, bundleModule, BUNDLE, dirname(BUNDLE));
