/**
 * `openWorkspace`, which the CLI and the adapters share: the worktree root,
 * the store, the config with its layers, an engine, and the user-level index
 * kept without ever failing the open.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isBoulderError } from "../../src/core/errors.js";
import { INDEX_REFRESH_MS, openState, openWorkspace } from "../../src/engine/open.js";
import { listWorktrees, worktreeIndexFile } from "../../src/state/worktree-index.js";
import { sandbox } from "./helpers.js";

describe("openWorkspace", () => {
	it("finds the worktree from a subfolder and loads the project config", async () => {
		const box = await sandbox();
		const project = await box.write("boulder.config.json", JSON.stringify({ stagnationLimit: 5 }));
		const sub = path.join(box.worktree, "src", "deep");
		await mkdir(sub, { recursive: true });
		const workspace = await openWorkspace({ cwd: sub, env: box.env, clock: box.clock });
		expect(workspace.worktree).toBe(box.worktree);
		expect(workspace.store.worktree).toBe(box.worktree);
		expect(workspace.config.stagnationLimit).toBe(5);
		expect(workspace.layers.map((layer) => layer.source)).toEqual([project]);
		expect(workspace.engine.config).toBe(workspace.config);
		expect(workspace.warnings).toEqual([]);
	});

	it("throws a config-invalid error naming the file for a bad config", async () => {
		const box = await sandbox();
		const project = await box.write("boulder.config.json", JSON.stringify({ nextItems: "three" }));
		const error = await openWorkspace({ cwd: box.worktree, env: box.env }).catch((caught: unknown) => caught);
		expect(isBoulderError(error) && error.code).toBe("config-invalid");
		expect((error as Error).message).toContain(project);
		expect((error as Error).message).toContain("nextItems");
	});

	it("lists the worktree in the user-level index only once it has state, refreshed at most every few minutes", async () => {
		const box = await sandbox();
		const index = { env: box.env };
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect(await listWorktrees(index)).toEqual([]);

		await mkdir(path.join(box.worktree, ".boulder"));
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		const first = await listWorktrees(index);
		expect(first.map((entry) => entry.root)).toEqual([box.worktree]);

		box.clock.advance(INDEX_REFRESH_MS - 1);
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect((await listWorktrees(index))[0]?.lastSeen).toBe(first[0]?.lastSeen);

		box.clock.advance(2);
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect((await listWorktrees(index))[0]?.lastSeen).toBe(box.clock.now());
	});

	it("does not read the index on an open soon after the worktree was recorded", async () => {
		const box = await sandbox();
		await mkdir(path.join(box.worktree, ".boulder"));
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		// Any read of a bad index moves it aside: still in place, it was not read.
		const index = worktreeIndexFile({ env: box.env });
		await writeFile(index, "[1, 2");
		box.clock.advance(INDEX_REFRESH_MS - 1);
		const handle = await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect(handle.warnings).toEqual([]);
		expect(await readFile(index, "utf8")).toBe("[1, 2");
	});

	it("lists the worktree again within the refresh interval of a removed index, and after a clock set back", async () => {
		const box = await sandbox();
		const index = { env: box.env };
		await mkdir(path.join(box.worktree, ".boulder"));
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		await rm(worktreeIndexFile(index));
		box.clock.advance(INDEX_REFRESH_MS);
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect((await listWorktrees(index)).map((entry) => entry.root)).toEqual([box.worktree]);

		box.clock.advance(-3_600_000);
		await openState({ cwd: box.worktree, env: box.env, clock: box.clock });
		expect((await listWorktrees(index))[0]?.lastSeen).toBe(box.clock.now());
	});

	it("turns an index that cannot be written into a warning, not a failure", async () => {
		const box = await sandbox();
		await mkdir(path.join(box.worktree, ".boulder"));
		const blocker = path.join(box.root, "not-a-folder");
		await writeFile(blocker, "a file where the state folder should be");
		const env = { ...box.env, BOULDER_STATE_HOME: path.join(blocker, "state") };
		const handle = await openState({ cwd: box.worktree, env });
		expect(handle.warnings).toHaveLength(1);
		expect(handle.warnings[0]).toContain(`could not record ${box.worktree} in the worktree index`);

		const ran = await box.run(["status"]);
		expect(ran.code).toBe(0);
		const viaCli = await (async () => {
			const { main } = await import("../../src/cli/main.js");
			let err = "";
			const code = await main(["status"], {
				stdout: { write: () => true },
				stderr: { write: (chunk: string) => (err += chunk) },
				env,
				cwd: box.worktree,
			});
			return { code, err };
		})();
		expect(viaCli.code).toBe(0);
		expect(viaCli.err).toContain("boulder: warning: could not record");
	});
});
