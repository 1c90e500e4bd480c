/**
 * The lock's promises: a dead holder's lock is taken over within the bounded
 * wait, a live holder makes a waiter fail with `lock-timeout` naming the
 * file, callers in one process queue, and a lost lock is reported, not thrown
 * into a timer.
 */
import { existsSync } from "node:fs";
import { mkdir, rm, symlink, utimes } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FUTURE_SKEW_MS, lockFolderOf, withLock } from "../../src/state/lock.js";
import { tempDir } from "./helpers.js";

const STALE_MS = 2_000;

describe("withLock in one process", () => {
	it("runs one body at a time and in arrival order", async () => {
		const file = path.join(await tempDir(), "works.json");
		let inside = 0;
		let most = 0;
		const order: number[] = [];
		await Promise.all(
			Array.from({ length: 20 }, (_, n) =>
				withLock(file, async () => {
					inside++;
					most = Math.max(most, inside);
					await new Promise((resolve) => setImmediate(resolve));
					order.push(n);
					inside--;
				}),
			),
		);
		expect(most).toBe(1);
		expect(order).toEqual(Array.from({ length: 20 }, (_, n) => n));
	});

	it("times out a queued caller with lock-timeout, and lets later callers through once released", async () => {
		const file = path.join(await tempDir(), "works.json");
		let letGo: () => void = () => {};
		const held = withLock(file, () => new Promise<void>((resolve) => (letGo = resolve)));
		await expect(withLock(file, () => "never", { waitMs: 50 })).rejects.toMatchObject({ code: "lock-timeout" });
		letGo();
		await held;
		await expect(withLock(file, () => "after")).resolves.toBe("after");
	});

	it("releases the lock when the body throws, and passes the error on", async () => {
		const file = path.join(await tempDir(), "works.json");
		await expect(
			withLock(file, () => {
				throw new Error("body failed");
			}),
		).rejects.toThrow("body failed");
		expect(existsSync(lockFolderOf(file))).toBe(false);
	});

	it("reports a lost lock to the holder instead of crashing the process", async () => {
		const file = path.join(await tempDir(), "works.json");
		const reported: Error[] = [];
		const outcome = withLock(
			file,
			async (lock) => {
				// Someone removes the lock folder under us; the next refresh notices.
				await rm(lockFolderOf(file), { recursive: true });
				await new Promise((resolve) => setTimeout(resolve, 1_500));
				lock.assertHeld();
				return "committed";
			},
			{ staleMs: STALE_MS, updateMs: 1_000, onCompromised: (error) => reported.push(error) },
		);
		await expect(outcome).rejects.toMatchObject({ code: "lock-timeout" });
		expect(reported).toHaveLength(1);
	}, 10_000);

	it("refuses to commit after holding the lock longer than its stale time", async () => {
		const file = path.join(await tempDir(), "works.json");
		// The lock's clock is the monotonic one; the test moves it forward.
		const realNow = process.hrtime.bigint;
		let shift = 0n;
		process.hrtime.bigint = () => realNow() + shift;
		try {
			await expect(
				withLock(
					file,
					(lock) => {
						shift = BigInt(STALE_MS + 1) * 1_000_000n;
						lock.assertHeld();
					},
					{ staleMs: STALE_MS },
				),
			).rejects.toMatchObject({ code: "lock-timeout" });
		} finally {
			process.hrtime.bigint = realNow;
		}
	});
});

describe("a lock folder no live holder could have left", () => {
	it("takes over a dead lock dated a day ahead (the clock stepped back) at once, not when the clock catches up", async () => {
		const file = path.join(await tempDir(), "works.json");
		await mkdir(lockFolderOf(file));
		const dayAhead = new Date(Date.now() + 24 * 3600_000);
		await utimes(lockFolderOf(file), dayAhead, dayAhead);
		// waitMs below the stale time: only the future-date rule can let it through.
		await expect(withLock(file, () => "got it", { waitMs: 1_000, staleMs: STALE_MS })).resolves.toBe("got it");
		expect(existsSync(lockFolderOf(file))).toBe(false);
	});

	it("still waits on a lock dated within the skew (a live holder's fresh stamp)", async () => {
		const file = path.join(await tempDir(), "works.json");
		await mkdir(lockFolderOf(file));
		const justAhead = new Date(Date.now() + FUTURE_SKEW_MS / 2);
		await utimes(lockFolderOf(file), justAhead, justAhead);
		await expect(withLock(file, () => "never", { waitMs: 200, staleMs: STALE_MS })).rejects.toMatchObject({
			code: "lock-timeout",
		});
	});

	it("removes a link planted in the lock folder's place without following it", async () => {
		const root = await tempDir();
		const file = path.join(root, "works.json");
		const target = path.join(root, "elsewhere");
		await mkdir(target);
		await symlink(target, lockFolderOf(file));
		await expect(withLock(file, () => "got it", { waitMs: 1_000 })).resolves.toBe("got it");
		expect(existsSync(target)).toBe(true);
		await symlink(path.join(root, "nowhere"), lockFolderOf(file));
		await expect(withLock(file, () => "again", { waitMs: 1_000 })).resolves.toBe("again");
	});
});
