/**
 * Atomic writes in one process: owner-only modes, no temp file left behind,
 * and a failed write leaves the target as it was.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTempFileName, tempFileName, writeFileAtomic } from "../../src/state/atomic-write.js";
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
