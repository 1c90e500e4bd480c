/**
 * No scope key, however built, makes the store read or write outside
 * `.boulder/scopes/`; nor does a `.boulder` that is a link.
 */
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyContinuationState } from "../../src/core/turns.js";
import { FileStore } from "../../src/state/file-store.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { isSafeScopeKey, MAX_SCOPE_KEY_BYTES, scopeFilePath, scopeKeyProblem } from "../../src/state/scope-path.js";
import { TALLY_RECORD_BYTES } from "../../src/state/scope-tally.js";
import { snapshotTree, tempDir } from "./helpers.js";

/** Two tally marks, as todo hygiene writes them (`changeMark`). */
const MARK = "e0123abcd";
const OTHER = "k0123abcd";

const hostileKeys = [
	"../../etc/passwd",
	"../outside",
	"..",
	".",
	"",
	"a/b",
	"a\\b",
	"/etc/passwd",
	"C:\\Windows\\x",
	"nul\u0000byte",
	"line\nbreak",
	"x".repeat(5000),
	"é".repeat(101),
	".hidden",
	"trailing.",
	"trailing ",
	"colon:key",
	"nul",
	"COM1.log",
];

async function worktreeWithSecret() {
	const root = await tempDir();
	const worktree = path.join(root, "repo");
	await mkdir(worktree);
	// A file the keys above aim at from inside .boulder/scopes/.
	await writeFile(path.join(root, "outside.json"), "secret");
	const store = new FileStore(worktree);
	await store.updateScope("existing", () => ({ result: null, next: emptyContinuationState() }));
	return { root, store };
}

describe("scope keys that are not one safe path segment", () => {
	it("are rejected with a usage error by every scope operation, touching nothing", async () => {
		const { root, store } = await worktreeWithSecret();
		const before = await snapshotTree(root);
		for (const key of hostileKeys) {
			await expect(store.readScope(key), JSON.stringify(key.slice(0, 20))).rejects.toMatchObject({ code: "usage" });
			await expect(
				store.updateScope(key, () => ({ result: null, next: emptyContinuationState() })),
			).rejects.toMatchObject({ code: "usage" });
			await expect(store.tally(key, MARK, 2)).rejects.toMatchObject({ code: "usage" });
			expect(() => store.scopeFile(key)).toThrow();
		}
		expect(await snapshotTree(root)).toEqual(before);
	});

	it("are rejected the same way by the memory store", async () => {
		const store = new MemoryStore();
		for (const key of hostileKeys) {
			await expect(store.readScope(key)).rejects.toMatchObject({ code: "usage" });
			await expect(store.tally(key, MARK, 2)).rejects.toMatchObject({ code: "usage" });
		}
	});

	it("leave ordinary keys alone, each as one file directly inside scopes/", () => {
		const scopes = path.join(path.sep, "w", ".boulder", "scopes");
		for (const key of ["ses_01JABCDEF", "claude-code,abc%2Fdef", "opencode~lineage-3", "a".repeat(200), "nullable"]) {
			expect(isSafeScopeKey(key)).toBe(true);
			expect(path.dirname(scopeFilePath(scopes, key))).toBe(scopes);
		}
	});
});

/**
 * The key check as it was written with patterns: the reference the one-pass
 * check must agree with, word for word.
 */
function patternProblem(key: string): string | null {
	if (key.length === 0) return "is empty";
	if (Buffer.byteLength(key, "utf8") > MAX_SCOPE_KEY_BYTES) return `is longer than ${MAX_SCOPE_KEY_BYTES} bytes`;
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
	if (/[\u0000-\u001f\u007f]/.test(key)) return "contains a control character";
	if (/[/\\]/.test(key)) return "contains a path separator";
	if (/[<>:"|?*]/.test(key)) return "contains a character not allowed in file names";
	if (key.startsWith(".")) return "starts with a dot";
	if (/[. ]$/.test(key)) return "ends with a dot or a space";
	if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(key)) return "is a device name on Windows";
	return null;
}

describe("the scope key check", () => {
	it("words every key's problem as the pattern check did (fast-check)", () => {
		const tricky = fc.constantFrom(
			...'./\\<>:"|?* \u0000\u001f\u007f\u0080é€😀KkſxX19'.split(""),
			...["con", "CoN", "prn", "PRN", "aux", "aUx", "nul", "NUL", "com", "CoM7", "com10", "lpt", "LPT1", "lpt0"],
			"\u212Aon",
		);
		const key = fc.oneof(
			fc.string({ maxLength: 80 }),
			fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join("")),
			fc.string({ unit: "binary", minLength: 60, maxLength: 220 }),
		);
		fc.assert(
			fc.property(key, (one) => {
				expect(scopeKeyProblem(one)).toBe(patternProblem(one));
			}),
			{ numRuns: 3000 },
		);
	});
});

/** A worktree and a folder beside it that a link in `.boulder`'s place could lead writes into. */
async function repoAndElsewhere(): Promise<{ worktree: string; elsewhere: string }> {
	const root = await tempDir();
	const worktree = path.join(root, "repo");
	const elsewhere = path.join(root, "elsewhere");
	await mkdir(worktree);
	await mkdir(elsewhere);
	return { worktree, elsewhere };
}

const freshState = () => ({ result: null, next: emptyContinuationState() });

