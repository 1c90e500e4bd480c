/** Where a harness keeps its user files: the folder its variable names, else its folder in the user's home. */
import os from "node:os";
import path from "node:path";

/**
 * `harnessHome(env, "CODEX_HOME", ".codex")`: `$CODEX_HOME` where set (not empty), taken as it is (a leading `~`
 * is no home, a relative path is relative to the working folder), else `~/.codex`. Codex CLI, Gemini CLI, Copilot
 * CLI and Factory Droid read their variables so (their notes); Claude Code, Qwen Code and pi do not, and have their
 * own functions (`claudeConfigDir`, `qwenHome`, `agentDir`).
 */
export function harnessHome(env: NodeJS.ProcessEnv, variable: string, folder: string): string {
	return env[variable] || path.join(env.HOME || os.homedir(), folder);
}
