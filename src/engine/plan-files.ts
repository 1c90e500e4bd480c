/**
 * Reads plan files from the worktree: user files, not state, so plain reads,
 * but never trusted. A plan is a regular file of at most `MAX_PLAN_BYTES`: a
 * FIFO, a device or a folder named as a plan, or a link to one, is refused
 * rather than read (it could block or read without end).
 */
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { FileProblem, readRegularFile } from "./bounded-read.js";
import type { PlanSource } from "./engine-types.js";

/** Far more than any plan a person writes; a bigger file is not a plan. */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;

/**
 * Contract: `read` answers null when the file does not exist, and rejects
 * with a `BoulderError` naming the plan and what is wrong with it (the
 * `FileProblem` as its cause) when it cannot be read as a plan.
 */
export const filePlans: PlanSource = {
	async read(worktree, planPath) {
		try {
			return await readRegularFile(path.resolve(worktree, planPath), MAX_PLAN_BYTES);
		} catch (error) {
			if (error instanceof FileProblem && error.kind === "missing") return null;
			const reason = error instanceof FileProblem ? error.reason : String(error);
			throw new BoulderError("plan-invalid", `cannot use ${planPath} as a plan: ${reason}`, { cause: error });
		}
	},
};
