/**
 * Runs a plan's verify commands: a shell command with a timeout, its output
 * trimmed to the tail that matters. The default runs real processes; tests may
 * pass their own.
 *
 * A command runs in a process group of its own (so a timeout kills all it
 * started), and that group never outlives the process that started it: when
 * this process exits, or is told to stop (SIGTERM, SIGINT, SIGHUP: a harness
 * killing its Stop hook), the groups still running are killed first.
 */
import { createRequire } from "node:module";

export interface RunResult {
	/** null: it did not exit on its own (timed out, killed). */
	exitCode: number | null;
	output: string;
	timedOut: boolean;
}

export interface RunOptions {
	cwd: string;
	timeoutMs: number;
	/** Told the command's process group once it runs, so a claim can name it. */
	onStart?: (group: number) => void;
}

export interface Runner {
	run(command: string, options: RunOptions): Promise<RunResult>;
}

/** Keeps the last `max` characters: a failure's cause is usually at the end. */
export function trimOutput(text: string, max = 4000): string {
	if (text.length <= max) return text;
	return `…(${text.length - max} characters cut)\n${text.slice(-max)}`;
}

export const shellRunner: Runner = {
	run(command, { cwd, timeoutMs, onStart }) {
		// Loaded on first use: most hook runs never verify, and loading it costs start-up time.
		const { spawn } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
		return new Promise((resolve) => {
			// Listening before the spawn, not after: the group exists (and its command runs) as soon as spawn
			// returns, and a stop signal that came before the listeners would end this process by default and
			// leave the group running. A signal that comes once they listen is handled on the event loop, after
			// the group is in `running`.
			starting++;
			listen();
			const start = () => spawn(command, { cwd, shell: true, detached: true, stdio: ["ignore", "pipe", "pipe"] });
			let child: ReturnType<typeof start>;
			try {
				child = start();
			} catch (error) {
				starting--;
				quietIfIdle();
				throw error;
			}
			starting--;
			const group = child.pid;
			if (group !== undefined) {
				running.add(group);
				onStart?.(group);
			} else {
				quietIfIdle();
			}
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
				if (group !== undefined) unwatchGroup(group);
				resolve({ exitCode: null, output: `could not start: ${error.message}`, timedOut: false });
			});
			child.on("close", (code) => {
				clearTimeout(timer);
				if (group !== undefined) unwatchGroup(group);
				resolve({ exitCode: timedOut ? null : code, output: trimOutput(output), timedOut });
			});
		});
	},
};

/** The verify groups this process started and that still run. */
const running = new Set<number>();
/** Spawns under way: their group is not in `running` yet, but the listeners must already be there. */
let starting = 0;
let listening = false;
const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

function killAll(): void {
	for (const group of running) killGroup(group);
	running.clear();
}

/** Kills the groups, then lets the signal do what it would have done (unless someone else listens for it). */
function onStopSignal(signal: NodeJS.Signals): void {
	killAll();
	removeHandlers();
	if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function listen(): void {
	if (listening) return;
	listening = true;
	process.on("exit", killAll);
	for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal);
}

function removeHandlers(): void {
	listening = false;
	process.off("exit", killAll);
	for (const signal of STOP_SIGNALS) process.off(signal, onStopSignal);
}

/** Stops listening once no group runs and none is being started. */
function quietIfIdle(): void {
	if (running.size === 0 && starting === 0) removeHandlers();
}

function unwatchGroup(group: number): void {
	running.delete(group);
	quietIfIdle();
}

function killGroup(pid: number | undefined): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, "SIGKILL");
	} catch {
		// The group is already gone: nothing left to stop.
	}
}
