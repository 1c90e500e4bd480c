/**
 * Drives the real Codex CLI the way its TUI drives it: `codex app-server`
 * over stdio (JSON-RPC, one message a line), so Codex's own goal mode can
 * run. `codex exec` cannot run a goal: it shuts down when the first turn
 * ends and aborts the turn the goal starts on idle.
 *
 * A run starts a thread in the sandbox's project and either sets a goal
 * (`thread/goal/set`, what the TUI's `/goal OBJECTIVE` sends, with origin
 * `user`; the goal starts the first turn itself) or starts one turn with the
 * prompt, then waits until the thread has
 * been idle for `settleMs` with no new turn (the goal stopped continuing),
 * or until `maxTurns` turns have run (a runaway: the goal has no turn cap),
 * or the timeout. Then the server is shut down.
 *
 * Contract: every run ends (a timeout kills the process group); the
 * notifications are returned for the test to read.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { CODEX_BIN, type CodexSandbox } from "./codex-run.js";

export interface AppServerRunOptions {
	/** The first turn's prompt when no goal is set. */
	prompt?: string;
	modelUrl: string;
	/** The goal's objective, set before the first turn (as `/goal OBJECTIVE` does). */
	goal?: string;
	/** Stop once this many turns have started (a runaway goal). Default 12. */
	maxTurns?: number;
	/** How long an idle thread must stay idle to count as stopped. Default 4 s. */
	settleMs?: number;
	/** Default 150 s. */
	timeoutMs?: number;
	/** Filled in once the thread runs: `interrupt()` sends `turn/interrupt` for the running turn (the TUI's Esc). */
	control?: { interrupt?: () => void };
}

export interface AppServerRunResult {
	threadId: string | undefined;
	turns: number;
	/** The run stopped at `maxTurns` (the harness would have gone on). */
	runaway: boolean;
	timedOut: boolean;
	/** Every notification, in order. */
	notifications: { method: string; params: Record<string, unknown> }[];
	/** The goal's last status from `thread/goal/updated`, or null. */
	goalStatus: string | null;
	stderr: string;
}

export async function runCodexAppServer(
	sandbox: CodexSandbox,
	options: AppServerRunOptions,
): Promise<AppServerRunResult> {
	const maxTurns = options.maxTurns ?? 12;
	const settleMs = options.settleMs ?? 4_000;
	const child = spawn(
		CODEX_BIN,
		[
			"app-server",
			"-c",
			"tools.update_plan.enabled=true",
			"-c",
			`model_providers.scripted.base_url=${JSON.stringify(options.modelUrl)}`,
		],
		{ cwd: sandbox.project, env: sandbox.env, detached: true, stdio: ["pipe", "pipe", "pipe"] },
	);
	let stderr = "";
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString("utf8");
	});
	const notifications: AppServerRunResult["notifications"] = [];
	const waiting = new Map<number, (message: Record<string, unknown>) => void>();
	let turns = 0;
	let running = false;
	let goalStatus: string | null = null;
	let turnId: string | undefined;
	let idleTimer: NodeJS.Timeout | null = null;
	let finish: (reason: "settled" | "runaway" | "timeout" | "exit") => void = () => {};
	const finished = new Promise<"settled" | "runaway" | "timeout" | "exit">((resolve) => {
		finish = resolve;
	});
	const armIdle = () => {
		if (idleTimer) clearTimeout(idleTimer);
		idleTimer = setTimeout(() => {
			if (!running) finish("settled");
		}, settleMs);
	};
	let nextId = 1;
	const send = (message: Record<string, unknown>) => child.stdin?.write(`${JSON.stringify(message)}\n`);
	const request = (method: string, params: Record<string, unknown>) =>
		new Promise<Record<string, unknown>>((resolve) => {
			const id = nextId++;
			waiting.set(id, resolve);
			send({ jsonrpc: "2.0", id, method, params });
		});
	const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
	lines.on("line", (line) => {
		let message: Record<string, unknown>;
		try {
			message = JSON.parse(line) as Record<string, unknown>;
		} catch {
			return;
		}
		if (typeof message.id === "number" && waiting.has(message.id) && !("method" in message)) {
			waiting.get(message.id)?.(message);
			waiting.delete(message.id);
			return;
		}
		if (typeof message.method !== "string") return;
		if ("id" in message) {
			// A server request (an approval): decline; the sandbox runs without approvals anyway.
			send({ jsonrpc: "2.0", id: message.id, result: { decision: "decline" } });
			return;
		}
		const params = (message.params ?? {}) as Record<string, unknown>;
		notifications.push({ method: message.method, params });
		if (message.method === "turn/started") {
			const turn = params.turn as { id?: unknown } | undefined;
			if (typeof turn?.id === "string") turnId = turn.id;
			turns++;
			running = true;
			if (idleTimer) clearTimeout(idleTimer);
			if (turns > maxTurns) finish("runaway");
		} else if (message.method === "turn/completed") {
			running = false;
			armIdle();
		} else if (message.method === "thread/goal/updated") {
			const goal = params.goal as { status?: unknown } | undefined;
			if (typeof goal?.status === "string") goalStatus = goal.status;
		} else if (message.method === "thread/goal/cleared") {
			goalStatus = "cleared";
		}
	});
	child.on("exit", () => finish("exit"));
	const timer = setTimeout(() => finish("timeout"), options.timeoutMs ?? 150_000);

	let threadId: string | undefined;
	const driving = (async () => {
		await request("initialize", {
			clientInfo: { name: "boulder-e2e", version: "0" },
			capabilities: { experimentalApi: true },
		});
		send({ jsonrpc: "2.0", method: "initialized" });
		const started = await request("thread/start", {
			cwd: sandbox.project,
			approvalPolicy: "never",
			sandbox: "danger-full-access",
		});
		const thread = (started.result as { thread?: { id?: unknown } } | undefined)?.thread;
		threadId = typeof thread?.id === "string" ? thread.id : undefined;
		if (threadId === undefined) throw new Error(`thread/start answered ${JSON.stringify(started)}`);
		const runningThread = threadId;
		if (options.control) {
			options.control.interrupt = () => {
				if (turnId !== undefined) void request("turn/interrupt", { threadId: runningThread, turnId });
			};
		}
		if (options.goal !== undefined) {
			const set = await request("thread/goal/set", {
				threadId,
				objective: options.goal,
				status: "active",
				origin: "user",
			});
			if (set.error) throw new Error(`thread/goal/set answered ${JSON.stringify(set.error)}`);
		}
		// An active goal starts its own turn on an idle thread (as after the TUI's `/goal`); without one, the prompt does.
		if (options.goal === undefined) {
			await request("turn/start", {
				threadId,
				input: [{ type: "text", text: options.prompt ?? "", text_elements: [] }],
			});
		}
		armIdle();
	})();
	driving.catch((error: unknown) => {
		stderr += `\n[driver] ${error instanceof Error ? error.message : String(error)}`;
		finish("exit");
	});
	const reason = await finished;
	clearTimeout(timer);
	if (idleTimer) clearTimeout(idleTimer);
	child.stdin?.end();
	try {
		if (child.pid) process.kill(-child.pid, "SIGTERM");
	} catch {
		// Already gone.
	}
	await new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
		else child.once("exit", resolve);
	});
	return {
		threadId,
		turns,
		runaway: reason === "runaway",
		timedOut: reason === "timeout",
		notifications,
		goalStatus,
		stderr,
	};
}
