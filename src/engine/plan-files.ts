/**
 * Reads plan files from the worktree: user files, not state, so plain reads,
 * but never trusted. A plan is a regular file of at most `MAX_PLAN_BYTES`: a
 * FIFO, a device or a folder named as a plan, or a link to one, is refused
 * rather than read (it could block or read without end).
 */
import { realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { BoulderError, isBoulderError } from "../core/errors.js";
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
				return await readRegularFile(insideWorktree(worktree, planPath), MAX_PLAN_BYTES);
			} catch (error) {
				if (isBoulderError(error)) throw error;
				if (error instanceof FileProblem && error.kind === "missing") return null;
				const reason = error instanceof FileProblem ? error.reason : String(error);
				throw new BoulderError("plan-invalid", `cannot use ${planPath} as a plan: ${reason}`, { cause: error });
			}
		},
		// Synchronous inside, as `readRegularFile`: a fleet's status stamps a thousand plans.
		async stamp(worktree, planPath) {
			let stats: Stats;
			try {
				stats = statSync(insideWorktree(worktree, planPath));
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

/**
 * The plan's file, when it lies inside the worktree once every link is
 * followed; otherwise a `BoulderError`: a plan path, or a link on
 * the way to it, that leads out of the worktree is never read.
 */
function insideWorktree(worktree: string, planPath: string): string {
	const file = path.resolve(worktree, planPath);
	if (!isWithin(path.resolve(worktree), file)) throw outside(planPath);
	let real: string;
	try {
		real = realPath(file);
	} catch {
		// Missing (or a dangling link): the read says so.
		return file;
	}
	let root: string;
	try {
		root = realPath(worktree);
	} catch {
		root = path.resolve(worktree);
	}
	if (!isWithin(root, real)) throw outside(planPath);
	return real;
}

/** The system's `realpath` (one call, where node's walks the path a link at a time), except on Windows. */
const realPath = process.platform === "win32" ? realpathSync : realpathSync.native;

function isWithin(root: string, file: string): boolean {
	const relative = path.relative(root, file);
	return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function outside(planPath: string): BoulderError {
	return new BoulderError("plan-invalid", `cannot use ${planPath} as a plan: it leads outside the worktree`);
}

export const filePlans: PlanSource = planFiles();
