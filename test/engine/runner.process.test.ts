/**
 * Verify commands never outlive the process that runs them: a harness that
 * kills its Stop hook (SIGTERM, SIGINT, SIGHUP) kills the verify's process
 * group with it, and the hook still ends as the signal says. Needs
 * `npm run build` (the child loads `dist/`).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const child = new URL("./children/verify-holder.mjs", import.meta.url).pathname;
const earlyChild = new URL("./children/verify-early-signal.mjs", import.meta.url).pathname;

/**
 * Whether any process of the group still runs. On Linux a zombie (killed,
 * not yet reaped by whoever inherited it) does not count: `kill(-group, 0)`
 * would still find it.
 */
function alive(group: number): boolean {
	if (process.platform === "linux") {
		return readdirSync("/proc")
			.filter((name) => /^\d+$/.test(name))
			.some((pid) => {
				try {
					const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
					const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
					return Number(pgrp) === group && state !== "Z";
				} catch {
					return false;
				}
			});
	}
	try {
		process.kill(-group, 0);
		return true;
	} catch {
		return false;
	}
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!what()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

describe.runIf(process.platform !== "win32")("a verify command when its hook is killed", () => {
	for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
		it(`dies with the hook on ${signal}`, async () => {
			const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-runner-"));
			const groupFile = path.join(dir, "group");
			const hook = spawn(process.execPath, [child, dir, groupFile], { stdio: ["ignore", "pipe", "pipe"] });
			const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
				hook.on("exit", (code, how) => resolve({ code, signal: how })),
			);
			await until(() => existsSync(groupFile) && readFileSync(groupFile, "utf8").trim() !== "");
			const group = Number(readFileSync(groupFile, "utf8").trim());
			expect(alive(group)).toBe(true);

			hook.kill(signal);

			expect(await exited).toEqual({ code: null, signal });
			await until(() => !alive(group));
			expect(alive(group)).toBe(false);
		});
	}

	// The group exists, and its command runs, as soon as spawn returns: a harness that kills its hook then
	// (on a loaded machine, in the moment between the spawn and the runner's next line) must still take the
	// group with it. The child signals itself from inside spawn, so that moment is hit every time.
	for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
		it(`dies with the hook on ${signal} sent the moment the group exists`, async () => {
			const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-runner-"));
			const groupFile = path.join(dir, "group");
			const hook = spawn(process.execPath, [earlyChild, dir, groupFile, signal], { stdio: ["ignore", "pipe", "pipe"] });
			const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
				hook.on("exit", (code, how) => resolve({ code, signal: how })),
			);

			expect(await exited).toEqual({ code: null, signal });
			const group = Number(readFileSync(groupFile, "utf8").trim());
			try {
				await until(() => !alive(group), 5_000).catch(() => undefined);
				expect(alive(group)).toBe(false);
			} finally {
				try {
					process.kill(-group, "SIGKILL");
				} catch {
					// gone, as it should be
				}
			}
		});
	}
});
