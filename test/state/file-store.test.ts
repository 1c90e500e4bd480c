/**
 * The file store's layout and housekeeping: `.boulder/` appears on the first
 * write with its `.gitignore`, reads create nothing, and `problems()` names
 * lock folders and temp files left by dead processes.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyContinuationState } from "../../src/core/turns.js";
import { tempFileName } from "../../src/state/atomic-write.js";
import { FileStore } from "../../src/state/file-store.js";
import { lockFolderOf } from "../../src/state/lock.js";
import { decision, modeOf, snapshotTree, tempDir } from "./helpers.js";

describe("layout", () => {
	it("creates nothing on reads, and .boulder/ (0700) with a .gitignore of * on the first write", async () => {
		const worktree = await tempDir();
		const store = new FileStore(worktree);
		expect((await store.readScope("scope-a")).kind).toBe("missing");
		expect((await store.readWorks()).kind).toBe("missing");
		expect(await store.readDecisions()).toEqual([]);
		expect(await store.problems()).toEqual([]);
		expect(await snapshotTree(worktree)).toEqual({});

		await store.updateScope("scope-a", () => ({ result: null, next: emptyContinuationState() }));
		expect(await modeOf(store.dir)).toBe(0o700);
		expect(await modeOf(store.paths.scopes)).toBe(0o700);
		expect(await modeOf(store.scopeFile("scope-a"))).toBe(0o600);
		expect((await readFile(store.paths.gitignore, "utf8")).split("\n")).toContain("*");
		expect(JSON.parse(await readFile(store.scopeFile("scope-a"), "utf8"))).toEqual({
			schemaVersion: 1,
			state: emptyContinuationState(),
		});
	});

	it("makes .boulder/ again when it is removed behind a store that already made it", async () => {
		const store = new FileStore(await tempDir());
		await store.updateScope("scope-a", () => ({ result: null, next: emptyContinuationState() }));
		await rm(store.dir, { recursive: true });
		await store.updateScope("scope-b", () => ({ result: null, next: { ...emptyContinuationState(), seq: 2 } }));
		await store.updateWorks((current) => ({ result: null, next: current.kind === "ok" ? current.value : null }));
		await rm(store.dir, { recursive: true });
		await store.appendDecision(decision({ at: 1 }));
		expect((await store.readDecisions()).length).toBe(1);
		await rm(store.dir, { recursive: true });
		await store.updateScope("scope-b", () => ({ result: null, next: { ...emptyContinuationState(), seq: 3 } }));
		const read = await store.readScope("scope-b");
		expect(read.kind === "ok" && read.value.seq).toBe(3);
		expect(await modeOf(store.paths.scopes)).toBe(0o700);
	});

	it("refuses to write a state that does not match the schema, leaving the old one", async () => {
		const store = new FileStore(await tempDir());
		await store.updateScope("scope-a", () => ({ result: null, next: { ...emptyContinuationState(), seq: 3 } }));
		await expect(
			store.updateScope("scope-a", () => ({ result: null, next: { ...emptyContinuationState(), seq: 1.5 } })),
		).rejects.toMatchObject({ code: "internal" });
		const read = await store.readScope("scope-a");
		expect(read.kind === "ok" && read.value.seq).toBe(3);
	});
});

describe("problems()", () => {
	it("names lock folders and temp files older than the stale time, and not fresh ones", async () => {
		const store = new FileStore(await tempDir(), { lock: { staleMs: 5_000 } });
		await store.updateScope("scope-a", () => ({ result: null, next: emptyContinuationState() }));
		const oldLock = lockFolderOf(store.scopeFile("scope-a"));
		const oldTemp = path.join(store.dir, tempFileName(store.paths.works));
		const freshLock = lockFolderOf(store.paths.works);
		await mkdir(oldLock);
		await writeFile(oldTemp, '{"half');
		await mkdir(freshLock);
		const longAgo = new Date(Date.now() - 60_000);
		await utimes(oldLock, longAgo, longAgo);
		await utimes(oldTemp, longAgo, longAgo);

		const problems = await store.problems();
		expect(problems.map((problem) => problem.file).sort()).toEqual([oldTemp, oldLock].sort());
		expect(problems.find((problem) => problem.file === oldLock)?.reason).toMatch(/lock left behind/);
		expect(problems.find((problem) => problem.file === oldTemp)?.reason).toMatch(/temp file/);
		// The temp file is never read as state.
		expect((await store.readWorks()).kind).toBe("missing");
	});

	it("is empty for a healthy store", async () => {
		const store = new FileStore(await tempDir());
		await store.updateScope("scope-a", () => ({ result: null, next: emptyContinuationState() }));
		await store.updateWorks(() => ({ result: null, next: null }));
		expect(await store.problems()).toEqual([]);
		expect(existsSync(store.paths.works)).toBe(false);
	});
});
