/**
 * The hook program, bundled once per harness with its dialect alone (`dist/hook/<harness>-main.cjs`, run
 * through `loader.ts`) so start-up costs as little as possible: no CLI framework, no other harness's code,
 * nothing resolved from node_modules at run time. It exits 0, or 2 when it wakes the agent (an
 * `asyncRewake` hook); a watchdog ends it with 0, printing nothing, before the harness's timeout would.
 */
import "./zod-jitless.js";
import { readFileSync, writeSync } from "node:fs";
import type { FileChanges } from "../../engine/file-changes.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import { watchdogMs } from "../command-hook/registrations.js";
import { openFileChangeEngine, runCommandHook, runDialect } from "../command-hook/runtime.js";
import { handBackCaCerts } from "../shared/hook-form.js";
import type { CommandHookInput } from "../shared/hook-input.js";
import type { HookStreams } from "../types.js";

/** Runs one hook event for `dialect`; `<harness> <event>` and `<event>` alone are both its arguments. */
export function runHookMain(dialect: CommandHookDialect): void {
	runHook(dialect, (argv, streams) => runDialect(argv, streams, dialect));
}

/** The same for a bundle that answers file changes alone (`file-change.ts`): it opens no `Engine`. */
export function runFileChangeMain(dialect: CommandHookDialect<CommandHookInput, FileChanges>): void {
	runHook(dialect, (argv, streams) => runCommandHook(argv, streams, dialect, openFileChangeEngine));
}

function runHook(
	dialect: Pick<CommandHookDialect, "harness" | "registrations">,
	run: (argv: string[], streams: HookStreams) => Promise<number>,
): void {
	handBackCaCerts(process.env);
	const given = process.argv.slice(2);
	const argv = given[0] === dialect.harness ? given.slice(1) : given;
	const watchdog = setTimeout(
		() => {
			process.stderr.write(`boulder: the ${argv[0] ?? ""} hook ran out of time; letting the agent stop\n`);
			process.stdout.write("", () => process.exit(0));
		},
		watchdogMs(dialect.registrations, argv[0]),
	);
	watchdog.unref();
	// Contract: a dialect's run never rejects; the exit code is 0 whatever went wrong.
	void run(argv, {
		stdin: stdin(),
		stdout: direct(1, () => process.stdout),
		stderr: direct(2, () => process.stderr),
		env: process.env,
		cwd: process.cwd(),
	}).then((code) => {
		process.exitCode = code;
	});
}

/**
 * The harness writes the whole input and closes the pipe: one synchronous read costs far less than setting
 * up a stream, which only a stdin that cannot be read so (EAGAIN on a non-blocking pipe) falls back to.
 */
function stdin(): Iterable<Buffer> | NodeJS.ReadStream {
	try {
		return [readFileSync(0)];
	} catch {
		return process.stdin;
	}
}

/**
 * Straight to the descriptor: setting up `process.stdout` (a socket, for a pipe) costs more than writing a
 * few hundred bytes once. What the descriptor does not take at once (EAGAIN) or at all goes to the stream.
 */
function direct(fd: number, stream: () => NodeJS.WriteStream): { write(chunk: string): void } {
	let fallback = false;
	return {
		write(chunk) {
			let rest = Buffer.from(chunk);
			try {
				while (!fallback && rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
			} catch {
				fallback = true;
			}
			if (rest.length > 0) stream().write(rest);
		},
	};
}
