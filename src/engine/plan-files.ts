/** Reads plan files from the worktree: user files, not state, so plain reads. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { PlanSource } from "./engine.js";

export const filePlans: PlanSource = {
	async read(worktree, planPath) {
		try {
			return await readFile(path.resolve(worktree, planPath), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	},
};
