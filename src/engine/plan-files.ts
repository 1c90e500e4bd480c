/**
 * Reads plan files from the worktree: user files, not state, so plain reads,
 * but never trusted. A plan is a regular file of at most `MAX_PLAN_BYTES`: a
 * FIFO, a device or a folder named as a plan, or a link to one, is refused
 * rather than read (it could block or read without end).
 */
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { FileProblem, readRegularFile } from "./bounded-read.js";
import type { PlanSource } from "./engine-types.js";

/** Far more than any plan a person writes; a bigger file is not a plan. */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;

/**
 * How long after its last change a file's stamp is trusted. Two writes within
 * one tick of the file system's clock (a few milliseconds; two seconds on
 * FAT) can leave the same times, so a file changed more recently than this
 * is read every time instead.
 */
export const SETTLE_MS = 5000;

/**
 * Plans as files. Contract: `read` answers null when the file does not
 * exist, and rejects with a `BoulderError` naming the plan and what is wrong
 * with it (the `FileProblem` as its cause) when it cannot be read as a plan.
 * `stamp` is the file's device, inode, size and modification and change
 * times: any write, rename over it, `touch` or `chmod` sets the change time,
 * which no program can set back.
 */
export function planFiles(options: { settleMs?: number } = {}): PlanSource {
	const settleMs = options.settleMs ?? SETTLE_MS;
	return {
		async read(worktree, planPath) {
			try {
				return await readRegularFile(path.resolve(worktree, planPath), MAX_PLAN_BYTES);
			} catch (error) {
				if (error instanceof FileProblem && error.kind === "missing") return null;
				const reason = error instanceof FileProblem ? error.reason : String(error);
				throw new BoulderError("plan-invalid", `cannot use ${planPath} as a plan: ${reason}`, { cause: error });
			}
		},
		// Synchronous inside, as `readRegularFile`: a fleet's status stamps a thousand plans.
		async stamp(worktree, planPath) {
			let stats: Stats;
			try {
				stats = statSync(path.resolve(worktree, planPath));
			} catch {
				// Unstamped, so it is read, and the read says what is wrong with it.
				return null;
			}
			// Compared with the file system's clock, not an injected one: both sides are real times.
			if (!stats.isFile() || Date.now() - stats.ctimeMs < settleMs) return null;
			return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
		},
	};
}

export const filePlans: PlanSource = planFiles();
