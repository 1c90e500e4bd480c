import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
	FileProblem,
	fileProblemOf,
	openRegularFile,
	readRegularFile,
	sizeInWords,
} from "../../src/engine/bounded-read.js";
import { makeFifo } from "../support/fifo.js";
import { tempWorktree } from "./helpers.js";

const posix = process.platform !== "win32";

let dir: string;

beforeEach(async () => {
	dir = await tempWorktree();
});

async function problem(promise: Promise<unknown>): Promise<FileProblem> {
	const error = await promise.then(
		() => null,
		(rejected: unknown) => rejected,
	);
	if (!(error instanceof FileProblem)) throw new Error(`expected a FileProblem, got ${String(error)}`);
	return error;
}

function fifo(name: string): string {
	const file = path.join(dir, name);
	makeFifo(file);
	return file;
}

describe("reading only regular files", () => {
	it("reads a regular file, and one reached through a symbolic link", async () => {
		const file = path.join(dir, "plan.md");
		await writeFile(file, "- [ ] one ✓\n");
		await symlink(file, path.join(dir, "link.md"));

		expect(await readRegularFile(file, 1024)).toBe("- [ ] one ✓\n");
		expect(await readRegularFile(path.join(dir, "link.md"), 1024)).toBe("- [ ] one ✓\n");
	});

	it.runIf(posix)("refuses a FIFO at once instead of waiting for a writer that never comes", async () => {
		const file = fifo("f.md");

		const refused = await problem(readRegularFile(file, 1024));

		expect(refused).toMatchObject({ kind: "not-regular", file });
		expect(refused.message).toBe(`${file}: it is a FIFO (named pipe), not a regular file`);
	});

	it.runIf(posix && existsSync("/dev/zero"))("refuses a device, also through a symbolic link", async () => {
		await symlink("/dev/zero", path.join(dir, "zero.md"));

		expect(await problem(readRegularFile("/dev/zero", 1024))).toMatchObject({
			kind: "not-regular",
			reason: "it is a character device, not a regular file",
		});
		expect(await problem(openRegularFile(path.join(dir, "zero.md")))).toMatchObject({ kind: "not-regular" });
	});

	it("refuses a folder", async () => {
		await mkdir(path.join(dir, "plans"));

		expect(await problem(readRegularFile(path.join(dir, "plans"), 1024))).toMatchObject({
			kind: "not-regular",
			reason: "it is a folder, not a regular file",
		});
	});

	it("says a missing file is missing, a dangling link included", async () => {
		await symlink(path.join(dir, "gone.md"), path.join(dir, "dangling.md"));

		expect(await problem(readRegularFile(path.join(dir, "nope.md"), 1024))).toMatchObject({ kind: "missing" });
		expect(await problem(openRegularFile(path.join(dir, "dangling.md")))).toMatchObject({
			kind: "missing",
			reason: "it does not exist",
		});
	});

	it("says what else went wrong in the system's words", async () => {
		await writeFile(path.join(dir, "file"), "x");

		const refused = await problem(readRegularFile(path.join(dir, "file", "below.md"), 1024));

		expect(refused.kind).toBe("unreadable");
		expect(refused.reason).toContain("ENOTDIR");
	});
});

describe("size limits", () => {
	it("reads a file of exactly the limit and refuses one byte more", async () => {
		const file = path.join(dir, "plan.md");
		await writeFile(file, "x".repeat(1000));
		expect(await readRegularFile(file, 1000)).toHaveLength(1000);

		await writeFile(file, "x".repeat(1001));
		expect(await problem(readRegularFile(file, 1000))).toMatchObject({
			kind: "too-large",
			reason: "it is larger than 1000 bytes, the most boulder reads",
		});
	});

	it.runIf(process.platform === "linux")(
		"holds the limit for a file whose size reads as 0 but which has content",
		async () => {
			// /proc files are regular files of size 0; their text is longer than 8 bytes.
			expect(await problem(readRegularFile("/proc/self/status", 8))).toMatchObject({ kind: "too-large" });
			expect(await readRegularFile("/proc/self/status", 1024 * 1024)).toContain("Name:");
		},
	);

	it("reads a file larger than the first buffer, growing it up to the limit", async () => {
		const file = path.join(dir, "big.md");
		const text = "é".repeat(300_000);
		await writeFile(file, text);

		expect(await readRegularFile(file, 4 * 1024 * 1024)).toBe(text);
	});

	it("names sizes in words", () => {
		expect(sizeInWords(4 * 1024 * 1024)).toBe("4 MB");
		expect(sizeInWords(1.5 * 1024 * 1024)).toBe("1.5 MB");
		expect(sizeInWords(64 * 1024)).toBe("64 KB");
		expect(sizeInWords(12)).toBe("12 bytes");
	});
});

describe("finding the problem behind an error", () => {
	it("takes the problem itself or the cause of a wrapping error", () => {
		const inner = new FileProblem("/p", "too-large", "it is larger than 4 MB, the most boulder reads");

		expect(fileProblemOf(inner)).toBe(inner);
		expect(fileProblemOf(new Error("wrapped", { cause: inner }))).toBe(inner);
		expect(fileProblemOf(new Error("plain"))).toBeNull();
	});
});
