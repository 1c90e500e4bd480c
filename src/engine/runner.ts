/**
 * Runs a plan's verify commands: a shell command with a timeout, its output
 * trimmed to the tail that matters. The default runs real processes; tests may
 * pass their own.
 */
import { createRequire } from "node:module";

export interface RunResult {
	/** null: it did not exit on its own (timed out, killed). */
	exitCode: number | null;
	output: string;
	timedOut: boolean;
}

export interface Runner {
	run(command: string, options: { cwd: string; timeoutMs: number }): Promise<RunResult>;
}

/** Keeps the last `max` characters: a failure's cause is usually at the end. */
export function trimOutput(text: string, max = 4000): string {
	if (text.length <= max) return text;
	return `…(${text.length - max} characters cut)\n${text.slice(-max)}`;
}

export const shellRunner: Runner = {
	run(command, { cwd, timeoutMs }) {
		// Loaded on first use: most hook runs never verify, and loading it costs start-up time.
		const { spawn } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
		return new Promise((resolve) => {
			const child = spawn(command, { cwd, shell: true, detached: true, stdio: ["ignore", "pipe", "pipe"] });
			let output = "";
			const collect = (chunk: Buffer) => {
				output = trimOutput(output + chunk.toString("utf8"), 64_000);
			};
			child.stdout.on("data", collect);
			child.stderr.on("data", collect);
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				killGroup(child.pid);
			}, timeoutMs);
			child.on("error", (error) => {
				clearTimeout(timer);
				resolve({ exitCode: null, output: `could not start: ${error.message}`, timedOut: false });
			});
			child.on("close", (code) => {
				clearTimeout(timer);
				resolve({ exitCode: timedOut ? null : code, output: trimOutput(output), timedOut });
			});
		});
	},
};

function killGroup(pid: number | undefined): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, "SIGKILL");
	} catch {
		// The group is already gone: nothing left to stop.
	}
}