describe("a .boulder that is not a real folder", () => {
	it("is refused as a link, so writes cannot be led outside the worktree", async () => {
		const { worktree, elsewhere } = await repoAndElsewhere();
		await symlink(elsewhere, path.join(worktree, ".boulder"));
		const store = new FileStore(worktree);

		await expect(store.updateScope("scope-a", freshState)).rejects.toMatchObject({ code: "state-unreadable" });
		await expect(store.readWorks()).rejects.toMatchObject({ code: "state-unreadable" });
		expect(await snapshotTree(elsewhere)).toEqual({});
	});
});

describe("a scope's tally", () => {
	it("marks by appending beside the scope's record, and never through a link in its place", async () => {
		const { root, store } = await worktreeWithSecret();
		const first = await store.tally("existing", MARK, 3);
		const second = await store.tally("existing", OTHER, 3);
		expect([first, second]).toEqual([
			{ place: 1, marks: [MARK] },
			{ place: 2, marks: [MARK, OTHER] },
		]);
		const tally = store.scopeFile("existing").replace(/\.json$/, ".tally");
		expect(await readFile(tally, "utf8")).toHaveLength(2 * TALLY_RECORD_BYTES);
		const outside = path.join(root, "outside.json");
		await symlink(outside, store.scopeFile("linked").replace(/\.json$/, ".tally"));
		await expect(store.tally("linked", MARK, 2)).rejects.toMatchObject({ code: "state-unreadable" });
		expect(await readFile(outside, "utf8")).toBe("secret");
	});

	it("hands back at most the window, and reads what is no mark (an old count, zeroed bytes) as none", async () => {
		const { store } = await worktreeWithSecret();
		const tally = store.scopeFile("old").replace(/\.json$/, ".tally");
		await mkdir(path.dirname(tally), { recursive: true });
		await writeFile(tally, Buffer.concat([Buffer.from("0000abcd\n".repeat(3)), Buffer.alloc(TALLY_RECORD_BYTES)]));
		expect((await store.tally("old", MARK, 3)).marks).toEqual(["", "", MARK]);
		for (let n = 0; n < 5; n++) await store.tally("old", OTHER, 3);
		expect((await store.tally("old", MARK, 3)).marks).toEqual([OTHER, OTHER, MARK]);
		await expect(store.tally("old", "E0123", 3)).rejects.toThrow(/a tally mark is 9 of \[0-9a-z\]/);
	});

	it("is kept the same way by the memory store, a long-lived host's tally bounded but every window whole", async () => {
		const store = new MemoryStore();
		expect(await store.tally("mem", MARK, 3)).toEqual({ place: 1, marks: [MARK] });
		expect(await store.tally("mem", OTHER, 3)).toEqual({ place: 2, marks: [MARK, OTHER] });
		for (let n = 0; n < 25_000; n++) await store.tally("mem", n % 2 ? MARK : OTHER, 1);
		const last = await store.tally("mem", MARK, 10_001);
		expect(last.place).toBe(25_003);
		expect(last.marks).toHaveLength(10_001);
		expect(last.marks.slice(-3)).toEqual([OTHER, MARK, MARK]);
	});

	it("gives each of many at once its own place, and the marks before its own", async () => {
		const { store } = await worktreeWithSecret();
		const marks = Array.from({ length: 40 }, (_, index) => `e${String(index).padStart(8, "0")}`);
		const tallied = await Promise.all(marks.map((mark) => store.tally("busy", mark, 40)));
		const text = await readFile(store.scopeFile("busy").replace(/\.json$/, ".tally"), "latin1");
		expect(text.length).toBe(40 * TALLY_RECORD_BYTES);
		const inFile = text.match(/.{16}/gs)?.map((record) => record.slice(0, 9)) ?? [];
		expect(tallied.map((one) => one.place).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
		for (const [index, one] of tallied.entries()) {
			expect(one.marks.at(-1)).toBe(marks[index]);
			expect(one.marks).toEqual(inFile.slice(0, one.place));
		}
	});
});

describe("a .boulder removed or replaced while a store is open (a long-lived host)", () => {
	it("is made again with its .gitignore when it was removed", async () => {
		const root = await tempDir();
		const store = new FileStore(root);
		await store.updateScope("scope-a", freshState);
		await rm(path.join(root, ".boulder"), { recursive: true, force: true });
		await store.updateScope("scope-a", freshState);
		expect(await readFile(path.join(root, ".boulder", ".gitignore"), "utf8")).toContain("*");
		await rm(path.join(root, ".boulder"), { recursive: true, force: true });
		await store.tally("scope-a", MARK, 2);
		expect(await readFile(path.join(root, ".boulder", ".gitignore"), "utf8")).toContain("*");
	});

	it("is refused, never written through, when a link took its place", async () => {
		const { worktree, elsewhere } = await repoAndElsewhere();
		const store = new FileStore(worktree);
		await store.updateScope("scope-a", freshState);
		await rm(path.join(worktree, ".boulder"), { recursive: true, force: true });
		await symlink(elsewhere, path.join(worktree, ".boulder"));
		await expect(store.updateScope("scope-a", freshState)).rejects.toMatchObject({ code: "state-unreadable" });
		await expect(store.tally("scope-a", MARK, 2)).rejects.toMatchObject({ code: "state-unreadable" });
		expect(await snapshotTree(elsewhere)).toEqual({});
	});
});
