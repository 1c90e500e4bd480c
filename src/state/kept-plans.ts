/** Where a worktree keeps plan files of its own, inside boulder's folder: `.boulder/plans/`. */
import path from "node:path";
import { STATE_DIR_NAME } from "./file-store.js";

export const PLANS_FOLDER = "plans";

export function keptPlansFolder(worktree: string): string {
	return path.join(worktree, STATE_DIR_NAME, PLANS_FOLDER);
}
