/**
 * Runs the real GitHub Copilot CLI binary headless (`copilot -p`) inside a
 * throwaway HOME, COPILOT_HOME and project folder, offline, against a
 * scripted OpenAI-compatible model server (`openai-server.ts`). Nothing of
 * the machine's own Copilot setup (config, tokens, COPILOT_* variables) may
 * leak in, and nothing phones home: `COPILOT_OFFLINE=true` turns off GitHub
 * authentication, telemetry, web tools, the GitHub MCP server and updates.
 *
 * The binary unpacks its ~235 MB package into `$XDG_CACHE_HOME/copilot/pkg`
 * on first run (seconds); every sandbox links that one folder from a cache
 * shared by the test run, so only the first run pays it. Nothing else is shared.
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * the process group).
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliPlace } from "./boulder-cli.js";
import { type ChildOutput, collectOutput } from "./child-output.js";
import { harnessBin } from "./harnesses.js";
import { isolatedEnv } from "./isolated-env.js";

/** The pinned devDependency's binary, found from this file rather than from PATH. */
export const COPILOT_BIN = harnessBin("copilot");

/** Copilot's unpacked package, kept between sandboxes (and runs) of this machine's user. */
const PACKAGE_CACHE = join(tmpdir(), "boulder-e2e-copilot-package-cache");

export interface CopilotSandbox {
	root: string;
	home: string;
	/** COPILOT_HOME: config, session state (event logs, session databases), user hooks. */
	copilotHome: string;
	/** The run's cwd, a git worktree. */
	project: string;
	dispose(): Promise<void>;
}

export interface CopilotRunOptions {
	prompt: string;
	/** The model server's base URL, ending in `/v1`. */
	baseUrl: string;
	env?: Record<string, string>;
	args?: string[];
	timeoutMs?: number;
}

export type CopilotRunResult = ChildOutput;

const DEFAULT_TIMEOUT_MS = 90_000;

export async function createSandbox(): Promise<CopilotSandbox> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-e2e-copilot-")));
	const home = join(root, "home");
	const copilotHome = join(root, "copilot-home");
	const project = join(root, "project");
	await mkdir(join(home, ".cache"), { recursive: true });
	await mkdir(copilotHome, { recursive: true });
	await mkdir(PACKAGE_CACHE, { recursive: true });
	await symlink(PACKAGE_CACHE, join(home, ".cache", "copilot"));
	await mkdir(join(project, ".git"), { recursive: true });
	return { root, home, copilotHome, project, dispose: () => rm(root, { recursive: true, force: true }) };
}

export function runCopilot(sandbox: CopilotSandbox, options: CopilotRunOptions): Promise<CopilotRunResult> {
	const child = spawn(COPILOT_BIN, copilotArgs(options), {
		cwd: sandbox.project,
		env: childEnv(sandbox, options),
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return collectOutput(child, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

export function copilotArgs(options: Pick<CopilotRunOptions, "prompt" | "args">): string[] {
	return [
		"-p",
		options.prompt,
		// Headless, Copilot runs a project's hooks only in a folder it trusts. A resumed session
		// cannot take --trust-folder; COPILOT_ALLOW_ALL=true (see `childEnv`) trusts it instead.
		...(resumes(options) ? [] : ["--trust-folder"]),
		"--allow-all-tools",
		"--no-auto-update",
		"--disable-client-telemetry",
		"--no-color",
		...(options.args ?? []),
	];
}

/** The machine's env minus its Copilot/GitHub settings, plus the sandbox's. */
export function childEnv(
	sandbox: CopilotSandbox,
	options: Pick<CopilotRunOptions, "baseUrl" | "env" | "args">,
): Record<string, string> {
	return {
		...isolatedEnv(sandbox.home, /^(COPILOT_|GH_|GITHUB_|OTEL_)/),
		COPILOT_HOME: sandbox.copilotHome,
		COPILOT_OFFLINE: "true",
		COPILOT_AUTO_UPDATE: "false",
		COPILOT_PROVIDER_BASE_URL: options.baseUrl,
		COPILOT_PROVIDER_API_KEY: "test",
		COPILOT_MODEL: "m",
		NO_COLOR: "1",
		...(resumes(options) ? { COPILOT_ALLOW_ALL: "true" } : {}),
		...options.env,
	};
}

/** Where the boulder CLI runs beside the sandbox's runs: in its project, with its HOME and state folders. */
export function cliPlace(sandbox: CopilotSandbox): CliPlace {
	return { cwd: sandbox.project, env: childEnv(sandbox, { baseUrl: "" }) };
}

function resumes(options: Pick<CopilotRunOptions, "args">): boolean {
	return options.args?.some((arg) => arg.startsWith("--resume")) ?? false;
}

/** Every line of every session's event log in the sandbox, parsed, with the session's id. */
export async function readEventLogs(
	sandbox: CopilotSandbox,
): Promise<{ session: string; lines: Record<string, unknown>[] }[]> {
	const state = join(sandbox.copilotHome, "session-state");
	const found: { session: string; lines: Record<string, unknown>[] }[] = [];
	for (const session of await readdir(state).catch(() => [] as string[])) {
		const text = await readFile(join(state, session, "events.jsonl"), "utf8").catch(() => undefined);
		if (text === undefined) continue;
		const lines = text
			.split("\n")
			.filter((line) => line.trim() !== "")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		found.push({ session, lines });
	}
	return found;
}
