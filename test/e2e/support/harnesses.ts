/**
 * Where the pinned harness binaries are: their own package under
 * `test/harnesses/` (installed by `npm test`, or `npm run harnesses`), so
 * that `npm install` at the root stays small. `BOULDER_HARNESSES` names
 * another such folder (the compatibility lane installs the newest releases
 * into one).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The folder whose `node_modules` holds the harnesses. */
export const HARNESS_ROOT = resolve(process.env.BOULDER_HARNESSES ?? join(REPO_ROOT, "test", "harnesses"));

/** The harnesses' `node_modules`. */
export const HARNESS_MODULES = join(HARNESS_ROOT, "node_modules");

/** A harness's program in `node_modules/.bin`. */
export function harnessBin(name: string): string {
	return join(HARNESS_MODULES, ".bin", name);
}

/** Throws a message that says how to install the harnesses when they are missing. */
export function requireHarness(file: string): string {
	if (!existsSync(file)) {
		throw new Error(`${file} is missing: the harness binaries are installed by \`npm test\` or \`npm run harnesses\``);
	}
	return file;
}
