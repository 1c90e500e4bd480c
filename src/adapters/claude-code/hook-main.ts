/**
 * The hook program Claude Code starts for every hook event (through the
 * loader, `node dist/hook/claude-code.cjs <Event>`), bundled into one file,
 * `claude-code-main.cjs` (see `tsdown.config.ts`), so that start-up costs as
 * little as possible: no CLI framework, nothing resolved from node_modules at
 * run time.
 *
 * It always exits 0. A watchdog ends it, printing nothing, shortly before the
 * harness's own timeout would kill it.
 */
import "./zod-jitless.js";
import { readFileSync } from "node:fs";
import { watchdogMs } from "./hook-config.js";
import { runClaudeCodeHook } from "./run-hook.js";

const argv = process.argv.slice(2);
const watchdog = setTimeout(() => {
	process.stderr.write(`boulder: the ${argv[0] ?? ""} hook ran out of time; letting the agent stop\n`);
	process.stdout.write("", () => process.exit(0));
}, watchdogMs(argv[0]));
watchdog.unref();

/**
 * Claude Code writes the whole input and closes the pipe: one synchronous
 * read is much cheaper than setting up a stream. A stdin that cannot be read
 * that way (EAGAIN on a non-blocking pipe) falls back to the stream.
 */
function stdin(): Iterable<Buffer> | NodeJS.ReadStream {
	try {
		return [readFileSync(0)];
	} catch {
		return process.stdin;
	}
}

// Contract: runClaudeCodeHook never rejects; the exit code is 0 whatever happened.
void runClaudeCodeHook(argv, {
	stdin: stdin(),
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env,
	cwd: process.cwd(),
}).then(() => {
	process.exitCode = 0;
});
