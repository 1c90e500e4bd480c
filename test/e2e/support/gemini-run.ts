/**
 * Runs the real Gemini CLI binary headless (`gemini -p`) inside a throwaway
 * HOME and project folder, pointed at a scripted Gemini-API server. Nothing of
 * the machine's own setup (settings, keys, GEMINI_* or GOOGLE_* variables)
 * leaks in, and nothing phones home: telemetry, usage statistics and update
 * checks are off in the sandbox's user settings.
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * the process group).
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliPlace } from "./boulder-cli.js";
import { harnessBin } from "./harnesses.js";

/** The pinned devDependency's binary, found from this file rather than from PATH. */
export const GEMINI_BIN = harnessBin("gemini");

/** A model whose tool set includes `write_todos` (Gemini 2 models that are not previews). */
export const MODEL = "gemini-2.5-flash";

export interface GeminiSandbox {
	root: string;
	/** Used as HOME, so `~/.gemini` (settings, transcripts) lands here. */
	home: string;
	/** The run's cwd, a git worktree. */
	project: string;
	dispose(): Promise<void>;
}

/** The user settings every run starts from: API-key auth, nothing sent anywhere but the scripted server. */
export const BASE_SETTINGS = {
	security: { auth: { selectedType: "gemini-api-key" } },
	privacy: { usageStatisticsEnabled: false },
	telemetry: { enabled: false },
	general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

export async function createSandbox(): Promise<GeminiSandbox> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-gemini-e2e-")));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(join(home, ".gemini"), { recursive: true });
	await writeFile(join(home, ".gemini", "settings.json"), `${JSON.stringify(BASE_SETTINGS, null, 2)}\n`);
	await mkdir(join(project, ".git"), { recursive: true });
	return { root, home, project, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** The environment of a run (and of the boulder commands a test runs beside it). */
export function sandboxEnv(sandbox: GeminiSandbox, baseUrl = ""): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(GEMINI_|GOOGLE_|BOULDER_|XDG_|CLAUDE_)/.test(key)) continue;
		env[key] = value;
	}
	return {
		...env,
		HOME: sandbox.home,
		XDG_CONFIG_HOME: join(sandbox.root, "config"),
		XDG_STATE_HOME: join(sandbox.root, "state"),
		XDG_DATA_HOME: join(sandbox.root, "data"),
		XDG_CACHE_HOME: join(sandbox.root, "cache"),
		GOOGLE_GEMINI_BASE_URL: baseUrl,
		GEMINI_API_KEY: "scripted",
		// Headless runs of an untrusted folder exit 55 without it.
		GEMINI_CLI_TRUST_WORKSPACE: "true",
		// One process instead of two: it would start again only to raise its heap limit.
		GEMINI_CLI_NO_RELAUNCH: "true",
		NO_COLOR: "1",
	};
}

/** Where the boulder CLI runs beside the sandbox's runs: in its project, with its HOME and state folders. */
export function cliPlace(sandbox: GeminiSandbox): CliPlace {
	return { cwd: sandbox.project, env: sandboxEnv(sandbox) };
}

export interface GeminiRunOptions {
	prompt: string;
	baseUrl: string;
	/** `--resume` an earlier session of the sandbox (an id, or `latest`). */
	resume?: string;
	timeoutMs?: number;
}

export interface GeminiRunResult {
	exitCode: number | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	/** `--output-format json`'s object, when stdout was one. */
	json: { response?: string; session_id?: string; [key: string]: unknown } | undefined;
}

export function runGemini(sandbox: GeminiSandbox, options: GeminiRunOptions): Promise<GeminiRunResult> {
	const args = ["-p", options.prompt, "-m", MODEL, "--approval-mode", "yolo", "--output-format", "json"];
	if (options.resume) args.push("--resume", options.resume);
	const child = spawn(GEMINI_BIN, args, {
		cwd: sandbox.project,
		env: sandboxEnv(sandbox, options.baseUrl),
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		if (child.pid) process.kill(-child.pid, "SIGKILL");
	}, options.timeoutMs ?? 90_000);
	return new Promise((resolve) => {
		child.on("close", (exitCode) => {
			clearTimeout(timer);
			let json: GeminiRunResult["json"];
			try {
				json = JSON.parse(stdout) as GeminiRunResult["json"];
			} catch {
				json = undefined;
			}
			resolve({ exitCode, timedOut, stdout, stderr, json });
		});
	});
}
