/**
 * Runs the real Claude Code binary headless (`claude -p`) inside a throwaway
 * HOME and project folder, pointed at a scripted model server. Nothing of the
 * machine's own Claude setup (settings, credentials, ANTHROPIC_* variables)
 * may leak in, or tests would depend on who runs them.
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * claude's process group). Hooks run in sessions of their own, out of reach
 * of that kill, so hook scripts written by tests must be short-lived.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CliPlace } from "./boulder-cli.js";
import { collectOutput, signalGroup } from "./child-output.js";
import { harnessBin } from "./harnesses.js";
import { isolatedEnv } from "./isolated-env.js";

/** The pinned devDependency's binary, found from this file rather than from PATH. */
export const CLAUDE_BIN = harnessBin("claude");

export interface ClaudeSandbox {
	/** Parent of `home` and `project`; removed by `dispose()`. */
	root: string;
	/** Used as HOME, so `~/.claude` (transcripts, todos, tasks) lands here. */
	home: string;
	/** The run's cwd: put `.claude/settings.json` and hook scripts here. */
	project: string;
	dispose(): Promise<void>;
}

export interface ClaudeRunOptions {
	prompt: string;
	/** The model server's URL, e.g. `server.url`. */
	baseUrl: string;
	/** Continue an earlier session of the same sandbox. */
	resume?: string;
	/** Extra env for the child, e.g. `{ CLAUDE_CODE_ENABLE_TASKS: "0" }`. */
	env?: Record<string, string>;
	/** Extra CLI arguments, appended after the standard ones. */
	args?: string[];
	/** Default 45 s; on expiry the process group is killed and `timedOut` is set. */
	timeoutMs?: number;
}

/** The object `--output-format json` prints (only the fields tests rely on are typed). */
export interface ClaudeJsonResult {
	type: string;
	subtype?: string;
	is_error?: boolean;
	result?: string;
	session_id?: string;
	num_turns?: number;
	stop_reason?: string | null;
	usage?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface ClaudeRunResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	/** The parsed JSON result, or undefined when stdout was not JSON. */
	json: ClaudeJsonResult | undefined;
	sessionId: string | undefined;
}

export interface ClaudeProcess {
	pid: number | undefined;
	/** Sends a signal to the whole process group (e.g. SIGINT to interrupt). */
	signal(signal: NodeJS.Signals): void;
	done: Promise<ClaudeRunResult>;
}

const DEFAULT_TIMEOUT_MS = 45_000;

export async function createSandbox(): Promise<ClaudeSandbox> {
	// realpath: on some systems tmpdir is a symlink, and Claude Code keys transcripts by the real cwd.
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-e2e-")));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(home, { recursive: true });
	// A project, as boulder keeps state only in one: a git worktree (the `.git` folder is all it looks for).
	await mkdir(join(project, ".git"), { recursive: true });
	// A process the hooks left detached (the fleet's shipper, say) may still write its code cache here as it exits:
	// rm retries a folder that filled again while it was being emptied (ENOTEMPTY) rather than failing the suite.
	return {
		root,
		home,
		project,
		dispose: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
	};
}

/** Writes the project's `.claude/settings.json` (hooks go under `settings.hooks`). */
export async function writeProjectSettings(sandbox: ClaudeSandbox, settings: unknown): Promise<string> {
	const path = join(sandbox.project, ".claude", "settings.json");
	await mkdir(dirname(path), { recursive: true });
	await writeFile(path, `${JSON.stringify(settings, null, 2)}\n`);
	return path;
}

export function runClaude(sandbox: ClaudeSandbox, options: ClaudeRunOptions): Promise<ClaudeRunResult> {
	return spawnClaude(sandbox, options).done;
}

/** Like `runClaude`, but hands back the process so a test can signal it mid-run. */
export function spawnClaude(sandbox: ClaudeSandbox, options: ClaudeRunOptions): ClaudeProcess {
	const child = spawn(CLAUDE_BIN, claudeArgs(options), {
		cwd: sandbox.project,
		env: childEnv(sandbox, options),
		// Own process group, so a timeout also kills hooks and tool subprocesses.
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return {
		pid: child.pid,
		signal: (signal) => signalGroup(child, signal),
		done: collect(child, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
	};
}

export function claudeArgs(options: ClaudeRunOptions): string[] {
	const args = ["-p", options.prompt, "--output-format", "json"];
	// Root refuses --dangerously-skip-permissions unless IS_SANDBOX=1 is set (see childEnv).
	args.push("--dangerously-skip-permissions");
	if (options.resume) args.push("--resume", options.resume);
	return [...args, ...(options.args ?? [])];
}

async function collect(child: ChildProcess, timeoutMs: number): Promise<ClaudeRunResult> {
	const output = await collectOutput(child, timeoutMs);
	const json = parseResult(output.stdout);
	return { ...output, json, sessionId: json?.session_id };
}

/**
 * The machine's env minus its Claude/Anthropic settings, plus the sandbox's.
 * The suites run as a user who turned the todo tools on
 * (`boulder install claude-code --todo-tools` writes the same variable into
 * the settings' `env`): since 2.1.233 the newest models are offered none
 * without it. A test of the default sets it to "" in `env`.
 */
export function childEnv(sandbox: ClaudeSandbox, options: ClaudeRunOptions): Record<string, string> {
	return {
		...isolatedEnv(sandbox.home, /^(ANTHROPIC_|CLAUDE)/),
		ANTHROPIC_BASE_URL: options.baseUrl,
		ANTHROPIC_API_KEY: "test",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		IS_SANDBOX: "1",
		CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
		...options.env,
	};
}

/** Where the boulder CLI runs beside the sandbox's runs: in its project, with its HOME and state folders. */
export function cliPlace(sandbox: ClaudeSandbox): CliPlace {
	return { cwd: sandbox.project, env: { ...childEnv(sandbox, { prompt: "", baseUrl: "" }), NO_COLOR: "1" } };
}

/**
 * Polls `probe` until it returns a value other than undefined, or throws after
 * `timeoutMs`. For hook output: hooks run in their own session, and `-p` exits
 * without waiting for StopFailure hooks, so their effects can land after the run.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() >= deadline) throw new Error(`waitFor: nothing after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** The JSON result is the last non-empty stdout line (warnings may precede it). */
export function parseResult(stdout: string): ClaudeJsonResult | undefined {
	const lines = stdout.trim().split("\n");
	const last = lines[lines.length - 1];
	if (!last) return undefined;
	try {
		const value: unknown = JSON.parse(last);
		return typeof value === "object" && value !== null ? (value as ClaudeJsonResult) : undefined;
	} catch {
		return undefined;
	}
}

/** The session's transcript lines (`~/.claude/projects/<encoded cwd>/<id>.jsonl`), parsed. */
export async function readTranscript(sandbox: ClaudeSandbox, sessionId: string): Promise<Record<string, unknown>[]> {
	const projects = join(sandbox.home, ".claude", "projects");
	for (const folder of await readdir(projects)) {
		const path = join(projects, folder, `${sessionId}.jsonl`);
		const text = await readFile(path, "utf8").catch(() => undefined);
		if (text === undefined) continue;
		return text
			.split("\n")
			.filter((line) => line.trim() !== "")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
	}
	throw new Error(`no transcript for session ${sessionId}`);
}
