/**
 * Runs the real Codex CLI headless (`codex exec`) inside a throwaway HOME,
 * CODEX_HOME and project folder, pointed at the scripted Responses-API
 * server. Nothing of the machine's own Codex setup may leak in, and Codex
 * must not reach the network: its plugin sync and update checks go to a
 * closed loopback port and fail at once.
 *
 * Hooks run only when Codex trusts them, as for a user: `trustHooks` writes
 * the records Codex's /hooks review writes, so the tests run without
 * `--dangerously-bypass-hook-trust`.
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * the process group).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trustRecords } from "../../../src/adapters/codex/trust.js";
import { collectOutput } from "./child-output.js";
import { harnessBin } from "./harnesses.js";
import { isolatedEnv } from "./isolated-env.js";

/** The pinned devDependency's binary. */
export const CODEX_BIN = harnessBin("codex");

/** The model whose tools are ordinary functions (newer catalog models run in code mode). */
const MODEL = "gpt-5.5";

export interface CodexSandbox {
	root: string;
	home: string;
	/** `$CODEX_HOME`: config.toml, hooks.json, sessions/. */
	codexHome: string;
	project: string;
	/** The environment every run and every `boulder` command of the test uses. */
	env: Record<string, string>;
	dispose(): Promise<void>;
}

export interface CodexRunOptions {
	prompt: string;
	/** The scripted model server's `/v1` URL. */
	modelUrl: string;
	/** Continue an earlier session (`codex exec resume <id>`). */
	resume?: string;
	args?: string[];
	/** Default 90 s; on expiry the process group is killed and `timedOut` is set. */
	timeoutMs?: number;
}

export interface CodexRunResult {
	exitCode: number | null;
	timedOut: boolean;
	stdout: string;
	stderr: string;
	/** The thread (session) id from `thread.started`. */
	sessionId: string | undefined;
	/** The `--json` events Codex printed. */
	events: Record<string, unknown>[];
}

export interface CodexProcess {
	pid: number | undefined;
	done: Promise<CodexRunResult>;
}

export async function createCodexSandbox(): Promise<CodexSandbox> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-codex-")));
	const home = join(root, "home");
	const codexHome = join(home, ".codex");
	const project = join(root, "project");
	await mkdir(codexHome, { recursive: true });
	await mkdir(join(project, ".git"), { recursive: true });
	await writeFile(join(codexHome, "config.toml"), CONFIG_TOML);
	const env = {
		...isolatedEnv(home, /^(OPENAI_|CODEX_)|_PROXY$/i),
		CODEX_HOME: codexHome,
		BOULDER_TEST_MODEL_KEY: "test",
		HTTP_PROXY: "http://127.0.0.1:9",
		HTTPS_PROXY: "http://127.0.0.1:9",
		ALL_PROXY: "http://127.0.0.1:9",
		NO_PROXY: "127.0.0.1,localhost",
		NO_COLOR: "1",
	};
	return { root, home, codexHome, project, env, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Each run names its model server (`-c model_providers.scripted.base_url=…`). */
const CONFIG_TOML = [
	`model = "${MODEL}"`,
	`model_provider = "scripted"`,
	"check_for_update_on_startup = false",
	"[analytics]",
	"enabled = false",
	"[model_providers.scripted]",
	`name = "scripted"`,
	`base_url = "http://127.0.0.1:9/v1"`,
	`env_key = "BOULDER_TEST_MODEL_KEY"`,
	`wire_api = "responses"`,
	"",
].join("\n");

/** Records, in config.toml, that the user trusted every hook of `hooksFile` (what Codex's /hooks review writes). */
export async function trustHooks(sandbox: CodexSandbox, hooksFile: string): Promise<void> {
	const records = trustRecords(hooksFile, JSON.parse(await readFile(hooksFile, "utf8")));
	const lines = [...records].map(([key, hash]) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"\n`);
	await appendFile(join(sandbox.codexHome, "config.toml"), lines.join(""));
}

export function runCodex(sandbox: CodexSandbox, options: CodexRunOptions): Promise<CodexRunResult> {
	return spawnCodex(sandbox, options).done;
}

export function spawnCodex(sandbox: CodexSandbox, options: CodexRunOptions): CodexProcess {
	const common = [
		"--json",
		"--skip-git-repo-check",
		"--dangerously-bypass-approvals-and-sandbox",
		"-c",
		"tools.update_plan.enabled=true",
		"-c",
		`model_providers.scripted.base_url=${JSON.stringify(options.modelUrl)}`,
		...(options.args ?? []),
	];
	const args = options.resume
		? ["exec", "resume", ...common, options.resume, options.prompt]
		: ["exec", ...common, options.prompt];
	const child = spawn(CODEX_BIN, args, {
		cwd: sandbox.project,
		env: sandbox.env,
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return { pid: child.pid, done: collect(child, options.timeoutMs ?? 90_000) };
}

async function collect(child: ChildProcess, timeoutMs: number): Promise<CodexRunResult> {
	const { exitCode, timedOut, stdout, stderr } = await collectOutput(child, timeoutMs);
	const events = stdout
		.split("\n")
		.filter((line) => line.startsWith("{"))
		.map((line) => JSON.parse(line) as Record<string, unknown>);
	const started = events.find((event) => event.type === "thread.started");
	const sessionId = typeof started?.thread_id === "string" ? started.thread_id : undefined;
	return { exitCode, timedOut, stdout, stderr, sessionId, events };
}
