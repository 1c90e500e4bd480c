/**
 * Shared pieces of the state tests: throwaway folders, a fixed clock, and
 * child processes that run the compiled state layer (`dist/`), so crashes
 * and contention are real.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { lstat, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import type { Clock } from "../../src/state/store.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "../..");
export const fixturesDir = path.join(repoRoot, "test/fixtures/state");

/** 2026-11-30 10:15:00 UTC: aside names become `…-20261130T101500Z`. */
export const FIXED_NOW = Date.UTC(2026, 10, 30, 10, 15, 0);

export function fixedClock(at = FIXED_NOW): Clock & { set(at: number): void } {
	let now = at;
	return {
		now: () => now,
		set(next: number) {
			now = next;
		},
	};
}

const made: string[] = [];

/** A fresh folder under the OS temp folder, removed after the test. */
export async function tempDir(prefix = "boulder-state-"): Promise<string> {
	const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
	made.push(dir);
	return dir;
}

/**
 * Removes the folders `tempDir` made. Run after every test of every file by
 * `test/support/temp-dirs.ts` (a setup file): an `afterEach` at this module's
 * top level would hook only the first file that loads it, since the unit tier
 * shares modules between the files of a worker.
 */
export async function removeTempDirs(): Promise<void> {
	for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** Every path under `root` with its kind and, for files, its bytes, for before/after comparisons. */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	async function walk(dir: string): Promise<void> {
		for (const entry of await readdir(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			const rel = path.relative(root, full);
			if (entry.isDirectory()) {
				out[rel] = "dir";
				await walk(full);
			} else if (entry.isSymbolicLink()) {
				out[rel] = "link";
			} else {
				out[rel] = `file:${(await readFile(full)).toString("base64")}`;
			}
		}
	}
	await walk(root);
	return out;
}

export async function modeOf(file: string): Promise<number> {
	return (await lstat(file)).mode & 0o777;
}

export function decision(overrides: Partial<DecisionRecord> = {}): DecisionRecord {
	return {
		v: 1,
		at: FIXED_NOW,
		worktree: "/w",
		scope: "scope-a",
		harness: "claude-code",
		session: "s1",
		work: null,
		kind: "skip",
		reason: "no-open-work",
		detail: "nothing open",
		...overrides,
	};
}

/** Record `n` of a test's decision log: `at` is 1000 + n, the detail `line n` unless given. */
export function logRecord(n: number, detail = `line ${n}`): DecisionRecord {
	return decision({ at: 1_000 + n, scope: null, session: "s", reason: "disabled", detail });
}

/** The details of `records`, in their order: what the decision-log readers' tests compare. */
export const detailsOf = (records: readonly DecisionRecord[]) => records.map((r) => r.detail);

/**
 * Decision log paths, each in a fresh folder removed after its test (the file is not made).
 * Call it at a test file's top level: it hooks that file's `afterEach` (a module-level
 * one of `tempDir` is hooked once per worker, which with the unit tier's shared modules
 * is the first file's alone).
 */
export function tempLogFiles(prefix: string): () => Promise<string> {
	const dirs: string[] = [];
	afterEach(async () => {
		for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
	});
	return async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
		dirs.push(dir);
		return path.join(dir, "decisions.jsonl");
	};
}

const childrenDir = path.join(here, "children");
const distState = path.join(repoRoot, "dist/state");

/**
 * Child scripts import `dist/`; a stale build would test old code, so refuse
 * to run against one. `npm test` builds first.
 */
export function assertBuildFresh(): void {
	const srcDir = path.join(repoRoot, "src/state");
	if (!existsSync(path.join(distState, "index.js"))) {
		throw new Error("dist/state is missing: run `npm run build` first (npm test does).");
	}
	for (const name of ["atomic-write", "lock", "versioned-file", "file-store", "decision-log", "scope-path", "works"]) {
		const built = path.join(distState, `${name}.js`);
		if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(srcDir, `${name}.ts`)).mtimeMs) {
			throw new Error(`dist/state/${name}.js is older than its source: run \`npm run build\` first.`);
		}
	}
}

export interface Child {
	process: ChildProcess;
	/** Lines printed so far on stdout. */
	lines: string[];
	/** Resolves on exit with the code (null when killed) and stderr. */
	done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
	/** Resolves when a printed line satisfies `test`. */
	waitForLine(test: (line: string) => boolean): Promise<string>;
}

export function runChild(script: string, args: string[], onLine?: (line: string, child: Child) => void): Child {
	const proc = spawn(process.execPath, [path.join(childrenDir, script), ...args], {
		stdio: ["ignore", "pipe", "pipe"],
	});
	const lines: string[] = [];
	const waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];
	let stderr = "";
	let pending = "";
	const child: Child = {
		process: proc,
		lines,
		done: new Promise((resolve) => {
			proc.on("close", (code, signal) => resolve({ code, signal, stderr }));
		}),
		waitForLine(test) {
			const seen = lines.find(test);
			if (seen !== undefined) return Promise.resolve(seen);
			return new Promise((resolve) => waiters.push({ test, resolve }));
		},
	};
	proc.stdout?.setEncoding("utf8");
	proc.stdout?.on("data", (chunk: string) => {
		pending += chunk;
		const parts = pending.split("\n");
		pending = parts.pop() ?? "";
		for (const line of parts) {
			lines.push(line);
			onLine?.(line, child);
			for (const waiter of [...waiters]) {
				if (waiter.test(line)) {
					waiters.splice(waiters.indexOf(waiter), 1);
					waiter.resolve(line);
				}
			}
		}
	});
	proc.stderr?.setEncoding("utf8");
	proc.stderr?.on("data", (chunk: string) => {
		stderr += chunk;
	});
	return child;
}
