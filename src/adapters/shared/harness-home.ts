/** Where a harness keeps its user files: the folder its variable names, else its folder in the user's home. */
import os from "node:os";
import path from "node:path";

/** `harnessHome(env, "CODEX_HOME", ".codex")`: `$CODEX_HOME` where set (not empty), else `~/.codex`. */
export function harnessHome(env: NodeJS.ProcessEnv, variable: string, folder: string): string {
	return env[variable] || path.join(env.HOME || os.homedir(), folder);
}
