/**
 * A state file that cannot be used fails closed: the read says `unreadable`,
 * the original bytes are moved aside intact under a dated name, `problems()`
 * names it, the decision log records it, and the next read starts fresh.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyContinuationState } from "../../src/core/turns.js";
import { FileStore } from "../../src/state/file-store.js";
import type { Read } from "../../src/state/store.js";
import { emptyWorksFile } from "../../src/state/works.js";
import { fixedClock, snapshotTree, tempDir } from "./helpers.js";

const scopeBody = JSON.stringify({ schemaVersion: 1, state: emptyContinuationState() });
const worksBody = JSON.stringify(emptyWorksFile());

interface BadCase {
	name: string;
	reason: string;
	/** Puts the bad thing at `file`. */
	make(file: string): Promise<void>;
}

const cases: Record<"works" | "scope", BadCase[]> = {
	works: [
		{ name: "truncated JSON", reason: "corrupt", make: (file) => writeFile(file, worksBody.slice(0, 30)) },
		{
			name: "wrong types",
			reason: "invalid",
			make: (file) => writeFile(file, JSON.stringify({ ...emptyWorksFile(), activeWorkId: 42, works: [] })),
		},
		{
			name: "a future schemaVersion",
			reason: "future",
			make: (file) => writeFile(file, JSON.stringify({ ...emptyWorksFile(), schemaVersion: 3 })),
		},
		{ name: "an empty file", reason: "corrupt", make: (file) => writeFile(file, "") },
		{
			name: "a directory",
			reason: "not-a-file",
			make: async (file) => {
				await mkdir(file);
				await writeFile(path.join(file, "inside.txt"), "kept");
			},
		},
	],
	scope: [
		{ name: "truncated JSON", reason: "corrupt", make: (file) => writeFile(file, scopeBody.slice(0, 40)) },
		{
			name: "wrong types",
			reason: "invalid",
			make: (file) =>
				writeFile(file, JSON.stringify({ schemaVersion: 1, state: { ...emptyContinuationState(), seq: "three" } })),
		},
		{
			name: "a future schemaVersion",
			reason: "future",
			make: (file) => writeFile(file, JSON.stringify({ schemaVersion: 2, state: {} })),
		},
		{ name: "an empty file", reason: "corrupt", make: (file) => writeFile(file, "") },
		{
			name: "a directory",
			reason: "not-a-file",
			make: async (file) => {
				await mkdir(file);
				await writeFile(path.join(file, "inside.txt"), "kept");
			},
		},
	],
};

async function setUp(kind: "works" | "scope", bad: BadCase) {
	const worktree = await tempDir();
	const store = new FileStore(worktree, { clock: fixedClock() });
	// A first write lays out .boulder/ the way it is in real use.
	await store.updateScope("other", () => ({ result: null, next: emptyContinuationState() }));
	const file = kind === "works" ? store.paths.works : store.scopeFile("scope-a");
	await bad.make(file);
	const before = await snapshotTree(path.dirname(file));
	const original = before[path.basename(file)];
	// A plain read of a scope changes nothing; the locked update is what moves a bad scope file aside.
	const read = (): Promise<Read<unknown>> =>
		kind === "works"
			? store.readWorks()
			: store.updateScope("scope-a", (current): { result: Read<unknown>; next: null } => ({
					result: current,
					next: null,
				}));
	return { store, file, original, read };
}

for (const kind of ["works", "scope"] as const) {
	describe(`a bad ${kind} file`, () => {
		for (const bad of cases[kind]) {
			it(`with ${bad.name}: reads unreadable, moves the bytes aside intact, and problems() names it`, async () => {
				const { store, file, original, read } = await setUp(kind, bad);

				const first = await read();
				expect(first.kind).toBe("unreadable");
				if (first.kind !== "unreadable") return;
				const expectedAside = `${file}.${bad.reason}-20261130T101500Z`;
				expect(first.problem).toMatchObject({ file, movedTo: expectedAside });
				expect(first.problem.reason).toMatch(new RegExp(`^${bad.reason}: `));
				expect(existsSync(file)).toBe(false);

				const after = await snapshotTree(path.dirname(file));
				expect(after[path.basename(expectedAside)]).toBe(original);
				if (bad.reason === "not-a-file") {
					expect(await readFile(path.join(expectedAside, "inside.txt"), "utf8")).toBe("kept");
				}

				const problems = await store.problems();
				expect(problems).toEqual([
					expect.objectContaining({ file, movedTo: expectedAside, reason: expect.stringContaining(bad.reason) }),
				]);
				const logged = await store.readDecisions();
				expect(logged).toEqual([expect.objectContaining({ kind: "event", reason: "state-unreadable" })]);
				expect(logged[0]?.detail).toContain(path.basename(expectedAside));

				expect((await read()).kind).toBe("missing");
			});
		}
	});
}

describe("a plain read of a bad scope file", () => {
	it("reports it unreadable and leaves it in place, so the next update still fails closed", async () => {
		const { store, file, original } = await setUp("scope", cases.scope[0] as BadCase);
		const read = await store.readScope("scope-a");
		expect(read.kind).toBe("unreadable");
		expect(read.kind === "unreadable" && read.problem.movedTo).toBeNull();
		expect((await snapshotTree(path.dirname(file)))[path.basename(file)]).toBe(original);
		const seen = await store.updateScope("scope-a", (current) => ({ result: current.kind, next: null }));
		expect(seen).toBe("unreadable");
	});
});

describe("bad files met inside an update", () => {
	it("hands the update `unreadable`, moves the file aside, then writes the fresh state", async () => {
		const worktree = await tempDir();
		const store = new FileStore(worktree, { clock: fixedClock() });
		await store.updateScope("scope-a", () => ({ result: null, next: emptyContinuationState() }));
		const file = store.scopeFile("scope-a");
		await writeFile(file, "{ not json");

		const seen = await store.updateScope("scope-a", (current) => ({
			result: current.kind,
			next: { ...emptyContinuationState(), seq: 7 },
		}));
		expect(seen).toBe("unreadable");
		expect(await readFile(`${file}.corrupt-20261130T101500Z`, "utf8")).toBe("{ not json");
		const read = await store.readScope("scope-a");
		expect(read.kind === "ok" && read.value.seq).toBe(7);
	});

	it("adds a counter when the aside name is taken", async () => {
		const worktree = await tempDir();
		const store = new FileStore(worktree, { clock: fixedClock() });
		await store.updateWorks(() => ({ result: null, next: emptyWorksFile() }));
		await writeFile(store.paths.works, "first");
		await store.readWorks();
		await writeFile(store.paths.works, "second");
		const read = await store.readWorks();
		expect(read.kind === "unreadable" && read.problem.movedTo).toBe(`${store.paths.works}.corrupt-20261130T101500Z-2`);
		expect(await readFile(`${store.paths.works}.corrupt-20261130T101500Z`, "utf8")).toBe("first");
		expect(await readFile(`${store.paths.works}.corrupt-20261130T101500Z-2`, "utf8")).toBe("second");
		expect((await store.problems()).map((problem) => problem.movedTo)).toEqual([
			`${store.paths.works}.corrupt-20261130T101500Z`,
			`${store.paths.works}.corrupt-20261130T101500Z-2`,
		]);
	});
});
