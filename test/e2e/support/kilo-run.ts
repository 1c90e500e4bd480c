// Runs the real `kilo serve` (the pinned @kilocode/cli) in a throwaway project
// with a throwaway HOME, against a scripted model server, and gives tests the
// same typed HTTP client and `/event` stream as OpenCode's suites: Kilo Code is
// an OpenCode fork and keeps OpenCode's server API.
//
// Contract: everything lives under one temporary root (project/ and home/);
// `restart()` keeps both. boulder is installed the way a user does it, with the
// real CLI (`boulder install kilo --project|--user`) before Kilo starts. Kilo
// starts slowly offline, so a suite starts ONE server and runs every test in
// its own session. Start-up never touches the network on purpose: the models
// catalogue, update check, telemetry and indexing are switched off
// (`KILO_QUIET_ENV`), and Kilo's user config folder, where it installs
// `@kilocode/plugin`, is pre-seeded with a finished install (the project has no
// `.kilo/` folder, so Kilo installs nothing there).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type CliPlace, runBoulderOk } from "./boulder-cli.js";
import { harnessBin, requireHarness } from "./harnesses.js";
import { homeFolders, isolatedEnv } from "./isolated-env.js";
import {
	type EventStream,
	OpencodeClient,
	type PromptOptions,
	type TextPartInput,
	type WaitOptions,
} from "./opencode-run.js";
import { REPO, requireBuilt, SILENCE_MS } from "./suite.js";

/** The pinned Kilo Code binary. */
export const kiloBin = harnessBin("kilo");

export const PROVIDER_ID = "fake";
export const MODEL_ID = "m";

/**
 * What keeps Kilo 7.7.7 from reaching for the network at start-up and on the
 * first prompt: the models.dev catalogue, the update check, PostHog telemetry,
 * LSP downloads, codebase indexing, session ingest. Measured in docs/kilo-notes.md.
 */
export const KILO_QUIET_ENV: Record<string, string> = {
	KILO_DISABLE_MODELS_FETCH: "1",
	KILO_DISABLE_AUTOUPDATE: "1",
	KILO_TELEMETRY_LEVEL: "off",
	KILO_DISABLE_LSP_DOWNLOAD: "1",
	KILO_DISABLE_CODEBASE_INDEXING: "1",
	KILO_DISABLE_SESSION_INGEST: "1",
	KILO_DISABLE_SHARE: "1",
	KILO_NO_DAEMON: "1",
};

/** `@kilocode/plugin`'s version Kilo 7.7.7 asks for in its config folders (not on the registry). */
const KILO_PLUGIN_VERSION = "7.7.7";

export interface KiloOptions {
	/** Base URL of the OpenAI-compatible model server, ending in `/v1`. */
	modelServerUrl: string;
	/** How boulder gets in: `boulder install kilo --project` (default) or `--user`, or not at all. */
	install?: "project" | "user" | "none";
	/** Extra kilo.json keys, merged over the defaults (shallow). */
	config?: Record<string, unknown>;
	/** Files written into the project before start (relative path → content). */
	files?: Record<string, string>;
	/** `git init` the project. Default true. */
	git?: boolean;
	/** Leave out `KILO_QUIET_ENV` (to measure what it saves). */
	noisy?: boolean;
	env?: Record<string, string>;
	/** Per-start timeout. Default 180 s (Kilo takes tens of seconds offline on a loaded machine). */
	startTimeoutMs?: number;
}

/** A running (or stopped) `kilo serve` in its own throwaway folders. */
export class KiloServer {
	client = new OpencodeClient("http://127.0.0.1:1");
	events!: EventStream;
	port = 0;
	/** How long the last start took, to the first answered request (for the notes, never asserted). */
	startMs = 0;
	private child: ChildProcess | undefined;
	private output: string[] = [];
	private exited: Promise<void> = Promise.resolve();

	private constructor(
		readonly root: string,
		readonly options: KiloOptions,
	) {}

	static async start(options: KiloOptions): Promise<KiloServer> {
		const server = await KiloServer.prepared(options);
		try {
			await server.launch();
		} catch (error) {
			await server.dispose();
			throw error;
		}
		return server;
	}

	/** The folders, config and install, with no server started. */
	static async prepared(options: KiloOptions): Promise<KiloServer> {
		requireHarness(kiloBin);
		const root = await mkdtemp(join(tmpdir(), "boulder-e2e-kilo-"));
		const server = new KiloServer(root, options);
		try {
			await server.prepare();
		} catch (error) {
			await server.dispose();
			throw error;
		}
		return server;
	}

