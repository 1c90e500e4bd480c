/**
 * A harness run as the e2e tests start it (detached, in its own process
 * group): its output collected, killed with its whole group after
 * `timeoutMs`, and its group killed when it closes, since tool subprocesses
 * may outlive the harness and must never be left running after a test.
 */
import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
}

export function collectOutput(child: ChildProcess, timeoutMs: number): Promise<ChildOutput> {
	let stdout = "";
	let stderr = "";
	let timedOut = false;
	child.stdout?.on("data", (chunk: Buffer) => {
		stdout += chunk.toString("utf8");
	});
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString("utf8");
	});
	const timer = setTimeout(() => {
		timedOut = true;
		signalGroup(child, "SIGKILL");
	}, timeoutMs);
	return new Promise((resolve, reject) => {
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (exitCode, signal) => {
			clearTimeout(timer);
			signalGroup(child, "SIGKILL");
			resolve({ exitCode, signal, timedOut, stdout, stderr });
		});
	});
}

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is already gone: nothing left to stop.
	}
}
