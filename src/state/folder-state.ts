/**
 * Where boulder keeps the state of a folder that is no project (`/`, the home
 * folder, a temp folder, a session under a user-scope install): under the
 * user's state folder, one folder per folder, so a session there still gets
 * continuation for its own todo list and the folder itself is never littered.
 *
 *   <state home>/folders/<name>-<hash>/   laid out as a worktree's `.boulder/`
 *
 * The key is the folder's base name (readable in a listing) and a hash of its
 * absolute path (injective in practice, and path-safe whatever the name holds).
 */
import path from "node:path";
import { hash64 } from "../core/hash.js";
import { boulderStateHome } from "./worktree-index.js";

export const FOLDERS_DIR_NAME = "folders";

/** Contract: pure; the same folder and environment always give the same path. */
export function folderStateDir(folder: string, env: Record<string, string | undefined> = process.env): string {
	const absolute = path.resolve(folder);
	const name =
		path
			.basename(absolute)
			.toLowerCase()
			.replace(/[^a-z0-9._-]+/g, "-")
			.replace(/^[-.]+|-+$/g, "")
			.slice(0, 40) || "root";
	const hash = hash64(absolute);
	return path.join(boulderStateHome({ env }), FOLDERS_DIR_NAME, `${name}-${hash}`);
}
