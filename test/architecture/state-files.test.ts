import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSources, type SourceFile } from "./imports.js";

/**
 * Every state file is opened through `state/state-file.ts` (O_NOFOLLOW, a
 * regular file, the same file after the open), so no state module may take a
 * function that opens, reads or writes a file by its path from `node:fs`.
 * Renames, unlinks, lstat and readdir stay allowed: they never follow a link
 * in the last component.
 */
const DOOR = "state/state-file.ts";
const BY_PATH = new Set([
	"open",
	"openSync",
	"readFile",
	"readFileSync",
	"writeFile",
	"writeFileSync",
	"appendFile",
	"appendFileSync",
	"createReadStream",
	"createWriteStream",
	"copyFile",
	"copyFileSync",
	"cp",
	"cpSync",
	"truncate",
	"truncateSync",
	"utimes",
	"utimesSync",
	"chmod",
	"chmodSync",
]);
const FS_MODULE = /^(node:)?fs(\/promises)?$/;

function stateDoorViolations(sources: readonly SourceFile[]): string[] {
	const found: string[] = [];
	for (const { file, text } of sources) {
		if (!file.startsWith("state/") || file === DOOR) continue;
		for (const match of text.matchAll(/import\s+([^;]*?)\s+from\s+["']([^"']+)["']/g)) {
			const [, clause = "", module = ""] = match;
			if (!FS_MODULE.test(module)) continue;
			if (!clause.trim().startsWith("{")) {
				found.push(`${file}: imports ${module} whole (${clause.trim()}); take only what cannot open a file`);
				continue;
			}
			const names = clause
				.replace(/[{}]/g, "")
				.split(",")
				.map(
					(part) =>
						part
							.trim()
							.replace(/^type\s+/, "")
							.split(/\s+as\s+/)[0] ?? "",
				)
				.filter(Boolean);
			for (const name of names) {
				if (BY_PATH.has(name)) found.push(`${file}: takes ${name} from ${module}; open state files through ${DOOR}`);
			}
		}
		for (const match of text.matchAll(/(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)) {
			if (FS_MODULE.test(match[1] ?? "")) found.push(`${file}: loads ${match[1]} dynamically`);
		}
	}
	return found;
}

const SRC = path.resolve(import.meta.dirname, "../../src");
const sources = readSources(SRC);

describe("one door to state files", () => {
	it("sees the state layer and the door", () => {
		expect(sources.filter((source) => source.file.startsWith("state/")).length).toBeGreaterThan(10);
		expect(sources.some((source) => source.file === DOOR)).toBe(true);
	});

	it("no state module opens, reads or writes a file by path except through state/state-file.ts", () => {
		expect(stateDoorViolations(sources)).toEqual([]);
	});

	it("catches a state module that opens a file itself, whole-module imports and dynamic loads", () => {
		const planted: SourceFile[] = [
			{ file: "state/oops.ts", text: 'import { open, type FileHandle, rename } from "node:fs/promises";' },
			{ file: "state/oops2.ts", text: 'import { readFileSync as read } from "fs";\nimport * as fs from "node:fs";' },
			{ file: "state/oops3.ts", text: 'const fs = await import("node:fs/promises");' },
			{ file: "cli/fine.ts", text: 'import { open } from "node:fs/promises";' },
		];
		expect(stateDoorViolations(planted)).toEqual([
			"state/oops.ts: takes open from node:fs/promises; open state files through state/state-file.ts",
			"state/oops2.ts: takes readFileSync from fs; open state files through state/state-file.ts",
			"state/oops2.ts: imports node:fs whole (* as fs); take only what cannot open a file",
			"state/oops3.ts: loads node:fs/promises dynamically",
		]);
	});
});
