/**
 * Atomic writes in one process: owner-only modes, no temp file left behind,
 * and a failed write leaves the target as it was.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTempFileName, namingFile, tempFileName, writeFileAtomic } from "../../src/state/atomic-write.js";
import { withLock } from "../../src/state/lock.js";
import { modeOf, tempDir } from "./helpers.js";

describe("writeFileAtomic", () => {
	it("creates missing folders 0700 and the file 0600, and replaces content whole", async () => {
		const root = await tempDir();
		const file = path.join(root, "a", "b", "state.json");
		await writeFileAtomic(file, "first");
		await writeFileAtomic(file, "second, longer");
		expect(await readFile(file, "utf8")).toBe("second, longer");
		expect(await modeOf(file)).toBe(0o600);
		expect(await modeOf(path.join(root, "a"))).toBe(0o700);
		expect(await modeOf(path.join(root, "a", "b"))).toBe(0o700);
		expect(await readdir(path.dirname(file))).toEqual(["state.json"]);
	});

	it("makes a folder again that was removed after an earlier write made it (the lock's too)", async () => {
		const dir = path.join(await tempDir(), "deep", "state");
		const file = path.join(dir, "a.json");
		await writeFileAtomic(file, "one");
		await rm(path.join(dir, ".."), { recursive: true });
		await writeFileAtomic(file, "two");
		expect(await readFile(file, "utf8")).toBe("two");
		expect(await modeOf(dir)).toBe(0o700);
		await rm(path.join(dir, ".."), { recursive: true });
		await expect(withLock(file, () => writeFileAtomic(file, "three"))).resolves.toBeUndefined();
		expect(await readFile(file, "utf8")).toBe("three");
	});

	it("leaves the target and the folder as they were when the rename fails", async () => {
		const root = await tempDir();
		const target = path.join(root, "state.json");
		await mkdir(target);
		await writeFile(path.join(target, "inside"), "kept");
		await expect(writeFileAtomic(target, "new")).rejects.toThrow();
		expect(await readdir(root)).toEqual(["state.json"]);
		expect(await readFile(path.join(target, "inside"), "utf8")).toBe("kept");
	});

	it("names temp files so they can never be taken for state", () => {
		const name = tempFileName("/w/.boulder/works.json");
		expect(isTempFileName(name)).toBe(true);
		expect(name.startsWith(".works.json.")).toBe(true);
		expect(isTempFileName("works.json")).toBe(false);
		expect(isTempFileName("scope.tmp.json")).toBe(false);
		expect(tempFileName("/w/x.json")).not.toBe(tempFileName("/w/x.json"));
	});
});

describe("a write that fails in the file system", () => {
	it("names the file it was writing (ENOSPC, EIO and the like say only 'write')", async () => {
		const dir = await tempDir();
		// A name the target can have but its temp file cannot (over 255 bytes with the temp suffix).
		const file = path.join(dir, `${"w".repeat(240)}.json`);
		await expect(writeFileAtomic(file, "{}")).rejects.toThrow(`cannot write ${file}: `);
		await expect(writeFileAtomic(file, "{}")).rejects.toMatchObject({ code: "ENAMETOOLONG" });
	});

	it("leaves a message that already names the file as it is, and keeps the errno code", () => {
		const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		expect(namingFile(enospc, "/w/.boulder/works.json")).toMatchObject({
			code: "ENOSPC",
			message: "cannot write /w/.boulder/works.json: ENOSPC: no space left on device, write",
		});
		const named = Object.assign(new Error("EACCES: permission denied, open '/w/x'"), { code: "EACCES" });
		expect((namingFile(named, "/w/x") as Error).message).toBe("EACCES: permission denied, open '/w/x'");
	});
});
