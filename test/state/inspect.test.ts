/**
 * Looking at the state folder: which files are scope states, and what is left
 * lying there (aside copies, stale locks and temp files, unreadable log
 * lines), oldest first. `problems()` through a store is in file-store.test.ts.
 */
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyContinuationState } from "../../src/core/turns.js";
import { tempFileName } from "../../src/state/atomic-write.js";
import { FileStore } from "../../src/state/file-store.js";
import { listScopeFiles, scanStateProblems } from "../../src/state/inspect.js";
import { lockFolderOf } from "../../src/state/lock.js";
import { asideName } from "../../src/state/versioned-file.js";
import { FIXED_NOW, tempDir } from "./helpers.js";

describe("listScopeFiles", () => {
	it("lists the scope files, sorted, and not the aside copies, locks or temp files next to them", async () => {
		const store = new FileStore(await tempDir());
		for (const key of ["scope-b", "scope-a"]) {
			await store.updateScope(key, () => ({ result: null, next: emptyContinuationState() }));
		}
		const a = store.scopeFile("scope-a");
		await writeFile(path.join(store.paths.scopes, asideName("scope-c.json", "corrupt", FIXED_NOW, 1)), "{");
		await mkdir(lockFolderOf(a));
		await writeFile(path.join(store.paths.scopes, tempFileName(a)), '{"half');
		expect(await readdir(store.paths.scopes)).toHaveLength(5);

		expect(await listScopeFiles(store)).toEqual([a, store.scopeFile("scope-b")]);
	});

	it("lists nothing, and creates nothing, before the first write", async () => {
		const store = new FileStore(await tempDir());
		expect(await listScopeFiles(store)).toEqual([]);
		expect(await readdir(store.worktree)).toEqual([]);
	});
});

describe("scanStateProblems", () => {
	it("names aside copies by their original file, dated by their name, and unreadable log lines, oldest first", async () => {
		const dir = await tempDir();
		const scopes = path.join(dir, "scopes");
		await mkdir(scopes);
		const works = asideName("works.json", "future", FIXED_NOW - 60_000, 1);
		const scope = asideName("s.json", "invalid", FIXED_NOW - 120_000, 1);
		await writeFile(path.join(dir, works), "{}");
		await writeFile(path.join(scopes, scope), "{}");
		const decisions = path.join(dir, "decisions.jsonl");

		const problems = await scanStateProblems({
			folders: [dir, scopes],
			staleMs: 5_000,
			decisionLog: { file: decisions, skippedLines: 2 },
			now: FIXED_NOW,
		});
		expect(problems).toEqual([
			{
				file: path.join(scopes, "s.json"),
				movedTo: path.join(scopes, scope),
				reason: "invalid: wrong shape or failed migration; moved aside untouched",
				at: FIXED_NOW - 120_000,
			},
			{
				file: path.join(dir, "works.json"),
				movedTo: path.join(dir, works),
				reason: "future: written by a newer boulder; moved aside untouched",
				at: FIXED_NOW - 60_000,
			},
			{
				file: decisions,
				movedTo: null,
				reason: "2 line(s) of the decision log could not be read and are skipped",
				at: FIXED_NOW,
			},
		]);
	});

	it("dates a stale lock by its file time and passes over a folder that does not exist", async () => {
		const dir = await tempDir();
		const lock = lockFolderOf(path.join(dir, "works.json"));
		await mkdir(lock);
		const longAgo = new Date(Date.now() - 60_000);
		await utimes(lock, longAgo, longAgo);

		const problems = await scanStateProblems({
			folders: [dir, path.join(dir, "scopes")],
			staleMs: 5_000,
			decisionLog: { file: path.join(dir, "decisions.jsonl"), skippedLines: 0 },
			now: FIXED_NOW,
		});
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatchObject({ file: lock, movedTo: null });
		// File systems keep times at their own precision: a second either way is the same time.
		expect(Math.abs((problems[0]?.at ?? 0) - longAgo.getTime())).toBeLessThan(1_000);
		expect(problems[0]?.reason).toMatch(/^lock left behind/);
	});

	it("names a lock dated a day ahead (left before the clock stepped back) as left behind", async () => {
		const dir = await tempDir();
		const lock = lockFolderOf(path.join(dir, "works.json"));
		await mkdir(lock);
		const dayAhead = new Date(Date.now() + 24 * 3600_000);
		await utimes(lock, dayAhead, dayAhead);
		const problems = await scanStateProblems({
			folders: [dir],
			staleMs: 5_000,
			decisionLog: { file: path.join(dir, "decisions.jsonl"), skippedLines: 0 },
			now: FIXED_NOW,
		});
		expect(problems.map((problem) => problem.file)).toEqual([lock]);
	});
});
