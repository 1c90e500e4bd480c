/**
 * The hook bundles' synchronous stand-in for `node:fs/promises`
 * (`src/adapters/hook/shims/`): the same results and the same
 * errors as node's own, settled asynchronously, and never holding the event
 * loop's timers (the hook's watchdog) back for long.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as real from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const shim = require("../../../src/adapters/hook/shims/fs-promises.cjs") as typeof real;

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(path.join(os.tmpdir(), "boulder-fs-shims-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<NodeJS.ErrnoException> {
	try {
		await promise;
	} catch (error) {
		return error as NodeJS.ErrnoException;
	}
	throw new Error("expected a failure");
}

const sameError = (error: NodeJS.ErrnoException) => ({
	message: error.message,
	code: error.code,
	syscall: error.syscall,
	path: error.path,
});

describe("the fs/promises stand-in", () => {
	it("writes, flushes, renames and reads back as node's does", async () => {
		const temp = path.join(dir, "a", ".file.tmp");
		expect(await shim.mkdir(path.dirname(temp), { recursive: true, mode: 0o700 })).toBe(path.dirname(temp));
		const handle = await shim.open(temp, "wx+", 0o600);
		await handle.writeFile("hello\n");
		const { bytesWritten } = await handle.write(Buffer.from("more\n"));
		expect(bytesWritten).toBe(5);
		await handle.sync();
		expect((await handle.stat()).size).toBe(11);
		const head = Buffer.alloc(5);
		expect((await handle.read(head, 0, 5, 0)).bytesRead).toBe(5);
		expect(head.toString()).toBe("hello");
		await handle.close();
		await handle.close();
		const file = path.join(dir, "a", "file");
		await shim.rename(temp, file);
		expect(await shim.readFile(file, "utf8")).toBe(await real.readFile(file, "utf8"));
		expect((await shim.lstat(file)).mode & 0o777).toBe(0o600);
		expect(await shim.readdir(path.join(dir, "a"))).toEqual(["file"]);
		await shim.unlink(file);
		await shim.rmdir(path.join(dir, "a"));
		expect(await real.readdir(dir)).toEqual([]);
	});

	it("fails with node's own errors: the same code, call, path and message", async () => {
		const missing = path.join(dir, "missing");
		for (const call of [
			(fs: typeof real) => fs.lstat(missing),
			(fs: typeof real) => fs.open(missing, "r"),
			(fs: typeof real) => fs.mkdir(path.join(dir, "no", "such"), { mode: 0o700 }),
			(fs: typeof real) => fs.rename(missing, path.join(dir, "b")),
			(fs: typeof real) => fs.rmdir(missing),
		]) {
			expect(sameError(await failure(call(shim)))).toEqual(sameError(await failure(call(real))));
		}
		await shim.writeFile(path.join(dir, "f"), "x");
		const exists = (fs: typeof real) => fs.open(path.join(dir, "f"), "wx");
		expect(sameError(await failure(exists(shim)))).toEqual(sameError(await failure(exists(real))));
	});

	it("refuses a closed handle", async () => {
		const handle = await shim.open(path.join(dir, "f"), "w");
		await handle.close();
		expect((await failure(handle.sync())).code).toBe("EBADF");
	});

	it("settles later, never in the caller's turn", async () => {
		let settled = false;
		const pending = shim.lstat(dir).then(() => {
			settled = true;
		});
		expect(settled).toBe(false);
		await pending;
		expect(settled).toBe(true);
	});

	it("lets a timer run during a long run of operations, and hands a failure over handled", async () => {
		let fired = false;
		setTimeout(() => {
			fired = true;
		}, 0);
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => unhandled.push(reason);
		process.on("unhandledRejection", onUnhandled);
		try {
			const start = Date.now();
			let failures = 0;
			// Each failure is caught when it arrives, as the state code does.
			while (Date.now() - start < 100 && !fired) {
				await shim.lstat(path.join(dir, "missing")).catch(() => failures++);
			}
			expect(fired).toBe(true);
			expect(failures).toBeGreaterThan(0);
			await new Promise((resolve) => setImmediate(resolve));
			expect(unhandled).toEqual([]);
		} finally {
			process.off("unhandledRejection", onUnhandled);
		}
	});

	it("passes what it does not stand in for to node's own", () => {
		expect(shim.constants).toBe(real.constants);
		expect(shim.opendir).toBe(real.opendir);
	});
});
