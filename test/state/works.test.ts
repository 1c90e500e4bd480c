/**
 * The works file: v1 (one flat plan) migrates to v2 through the named step,
 * checked against real-shaped old files; the file store migrates on read,
 * rewrites only on update, and keeps the original bytes when it does.
 */
import { copyFile, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileStore } from "../../src/state/file-store.js";
import { emptyWorksFile, migrateWorksV1ToV2, WorksFile, WorksFileV1 } from "../../src/state/works.js";
import { fixedClock, fixturesDir, tempDir } from "./helpers.js";

const context = { worktree: "/home/ada/src/shop", harness: "opencode" };
const migrating = ["works-v1-minimal", "works-v1-full", "works-v1-nested-no-sessions"];

async function fixture(name: string): Promise<unknown> {
	return JSON.parse(await readFile(path.join(fixturesDir, `${name}.json`), "utf8"));
}

describe("migrateWorksV1ToV2", () => {
	for (const name of migrating) {
		it(`turns ${name} into its expected v2 file`, async () => {
			const v1 = WorksFileV1.parse(await fixture(name));
			const v2 = migrateWorksV1ToV2(v1, context);
			expect(v2).toEqual(await fixture(`${name}.expected-v2`));
			expect(WorksFile.safeParse(v2).success).toBe(true);
		});
	}

	it("is pure: same output twice, input untouched", async () => {
		const v1 = WorksFileV1.parse(await fixture("works-v1-full"));
		const copy = structuredClone(v1);
		expect(migrateWorksV1ToV2(v1, context)).toEqual(migrateWorksV1ToV2(v1, context));
		expect(v1).toEqual(copy);
	});

	it("makes the first session the direct one and drops repeated ids", async () => {
		const v2 = migrateWorksV1ToV2(WorksFileV1.parse(await fixture("works-v1-full")), context);
		const work = v2.works[v2.activeWorkId ?? ""];
		expect(work?.sessions.map((session) => session.how)).toEqual(["direct", "appended", "appended"]);
	});

	it("refuses a start time it cannot read rather than inventing one", async () => {
		const v1 = WorksFileV1.parse(await fixture("works-v1-bad-date"));
		expect(() => migrateWorksV1ToV2(v1, context)).toThrow(/startedAt/);
	});
});

describe("the file store and a v1 works file", () => {
	async function storeWith(name: string) {
		const worktree = await tempDir();
		const store = new FileStore(worktree, { clock: fixedClock(), legacyHarness: "opencode" });
		await store.updateScope("seed", () => ({ result: null, next: null }));
		await copyFile(path.join(fixturesDir, `${name}.json`), store.paths.works);
		return { worktree, store, original: await readFile(store.paths.works) };
	}

	it("reads it as v2 without rewriting it", async () => {
		const { worktree, store, original } = await storeWith("works-v1-minimal");
		const read = await store.readWorks();
		expect(read.kind).toBe("ok");
		const work = read.kind === "ok" ? read.value.works["plan-v1"] : undefined;
		expect(work).toMatchObject({ planPath: "PLAN.md", worktree, status: "active" });
		expect(await readFile(store.paths.works)).toEqual(original);
	});

	it("writes v2 on update and keeps the v1 bytes beside it", async () => {
		const { store, original } = await storeWith("works-v1-full");
		await store.updateWorks((current) => {
			if (current.kind !== "ok") throw new Error("expected the migrated file");
			return { result: null, next: { ...current.value, stopped: { at: 1, by: "user" } } };
		});
		const onDisk = JSON.parse(await readFile(store.paths.works, "utf8"));
		expect(onDisk.schemaVersion).toBe(2);
		expect(onDisk.stopped).toEqual({ at: 1, by: "user" });
		expect(await readFile(`${store.paths.works}.v1-20261130T101500Z`)).toEqual(original);
		expect(await store.problems()).toEqual([]);
		const events = await store.readDecisions();
		expect(events).toEqual([expect.objectContaining({ kind: "event", reason: "state-migrated" })]);
	});

	it("keeps a v1 file whose migration fails aside, as invalid", async () => {
		const { store, original } = await storeWith("works-v1-bad-date");
		const read = await store.readWorks();
		expect(read.kind).toBe("unreadable");
		expect(read.kind === "unreadable" && read.problem.reason).toMatch(/^invalid: migration migrateWorksV1ToV2 failed/);
		expect(await readFile(`${store.paths.works}.invalid-20261130T101500Z`)).toEqual(original);
	});

	it("writes nothing when the update returns no next value", async () => {
		const { store, original } = await storeWith("works-v1-minimal");
		const result = await store.updateWorks(() => ({ result: "kept", next: null }));
		expect(result).toBe("kept");
		expect(await readFile(store.paths.works)).toEqual(original);
		expect((await readdir(store.dir)).filter((name) => name.startsWith("works.json"))).toEqual(["works.json"]);
	});
});

describe("WorksFile", () => {
	it("rejects an active id that names no work, and a work filed under another id", async () => {
		const v2 = migrateWorksV1ToV2(WorksFileV1.parse(await fixture("works-v1-minimal")), context);
		expect(WorksFile.safeParse({ ...v2, activeWorkId: "gone" }).success).toBe(false);
		const work = v2.works["plan-v1"];
		expect(WorksFile.safeParse({ ...v2, works: { ...v2.works, other: work } }).success).toBe(false);
		expect(WorksFile.safeParse(v2).success).toBe(true);
	});
});

describe("emptyWorksFile", () => {
	it("is a valid v2 file with nothing active and no stop", () => {
		expect(WorksFile.parse(emptyWorksFile())).toEqual({
			schemaVersion: 2,
			activeWorkId: null,
			stopped: null,
			works: {},
		});
	});
});
