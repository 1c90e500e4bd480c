/**
 * Many processes writing the same state at once lose nothing: the
 * cross-process lock serialises read-modify-writes of a scope and of the
 * works file, every write is atomic, appends to the decision log never
 * interleave inside a line, across rotations, and a scope's tally counts
 * every append of every process without a lock.
 *
 * Counts: `test/fuzz/scale.ts` (8 writers × 25 in `npm test`, 8 × 200 under
 * `npm run fuzz`).
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDecisionLines } from "../../src/state/decision-log.js";
import { FileStore } from "../../src/state/file-store.js";
import { TALLY_RECORD_BYTES } from "../../src/state/scope-tally.js";
import { FULL, scaled } from "../fuzz/scale.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

const WRITERS = 8;
const EACH = scaled(25, 200);
const TOTAL = WRITERS * EACH;
const TIMEOUT = FULL ? 600_000 : 60_000;

async function allExit(children: ReturnType<typeof runChild>[]): Promise<void> {
	for (const exit of await Promise.all(children.map((child) => child.done))) expect(exit.code, exit.stderr).toBe(0);
}

describe("concurrent writers", () => {
	beforeAll(assertBuildFresh);

	it(
		`count exactly ${TOTAL} after ${WRITERS} processes × ${EACH} increments of one scope`,
		async () => {
			const worktree = await tempDir();
			await allExit(
				Array.from({ length: WRITERS }, () => runChild("incrementer.mjs", [worktree, "shared-scope", String(EACH)])),
			);

			const store = new FileStore(worktree);
			const read = await store.readScope("shared-scope");
			expect(read.kind).toBe("ok");
			expect(read.kind === "ok" && read.value.seq).toBe(TOTAL);
			expect(await store.problems()).toEqual([]);
		},
		TIMEOUT,
	);

	it(
		`count exactly ${TOTAL} after ${WRITERS} processes × ${EACH} increments of the works file`,
		async () => {
			const worktree = await tempDir();
			await allExit(
				Array.from({ length: WRITERS }, () => runChild("incrementer.mjs", [worktree, "-", String(EACH), "works"])),
			);

			const store = new FileStore(worktree);
			const read = await store.readWorks();
			expect(read.kind).toBe("ok");
			expect(read.kind === "ok" && read.value.stopped?.at).toBe(TOTAL);
			expect(await store.problems()).toEqual([]);
		},
		TIMEOUT,
	);

	it(
		`tally exactly ${TOTAL} after ${WRITERS} processes × ${EACH} marks of one scope, each its own place, its own mark read back last`,
		async () => {
			const worktree = await tempDir();
			const children = Array.from({ length: WRITERS }, (_, n) =>
				runChild("tallier.mjs", [worktree, "shared-scope", String(EACH), `e${String(n).padStart(8, "0")}`]),
			);
			await allExit(children);
			const store = new FileStore(worktree);
			const tally = store.scopeFile("shared-scope").replace(/\.json$/, ".tally");
			expect((await stat(tally)).size).toBe(TOTAL * TALLY_RECORD_BYTES);
			const told = children.map(
				(child) => JSON.parse(child.lines.at(-1) ?? "{}") as { places: number[]; ownLast: boolean },
			);
			// Each writer read its own mark back at the end of what it was handed, whoever appended around it.
			expect(told.map((one) => one.ownLast)).toEqual(told.map(() => true));
			const counts = told.map((one) => one.places);
			for (const mine of counts) {
				expect(mine).toHaveLength(EACH);
				// Each writer's counts only grow.
				expect(mine.every((count, index) => index === 0 || count > (mine[index - 1] ?? 0))).toBe(true);
			}
			// Every count is its own place: together, the writers' counts are 1, 2, 3, … with none twice.
			const all = counts.flat().sort((a, b) => a - b);
			expect(all).toEqual(Array.from({ length: TOTAL }, (_, index) => index + 1));
			expect(await store.problems()).toEqual([]);
		},
		TIMEOUT,
	);

	it(
		`keep all ${TOTAL} lines whole and in each writer's order after ${WRITERS} processes × ${EACH} appends, across rotations`,
		async () => {
			const file = path.join(await tempDir(), "decisions.jsonl");
			const writers = Array.from({ length: WRITERS }, (_, n) => `w${n}`);
			const keep = 1_000;
			await allExit(
				writers.map((writer) => runChild("appender.mjs", [file, writer, String(EACH), "4096", String(keep)])),
			);
			const rotated = (await readdir(path.dirname(file))).filter((name) => /^decisions\.\d+\.jsonl$/.test(name));
			expect(rotated.length).toBeGreaterThan(3);

			const { records, skipped } = await readDecisionLines(file, { keep });
			expect(skipped).toBe(0);
			expect(records).toHaveLength(TOTAL);
			for (const writer of writers) {
				const mine = records.filter((record) => record.session === writer).map((record) => record.at);
				expect(mine).toEqual(Array.from({ length: EACH }, (_, n) => n));
			}
		},
		TIMEOUT,
	);
});
