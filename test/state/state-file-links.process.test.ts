/**
 * No state file is read or written through a link, a FIFO or a folder in its
 * place. A checkout can carry `.boulder/decisions.jsonl -> ../../.bashrc`:
 * the log must move the link aside untouched, start afresh, and say so.
 */
import { execFileSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readNewestDecisions } from "../../src/state/decision-tail.js";
import { FileStore } from "../../src/state/file-store.js";
import { isNotAStateFile, openStateFile, openStateFileSync } from "../../src/state/state-file.js";
import { decision, fixedClock, tempDir } from "./helpers.js";

async function plantedLog(): Promise<{ store: FileStore; outside: string; before: string }> {
	const root = await tempDir();
	const worktree = path.join(root, "repo");
	await mkdir(path.join(worktree, ".boulder"), { recursive: true });
	const outside = path.join(root, ".bashrc");
	const before = "# my shell start-up\nexport PATH=$PATH:~/bin\n";
	await writeFile(outside, before);
	await symlink("../../.bashrc", path.join(worktree, ".boulder", "decisions.jsonl"));
	return { store: new FileStore(worktree, { clock: fixedClock() }), outside, before };
}

describe("a link planted at the decision log", () => {
	it("is never appended through: the target is unchanged, the link moved aside, the log fresh", async () => {
		const { store, outside, before } = await plantedLog();
		await store.appendDecision(decision({ worktree: store.worktree, detail: "$(touch /tmp/pwned)" }));
		expect(await readFile(outside, "utf8")).toBe(before);
		expect(lstatSync(store.paths.decisions).isFile()).toBe(true);
		const names = await readdir(store.dir);
		const aside = names.find((name) => name.startsWith("decisions.jsonl.not-a-file-"));
		expect(aside).toBeDefined();
		expect(await readlink(path.join(store.dir, aside as string))).toBe("../../.bashrc");
		const records = await store.readDecisions();
		expect(records.map((record) => record.reason)).toEqual(["state-unreadable", decision().reason]);
		expect(records[0]?.detail).toContain("a link to ../../.bashrc");
	});

	it("is named by problems() (what doctor shows) as a file moved aside", async () => {
		const { store } = await plantedLog();
		await store.appendDecision(decision({ worktree: store.worktree }));
		const problems = await store.problems();
		expect(problems).toContainEqual(
			expect.objectContaining({ file: store.paths.decisions, reason: expect.stringContaining("not a regular file") }),
		);
	});

	it("is refused by every reader, which name it instead of reading the target", async () => {
		const { store } = await plantedLog();
		await expect(store.readDecisions()).rejects.toThrow(
			/decisions\.jsonl is a link to \.\.\/\.\.\/\.bashrc, not a regular file/,
		);
		await expect(readNewestDecisions(store.paths.decisions, { limit: 5, keep: 1 })).rejects.toThrow(
			/decisions\.jsonl is a link to \.\.\/\.\.\/\.bashrc, not a regular file/,
		);
		const problems = await store.problems();
		expect(problems).toContainEqual(
			expect.objectContaining({ file: store.paths.decisions, reason: expect.stringContaining("a link") }),
		);
	});
});

describe("a FIFO or a folder in the decision log's place", () => {
	it("is named, not read, and moved aside by the next append", async () => {
		const root = await tempDir();
		const store = new FileStore(root, { clock: fixedClock() });
		await mkdir(store.dir, { recursive: true });
		execFileSync("mkfifo", [store.paths.decisions]);
		await expect(store.readDecisions()).rejects.toThrow(
			/decisions\.jsonl is a FIFO \(named pipe\), not a regular file/,
		);
		expect(await store.problems()).toContainEqual(
			expect.objectContaining({ reason: expect.stringContaining("a FIFO (named pipe), not a regular file") }),
		);
		await store.appendDecision(decision({ worktree: root }));
		expect(lstatSync(store.paths.decisions).isFile()).toBe(true);
		expect((await store.readDecisions()).length).toBe(2);
	});

	it("a folder likewise", async () => {
		const root = await tempDir();
		const store = new FileStore(root, { clock: fixedClock() });
		await mkdir(store.paths.decisions, { recursive: true });
		await expect(store.readDecisions()).rejects.toThrow(/decisions\.jsonl is a folder, not a regular file/);
		await store.appendDecision(decision({ worktree: root }));
		expect(lstatSync(store.paths.decisions).isFile()).toBe(true);
	});
});

describe("openStateFile", () => {
	it("refuses a link, a folder and a FIFO for every use, and opens a regular file", async () => {
		const root = await tempDir();
		const target = path.join(root, "target");
		await writeFile(target, "x");
		await symlink(target, path.join(root, "link"));
		await mkdir(path.join(root, "folder"));
		execFileSync("mkfifo", [path.join(root, "fifo")]);
		for (const name of ["link", "folder", "fifo"]) {
			const file = path.join(root, name);
			await expect(openStateFile(file, "read")).rejects.toSatisfy(isNotAStateFile);
			await expect(openStateFile(file, "append")).rejects.toSatisfy(isNotAStateFile);
			expect(() => openStateFileSync(file)).toThrow(/not a regular file/);
		}
		expect(await readFile(target, "utf8")).toBe("x");
		expect(await openStateFile(path.join(root, "none"), "read")).toBeNull();
		const handle = await openStateFile(target, "read");
		expect((await handle?.readFile())?.toString()).toBe("x");
		await handle?.close();
	});
});
