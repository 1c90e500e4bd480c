/**
 * Many processes doing read-modify-write on one scope lose no update: the
 * cross-process lock serialises them and every write is atomic.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FileStore } from "../../src/state/file-store.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

describe("concurrent read-modify-write", () => {
	beforeAll(assertBuildFresh);

	it("counts exactly 1600 after 8 processes × 200 increments of one scope", async () => {
		const worktree = await tempDir();
		const children = Array.from({ length: 8 }, () => runChild("incrementer.mjs", [worktree, "shared-scope", "200"]));
		const exits = await Promise.all(children.map((child) => child.done));
		for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);

		const store = new FileStore(worktree);
		const read = await store.readScope("shared-scope");
		expect(read.kind).toBe("ok");
		expect(read.kind === "ok" && read.value.seq).toBe(1600);
		expect(await store.problems()).toEqual([]);
	}, 60_000);
});
