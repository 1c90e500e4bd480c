/** The lock across real processes: a holder killed with SIGKILL or ended by SIGTERM, a live holder past the wait. */
import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BoulderError } from "../../src/core/errors.js";
import { lockFolderOf, withLock } from "../../src/state/lock.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

const STALE_MS = 2_000;

describe("withLock across processes", () => {
	beforeAll(assertBuildFresh);

	it("takes over the lock of a holder killed with SIGKILL within the bounded wait", async () => {
		const file = path.join(await tempDir(), "works.json");
		const holder = runChild("lock-holder.mjs", [file, String(STALE_MS)]);
		await holder.waitForLine((line) => line === "locked");
		holder.process.kill("SIGKILL");
		await holder.done;
		expect(existsSync(lockFolderOf(file)), "the dead holder left its lock folder").toBe(true);

		const result = await withLock(file, () => "ran", { staleMs: STALE_MS, waitMs: 15_000 });
		expect(result).toBe("ran");
		expect(existsSync(lockFolderOf(file))).toBe(false);
	}, 30_000);

	it("removes the lock folder of a holder ended by SIGTERM, which still ends by that signal", async () => {
		const file = path.join(await tempDir(), "works.json");
		const holder = runChild("lock-holder.mjs", [file, String(STALE_MS)]);
		await holder.waitForLine((line) => line === "locked");
		expect(existsSync(lockFolderOf(file))).toBe(true);
		holder.process.kill("SIGTERM");
		const exit = await holder.done;
		expect(exit.signal, exit.stderr).toBe("SIGTERM");
		expect(existsSync(lockFolderOf(file)), "the lock folder outlived its holder").toBe(false);
	}, 30_000);

	// A host that handles the signal itself (an SDK program aborting its run on Ctrl-C) keeps it: the lock
	// neither ends the process nor leaves its folder behind, whether a lock is held when the signal comes or not.
	it.each(["held", "released"])(
		"leaves a host's own SIGINT handling alone with a lock %s",
		async (when) => {
			const file = path.join(await tempDir(), "works.json");
			const host = runChild("lock-host.mjs", [file, when]);
			await host.waitForLine((line) => line === "ready");
			host.process.kill("SIGINT");
			const exit = await host.done;
			expect({ code: exit.code, signal: exit.signal, lines: host.lines }, exit.stderr).toEqual({
				code: 0,
				signal: null,
				lines: ["ready", "aborted"],
			});
			expect(existsSync(lockFolderOf(file)), "the lock folder outlived its holder").toBe(false);
		},
		30_000,
	);

	it("fails with lock-timeout naming the file while a live holder keeps it past the wait", async () => {
		const file = path.join(await tempDir(), "scope-a.json");
		// A wider stale time than the minimum leaves the holder slack to refresh on a loaded machine.
		const staleMs = STALE_MS + 1_000;
		const holder = runChild("lock-holder.mjs", [file, String(staleMs)]);
		try {
			await holder.waitForLine((line) => line === "locked");
			let ran = false;
			// The wait outlasts the stale time: a live holder refreshes its lock, so it is never taken over.
			const attempt = withLock(
				file,
				() => {
					ran = true;
				},
				{ staleMs, waitMs: staleMs + 1_000 },
			);
			const error = await attempt.then(
				() => null,
				(reason: unknown) => reason,
			);
			expect(error).toBeInstanceOf(BoulderError);
			expect((error as BoulderError).code).toBe("lock-timeout");
			expect((error as BoulderError).message).toContain(file);
			expect(ran).toBe(false);
		} finally {
			holder.process.kill("SIGKILL");
			await holder.done;
		}
	}, 30_000);
});
