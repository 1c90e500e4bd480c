/**
 * boulder's lock and proper-lockfile's (which boulder locked through before,
 * and an older boulder still does) exclude each other, both ways, and agree
 * on when a lock is stale: the protocol on disk is one.
 */
import { existsSync } from "node:fs";
import { mkdir, utimes } from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import { describe, expect, it } from "vitest";
import { lockFolderOf, withLock } from "../../src/state/lock.js";
import { tempDir } from "./helpers.js";

const STALE_MS = 2_000;

describe("boulder's lock beside proper-lockfile's", () => {
	it("waits on a lock proper-lockfile holds, and times out while it is held", async () => {
		const file = path.join(await tempDir(), "works.json");
		const release = await lockfile.lock(file, { stale: STALE_MS, realpath: false, retries: 0 });
		try {
			let ran = false;
			await expect(
				withLock(
					file,
					() => {
						ran = true;
					},
					{ waitMs: 300, staleMs: STALE_MS },
				),
			).rejects.toMatchObject({ code: "lock-timeout" });
			expect(ran).toBe(false);
		} finally {
			await release();
		}
		await expect(withLock(file, () => "after", { staleMs: STALE_MS })).resolves.toBe("after");
	});

	it("holds off proper-lockfile while it holds the lock, and lets it in once released", async () => {
		const file = path.join(await tempDir(), "works.json");
		await withLock(
			file,
			async () => {
				await expect(lockfile.lock(file, { stale: STALE_MS, realpath: false, retries: 0 })).rejects.toMatchObject({
					code: "ELOCKED",
				});
				expect(await lockfile.check(file, { stale: STALE_MS, realpath: false })).toBe(true);
			},
			{ staleMs: STALE_MS },
		);
		expect(existsSync(lockFolderOf(file))).toBe(false);
		const release = await lockfile.lock(file, { stale: STALE_MS, realpath: false, retries: 0 });
		await release();
	});

	it("both take over a lock folder untouched for the stale time, and neither a fresh one", async () => {
		const dir = await tempDir();
		const old = new Date(Date.now() - STALE_MS - 1_000);
		for (const taker of ["boulder", "proper-lockfile"] as const) {
			const file = path.join(dir, `${taker}.json`);
			await mkdir(lockFolderOf(file));
			await utimes(lockFolderOf(file), old, old);
			if (taker === "boulder") {
				await expect(withLock(file, () => "took it", { waitMs: 200, staleMs: STALE_MS })).resolves.toBe("took it");
			} else {
				const release = await lockfile.lock(file, { stale: STALE_MS, realpath: false, retries: 0 });
				await release();
			}
		}
		const fresh = path.join(dir, "fresh.json");
		await mkdir(lockFolderOf(fresh));
		await expect(withLock(fresh, () => "never", { waitMs: 200, staleMs: STALE_MS })).rejects.toMatchObject({
			code: "lock-timeout",
		});
		await expect(lockfile.lock(fresh, { stale: STALE_MS, realpath: false, retries: 0 })).rejects.toMatchObject({
			code: "ELOCKED",
		});
	});
});