	get projectDir(): string {
		return join(this.root, "project");
	}

	get homeDir(): string {
		return join(this.root, "home");
	}

	/** Where the real boulder CLI runs as this server's user. */
	get cliPlace(): CliPlace {
		return { cwd: this.projectDir, env: { ...process.env, ...homeFolders(this.homeDir), NO_COLOR: "1" } };
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	logs(): string {
		return this.output.join("");
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.launch();
	}

	async stop(): Promise<void> {
		this.events?.close();
		const child = this.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const killGroup = (signal: NodeJS.Signals) => {
			try {
				if (child.pid) process.kill(-child.pid, signal);
			} catch {
				// the group is already gone
			}
		};
		killGroup("SIGTERM");
		const timer = setTimeout(() => killGroup("SIGKILL"), 5_000);
		await this.exited;
		clearTimeout(timer);
		killGroup("SIGKILL");
	}

	async dispose(): Promise<void> {
		await this.stop();
		if (process.env.BOULDER_E2E_KEEP === "1") return;
		await rm(this.root, { recursive: true, force: true });
	}

	/** Sends a prompt to a new or given session and returns the session id. */
	async startTurn(
		input: string | TextPartInput[],
		options: PromptOptions & { sessionID?: string } = {},
	): Promise<{ sessionID: string; from: number }> {
		const sessionID = options.sessionID ?? (await this.client.createSession()).id;
		const from = this.events.mark();
		await this.client.promptAsync(sessionID, input, options);
		return { sessionID, from };
	}

	/** Waits until a session has been idle, with no event of its own, for `quietMs`. */
	async waitForQuiet(sessionID: string, options: { quietMs?: number; timeoutMs?: number } = {}): Promise<void> {
		const quietMs = options.quietMs ?? SILENCE_MS;
		const deadline = Date.now() + (options.timeoutMs ?? 60_000);
		for (;;) {
			const before = this.events.forSession(sessionID).length;
			await sleep(quietMs);
			const busy = (await this.client.status())[sessionID];
			if (this.events.forSession(sessionID).length === before && (!busy || busy.type === "idle")) return;
			if (Date.now() > deadline) throw new Error(`session ${sessionID} not quiet within the timeout`);
		}
	}

	waitForIdle(sessionID: string, options: WaitOptions = {}) {
		return this.events.waitForIdle(sessionID, options);
	}

	private async prepare(): Promise<void> {
		const { options } = this;
		await mkdir(this.projectDir, { recursive: true });
		for (const dir of Object.values(homeFolders(this.homeDir))) await mkdir(dir, { recursive: true });
		if (options.git !== false) {
			const git = (...args: string[]) => execFileSync("git", args, { cwd: this.projectDir, stdio: "ignore" });
			git("init", "-q");
			git(
				"-c",
				"user.name=e2e",
				"-c",
				"user.email=e2e@example.invalid",
				"-c",
				"commit.gpgsign=false",
				"commit",
				"-q",
				"--allow-empty",
				"-m",
				"init",
			);
		}
		for (const [path, content] of Object.entries(options.files ?? {})) {
			const target = join(this.projectDir, path);
			await mkdir(dirname(target), { recursive: true });
			await writeFile(target, content);
		}
		await writeFile(join(this.projectDir, "kilo.json"), `${JSON.stringify(this.config(), null, 2)}\n`);
		await seedKiloPluginInstall(join(this.homeDir, ".config", "kilo"));
		const install = options.install ?? "project";
		if (install !== "none") await runBoulderOk(["install", "kilo", `--${install}`], this.cliPlace);
	}

	private childEnv(): NodeJS.ProcessEnv {
		return {
			...isolatedEnv(this.homeDir, /^(KILO|KILOCODE|OPENCODE|ANTHROPIC|OPENAI|CLAUDE|XDG)_|^(KILO|OPENCODE)$/),
			...(this.options.noisy ? {} : KILO_QUIET_ENV),
			// Kilo (`kilo run` at least) takes its folder from PWD, not from the process's cwd: the runner's own would leak in.
			PWD: this.projectDir,
			...this.options.env,
		};
	}

	private config(): Record<string, unknown> {
		return {
			$schema: "https://app.kilo.ai/config.json",
			provider: {
				[PROVIDER_ID]: {
					npm: "@ai-sdk/openai-compatible",
					name: "Scripted model server",
					options: { baseURL: this.options.modelServerUrl, apiKey: "test-key" },
					models: {
						[MODEL_ID]: { name: "Scripted model", tool_call: true, limit: { context: 200_000, output: 32_000 } },
					},
				},
			},
			model: `${PROVIDER_ID}/${MODEL_ID}`,
			small_model: `${PROVIDER_ID}/${MODEL_ID}`,
			autoupdate: false,
			share: "disabled",
			snapshot: false,
			// Kilo asks before a shell command by default; a headless test has no one to answer.
			permission: { bash: "allow", edit: "allow" },
			...this.options.config,
		};
	}

	private async launch(): Promise<void> {
		const port = await freePort();
		const env = this.childEnv();
		const started = Date.now();
		const child = spawn(kiloBin, ["serve", "--port", String(port), "--hostname", "127.0.0.1", "--print-logs"], {
			cwd: this.projectDir,
			env,
			detached: true,
			stdio: ["ignore", "pipe", "pipe"],
		});
		this.child = child;
		this.port = port;
		if (child.pid) liveGroups.add(child.pid);
		child.once("exit", () => {
			if (child.pid) liveGroups.delete(child.pid);
		});
		this.client = new OpencodeClient(this.url);
		this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
		let listening = false;
		const onData = (chunk: Buffer) => {
			const text = chunk.toString("utf8");
			this.output.push(text);
			if (text.includes("server listening on")) listening = true;
		};
		child.stdout?.on("data", onData);
		child.stderr?.on("data", onData);
		let spawnError: Error | undefined;
		child.once("error", (error) => {
			spawnError = error;
		});
		const deadline = Date.now() + (this.options.startTimeoutMs ?? 180_000);
		const fail = async (why: string) => {
			await this.stop();
			throw new Error(`kilo serve did not start: ${why}\n--- output ---\n${this.logs().slice(-4_000)}`);
		};
		while (!listening) {
			if (spawnError) return fail(spawnError.message);
			if (child.exitCode !== null || child.signalCode !== null)
				return fail(`exited (${child.exitCode ?? child.signalCode})`);
			if (Date.now() > deadline) return fail("no 'listening' line in time");
			await sleep(25);
		}
		// The first request boots the project instance, which loads the plugins.
		let attemptMs = 2_000;
		for (;;) {
			try {
				await this.client.request("GET", "/session", undefined, attemptMs);
				break;
			} catch (error) {
				if (child.exitCode !== null) return fail(`exited (${child.exitCode})`);
				if (Date.now() > deadline) return fail(`no answer in time (${String(error)})`);
				attemptMs = Math.min(attemptMs * 2, 16_000);
				await sleep(50);
			}
		}
		this.startMs = Date.now() - started;
		this.events = await this.client.subscribe();
		await this.events.waitFor((e) => e.type === "server.connected", { timeoutMs: 10_000 }).catch(() => undefined);
	}
}

const liveGroups = new Set<number>();
process.once("exit", () => {
	for (const pid of liveGroups) {
		try {
			process.kill(-pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
});

/** Fails the suite early when the build the tests drive (the CLI and Kilo's plugin file) is missing. */
export function requireKiloBuild(): void {
	requireBuilt(
		join(REPO, "dist", "adapters", "opencode", "plugin.js"),
		join(REPO, "dist", "adapters", "opencode", "kilo-plugin.js"),
	);
}

export function startKilo(options: KiloOptions): Promise<KiloServer> {
	return KiloServer.start(options);
}

/**
 * Makes `dir` look like a finished install of `@kilocode/plugin`, so Kilo skips
 * its background `npm install` there (which fails offline: the version it asks
 * for is not on the registry). boulder's plugin imports nothing from it.
 */
async function seedKiloPluginInstall(dir: string): Promise<void> {
	const pkg = { dependencies: { "@kilocode/plugin": KILO_PLUGIN_VERSION } };
	const plugin = join(dir, "node_modules", "@kilocode", "plugin");
	await mkdir(plugin, { recursive: true });
	await writeFile(
		join(plugin, "package.json"),
		`${JSON.stringify({ name: "@kilocode/plugin", version: KILO_PLUGIN_VERSION })}\n`,
	);
	await writeFile(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
	const lock = {
		name: "kilo-config",
		lockfileVersion: 3,
		requires: true,
		packages: { "": pkg, "node_modules/@kilocode/plugin": { version: KILO_PLUGIN_VERSION } },
	};
	await writeFile(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
