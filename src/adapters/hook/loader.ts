#!/usr/bin/env node
/**
 * What every hook runs (`dist/hook/claude-code.cjs <event>`, `dist/hook/boulder-hook.cjs <harness> <event>`)
 * and what starts the bundled CLI (`dist/cli/boulder.cjs`): it loads the bundle beside it (the harness's
 * `<harness>-main.cjs`) through V8's code cache, which Node 20 does not keep for us. Compiling the bundle
 * is a good part of start-up; with the cache, V8 reuses the previous run's bytecode.
 *
 * The cache is in the user's cache folder (never a relative one: `cacheBase`), one file per bundle and node,
 * keyed by the bundle's size and mtime and node's version and arch (V8 itself checks only the source's
 * length), written once, atomically, when missing or rejected. A cache problem only costs the compile. It
 * is also the `boulder-hook` and `boulder-claude-code-hook` programs on a global install's PATH (hence
 * `#!`); through a link or symlink it still finds the bundle beside its real path. Which bundle and cache:
 * set by the build (`tsdown.config.ts`).
 *
 * Contract: built as CommonJS; imports node built-ins only.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
// Named imports only: a default import of a built-in is copied property by property into a module
// object when the loader starts (the bundler's interop), which costs every start.
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";

/** Set by the build for each loader it writes. */
declare const BOULDER_LOADER: {
	bundle: string;
	cacheFolder: string;
	cachePrefix: string;
	/** The first arguments that have a cache of their own; null: any that reads as a name. */
	variants: readonly string[] | null;
	/** The harnesses with a bundle of their own (`<harness>-main.cjs`), chosen by the first argument; absent: `bundle` alone. */
	harnesses?: readonly string[];
	/** The event of a harness that has a smaller bundle of its own (`<harness>-<event>-main.cjs`), by harness. */
	eventBundles?: Readonly<Record<string, string>>;
};
const LOADER = BOULDER_LOADER;
const HARNESS = LOADER.harnesses?.includes(process.argv[2] ?? "") ? (process.argv[2] as string) : null;
const EVENT_BUNDLE = eventBundleOf();
const BUNDLE = join(__dirname, EVENT_BUNDLE ?? (HARNESS === null ? LOADER.bundle : `${HARNESS}-main.cjs`));
// An event's bundle keeps caches apart from its harness's (`claude-code.PreToolUse-…`): neither prunes the other's.
const CACHE_PREFIX =
	(HARNESS ?? LOADER.cachePrefix) + (EVENT_BUNDLE === null ? "" : `.${process.argv[HARNESS === null ? 2 : 3]}`);
const NAME = /^[A-Za-z][A-Za-z-]{0,31}$/;

/** The bundle of the event run, where its harness has one (Claude Code's PreToolUse: a process per file edit). */
function eventBundleOf(): string | null {
	const harness = HARNESS ?? LOADER.cachePrefix;
	const event = process.argv[HARNESS === null ? 2 : 3];
	return event !== undefined && LOADER.eventBundles?.[harness] === event ? `${harness}-${event}-main.cjs` : null;
}

/**
 * A cache holds the bytecode its first run compiled, so each kind of run keeps its own: one per hook event
 * (and harness), one per command (checked against the list, so a mistyped one leaves no file).
 */
function variantOf(argv: readonly string[]): string {
	if (LOADER.variants) return LOADER.variants.includes(argv[0] ?? "") ? `-${argv[0]}` : "";
	const names = argv.slice(0, 2).filter((arg) => NAME.test(arg));
	return names.length > 0 ? `-${names.join("-")}` : "";
}

function cacheFile(env: NodeJS.ProcessEnv): { file: string; key: string } | null {
	const base = cacheBase(env);
	if (base === null) return null;
	const { size, mtimeMs } = statSync(BUNDLE);
	const key = `${CACHE_PREFIX}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}`;
	const name = `${key}${variantOf(process.argv.slice(2))}.bin`;
	return { file: join(base, "boulder", LOADER.cacheFolder, name), key };
}

/**
 * The user's cache folder, or null when the environment names none that is absolute: an empty or
 * relative `HOME` or `XDG_CACHE_HOME` would be the working folder's, a checkout's, which could ship a
 * cache of its own. Then the bundle is compiled each run (a cache only saves the compile).
 */
function cacheBase(env: NodeJS.ProcessEnv): string | null {
	const xdg = absolute(env.XDG_CACHE_HOME);
	if (xdg !== null) return xdg;
	// No HOME at all: the account's, as node finds it. `node:os` only then: loading it costs every start.
	const home = env.HOME === undefined ? (require("node:os") as typeof import("node:os")).homedir() : env.HOME;
	const base = absolute(home);
	return base === null ? null : join(base, ".cache");
}

function absolute(folder: string | undefined): string | null {
	return folder && isAbsolute(folder) ? folder : null;
}

/** A cache of another bundle (or node) untouched this long is an old version's: removed when a new one is written. */
const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

/**
 * Once a new cache is written, those of other keys unwritten for a week go (two installs in use at once
 * keep theirs: a week-old cache still in use is only compiled again).
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
