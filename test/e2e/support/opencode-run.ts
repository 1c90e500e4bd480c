// Runs the real `opencode serve` (pinned devDependency opencode-ai) in a
// throwaway project with a throwaway HOME, against a scripted model server, and
// gives tests a small typed client for its HTTP API and its `/event` stream.
//
// Contract: everything lives under one temporary root (home/, and the projects:
// project/ for `startOpencode`, projects/pN/ for each project a shared server
// opens); `restart()` keeps them all, so sessions, todos and plugin state on
// disk survive. A shared server (`sharedOpencode`) serves each test's project
// as its own OpenCode instance, by the `directory` parameter of every request.
// Startup never touches a package registry: every folder OpenCode installs
// `@opencode-ai/plugin` into is pre-seeded with a finished install, and npm-name
// plugins can be pre-seeded into OpenCode's package cache (`npmPackages`).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Event, Message, Part, Session, SessionStatus, Todo } from "@opencode-ai/sdk";
import { afterAll } from "vitest";
import type { CliPlace } from "./boulder-cli.js";
import { harnessBin } from "./harnesses.js";
import { homeFolders, isolatedEnv } from "./isolated-env.js";
import { type DecisionRecord, readDecisionLog, requireBuilt } from "./suite.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The pinned OpenCode binary. */
export const opencodeBin = harnessBin("opencode");
const pluginPackageDir = join(repoRoot, "node_modules", "@opencode-ai", "plugin");

export const PROVIDER_ID = "fake";
export const MODEL_ID = "m";
export const SMALL_MODEL_ID = "small";

export type PluginEntry = string | [string, Record<string, unknown>];

/** What a server process is started with: shared by every project it serves. */
export interface HostOptions {
	/** Extra environment for the server process. */
	env?: Record<string, string>;
	/** Per-start timeout. Default 60 s. */
	startTimeoutMs?: number;
	logLevel?: "DEBUG" | "INFO" | "WARN" | "ERROR";
}

/** Everything of a server and one project in it (`startOpencode`). */
export type OpencodeOptions = HostOptions & ProjectOptions;

/** One project's folder and opencode.json. */
export interface ProjectOptions {
	/** Base URL of the OpenAI-compatible model server, ending in `/v1`. */
	modelServerUrl: string;
	/** `plugin` entries of the project's opencode.json. */
	plugins?: PluginEntry[];
	/** Extra opencode.json keys, deep-merged over the defaults. */
	config?: Record<string, unknown>;
	/** Files written into the project before start (relative path → content). */
	files?: Record<string, string>;
	/**
	 * Local packages made loadable as npm-name plugin entries without a registry:
	 * name → folder of the built package, absolute or relative to the project
	 * (symlinked into OpenCode's package cache).
	 */
	npmPackages?: Record<string, string>;
	/** `git init` the project so OpenCode takes it as its own worktree. Default true. */
	git?: boolean;
}

export interface PromptOptions {
	agent?: string;
	model?: { providerID: string; modelID: string };
	noReply?: boolean;
	system?: string;
	tools?: Record<string, boolean>;
}

export interface TextPartInput {
	type: "text";
	text: string;
	synthetic?: boolean;
	ignored?: boolean;
	metadata?: Record<string, unknown>;
}

export interface MessageWithParts {
	info: Message;
	parts: Part[];
}

/** Any event from `/event`; `type` is kept open because the runtime sends more than the v1 union. */
export interface ServerEvent {
	type: string;
	properties: Record<string, unknown>;
}

export class OpencodeHttpError extends Error {
	constructor(
		readonly method: string,
		readonly path: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`${method} ${path} → ${status}: ${body.slice(0, 500)}`);
	}
}

/** Typed calls to the OpenCode server's HTTP API. */
export class OpencodeClient {
	/** `directory`: the project every request is about (OpenCode's `directory` parameter); unset, the server's own folder. */
	constructor(
		readonly baseUrl: string,
		readonly directory?: string,
	) {}

	/** The URL of a path on this server, for this client's project. */
	url(path: string): URL {
		const url = new URL(path, this.baseUrl);
		if (this.directory) url.searchParams.set("directory", this.directory);
		return url;
	}

	async request<T>(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<T> {
		const res = await fetch(this.url(path), {
			method,
			headers: body === undefined ? {} : { "content-type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await res.text();
		if (!res.ok) throw new OpencodeHttpError(method, path, res.status, text);
		return (text ? JSON.parse(text) : undefined) as T;
	}

	createSession(body: { title?: string; parentID?: string } = {}): Promise<Session> {
		return this.request("POST", "/session", body);
	}

	getSession(id: string): Promise<Session> {
		return this.request("GET", `/session/${id}`);
	}

	listSessions(): Promise<Session[]> {
		return this.request("GET", "/session");
	}

	children(id: string): Promise<Session[]> {
		return this.request("GET", `/session/${id}/children`);
	}

	/** Statuses of the sessions that are not idle (idle sessions are absent). */
	status(): Promise<Record<string, SessionStatus>> {
		return this.request("GET", "/session/status");
	}

	/** Sends a prompt and returns at once (204); the turn runs in the background. */
	async promptAsync(id: string, input: string | TextPartInput[], options: PromptOptions = {}): Promise<void> {
		await this.request("POST", `/session/${id}/prompt_async`, promptBody(input, options));
	}

	/** Sends a prompt and waits for the assistant reply. */
	prompt(id: string, input: string | TextPartInput[], options: PromptOptions = {}): Promise<MessageWithParts> {
		return this.request("POST", `/session/${id}/message`, promptBody(input, options), 120_000);
	}

	/** Runs a slash command (`/name args`) in a session; waits for its reply. */
	command(
		id: string,
		command: string,
		args = "",
		options: { agent?: string; model?: string } = {},
	): Promise<MessageWithParts> {
		return this.request("POST", `/session/${id}/command`, { command, arguments: args, ...options }, 120_000);
	}

	messages(id: string): Promise<MessageWithParts[]> {
		return this.request("GET", `/session/${id}/message`);
	}

	todos(id: string): Promise<Todo[]> {
		return this.request("GET", `/session/${id}/todo`);
	}

	abort(id: string): Promise<boolean> {
		return this.request("POST", `/session/${id}/abort`);
	}

	/** Compacts the session (`POST /session/:id/summarize`). */
	summarize(id: string, model = { providerID: PROVIDER_ID, modelID: MODEL_ID }): Promise<boolean> {
		return this.request("POST", `/session/${id}/summarize`, model, 120_000);
	}

	deleteSession(id: string): Promise<boolean> {
		return this.request("DELETE", `/session/${id}`);
	}

	/** Pending questions of the question tool (`GET /question`). */
	questions(): Promise<Array<{ id: string; sessionID: string; questions: unknown[] }>> {
		return this.request("GET", "/question");
	}

	/** Answers a pending question: one array of chosen labels per question. */
	replyQuestion(requestID: string, answers: string[][]): Promise<boolean> {
		return this.request("POST", `/question/${requestID}/reply`, { answers });
	}

	/** Dismisses a pending question. */
	rejectQuestion(requestID: string): Promise<boolean> {
		return this.request("POST", `/question/${requestID}/reject`);
	}

	/** Pending permission requests (`GET /permission`). */
	permissions(): Promise<Array<{ id: string; sessionID: string; permission: string; patterns: string[] }>> {
		return this.request("GET", "/permission");
	}

	replyPermission(requestID: string, reply: "once" | "always" | "reject", message?: string): Promise<boolean> {
		return this.request("POST", `/permission/${requestID}/reply`, { reply, ...(message ? { message } : {}) });
	}

	/** Opens the `/event` SSE stream and collects every event. */
	subscribe(): Promise<EventStream> {
		return EventStream.open(this.url("/event").href);
	}
}

/** A live `/event` subscription that keeps every event it receives. */
export class EventStream {
	readonly events: ServerEvent[] = [];
	private readonly waiters = new Set<() => void>();
	private closed = false;

	private constructor(private readonly controller: AbortController) {}

	static async open(url: string): Promise<EventStream> {
		const controller = new AbortController();
		const stream = new EventStream(controller);
		const res = await fetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal });
		if (!res.ok || !res.body) throw new Error(`GET /event → ${res.status}`);
		void stream.pump(res.body);
		return stream;
	}

	/** Index to pass as `from` so a wait only looks at later events. */
	mark(): number {
		return this.events.length;
	}

	/** Events of one session (by `sessionID`, `info.sessionID`, `info.id` or `part.sessionID`). */
	forSession(sessionID: string, from = 0): ServerEvent[] {
		return this.events.slice(from).filter((e) => eventSessionID(e) === sessionID);
	}

	ofType(type: string, from = 0): ServerEvent[] {
		return this.events.slice(from).filter((e) => e.type === type);
	}

	/** Resolves with the first event at or after `from` that matches. */
	async waitFor(predicate: (event: ServerEvent) => boolean, options: WaitOptions = {}): Promise<ServerEvent> {
		const from = options.from ?? 0;
		const timeoutMs = options.timeoutMs ?? 30_000;
		const find = () => this.events.slice(from).find(predicate);
		const already = find();
		if (already) return already;
		return await new Promise<ServerEvent>((resolve, reject) => {
			const check = () => {
				const found = find();
				if (!found) return;
				cleanup();
				resolve(found);
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`no matching event within ${timeoutMs} ms; saw: ${this.summary(from)}`));
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.waiters.delete(check);
			};
			this.waiters.add(check);
		});
	}

	/** Waits for `session.status` idle of a session at or after `from`. */
	waitForIdle(sessionID: string, options: WaitOptions = {}): Promise<ServerEvent> {
		return this.waitFor(
			(e) => e.type === "session.status" && eventSessionID(e) === sessionID && statusType(e) === "idle",
			options,
		);
	}

	/** Compact list of event types since `from`, for failure messages. */
	summary(from = 0): string {
		return (
			this.events
				.slice(from)
				.map((e) => (e.type === "session.status" ? `session.status:${statusType(e)}` : e.type))
				.join(", ") || "nothing"
		);
	}

	close(): void {
		this.closed = true;
		this.controller.abort();
	}

	private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
		const decoder = new TextDecoder();
		let buffer = "";
		try {
			for await (const chunk of body) {
				buffer += decoder.decode(chunk, { stream: true });
				let cut = buffer.indexOf("\n\n");
				while (cut !== -1) {
					this.take(buffer.slice(0, cut));
					buffer = buffer.slice(cut + 2);
					cut = buffer.indexOf("\n\n");
				}
			}
		} catch (error) {
			if (!this.closed) this.events.push({ type: "stream.error", properties: { message: String(error) } });
		}
	}

	private take(block: string): void {
		const data = block
			.split("\n")
			.filter((line) => line.startsWith("data:"))
			.map((line) => line.slice(5).trimStart())
			.join("\n");
		if (!data) return;
		try {
			const event = JSON.parse(data) as ServerEvent;
			this.events.push(event);
		} catch {
			this.events.push({ type: "stream.unparsed", properties: { data } });
		}
		for (const waiter of [...this.waiters]) waiter();
	}
}

export interface WaitOptions {
	from?: number;
	timeoutMs?: number;
}

/**
 * One `opencode serve` process and its throwaway HOME. It serves any number of
 * projects, each its own folder, told apart by OpenCode's `directory`
 * parameter: each gets its own instance (its own opencode.json, plugins,
 * sessions and event stream) in the one process, so a suite pays for one
 * server start, not one per test.
 */
export class OpencodeHost {
	port = 0;
	/** The projects open now; a restart reconnects each. */
	readonly projects = new Set<OpencodeServer>();
	private child: ChildProcess | undefined;
	private output: string[] = [];
	private exited: Promise<void> = Promise.resolve();
	private opened = 0;

	private constructor(
		readonly root: string,
		readonly options: HostOptions,
		/** The server's working folder: the project of `startOpencode`, an empty folder for a shared host. */
		private cwd: string,
	) {}

	/** Creates the throwaway HOME and starts the server (in an empty folder of its own). */
	static async start(options: HostOptions = {}): Promise<OpencodeHost> {
		const root = await mkdtemp(join(tmpdir(), "boulder-e2e-opencode-"));
		const host = new OpencodeHost(root, options, join(root, "base"));
		try {
			await host.prepareHome();
			await mkdir(host.cwd, { recursive: true });
			await host.launch();
		} catch (error) {
			await host.dispose();
			throw error;
		}
		return host;
	}

	/** A host that serves one project, started in that project's folder (what `startOpencode` gives). */
	static async startWith(options: OpencodeOptions): Promise<OpencodeServer> {
		const root = await mkdtemp(join(tmpdir(), "boulder-e2e-opencode-"));
		const host = new OpencodeHost(root, options, join(root, "project"));
		const project = new OpencodeServer(host, join(root, "project"), options, true);
		try {
			await host.prepareHome();
			await project.prepare();
			await host.launch();
			await project.connect();
		} catch (error) {
			await project.dispose();
			throw error;
		}
		return project;
	}

	get homeDir(): string {
		return join(this.root, "home");
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** stdout and stderr of every process started so far. */
	logs(): string {
		return this.output.join("");
	}

	/** A new project folder served by this process (see `ProjectOptions`); `dispose()` it at the end of its test. */
	async open(options: ProjectOptions): Promise<OpencodeServer> {
		this.opened += 1;
		const project = new OpencodeServer(this, join(this.root, "projects", `p${this.opened}`), options, false);
		try {
			await project.prepare();
			await project.connect();
		} catch (error) {
			await project.dispose();
			throw error;
		}
		return project;
	}

	/** Stops the process and starts it again on the same folders (new port); every open project reconnects. */
	async restart(): Promise<void> {
		await this.stop();
		await this.launch();
		for (const project of this.projects) await project.connect();
	}

	/** Kills the server's process group; folders stay. */
	async stop(): Promise<void> {
		for (const project of this.projects) project.events?.close();
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

	/** Stops the server and removes its folders (kept when BOULDER_E2E_KEEP=1). */
	async dispose(): Promise<void> {
		await this.stop();
		this.projects.clear();
		if (process.env.BOULDER_E2E_KEEP === "1") return;
		await rm(this.root, { recursive: true, force: true });
	}

	/** Fails with the server's recent output. */
	failure(why: string): Error {
		return new Error(`opencode serve: ${why}\n--- output ---\n${this.logs().slice(-4_000)}`);
	}

	/** Whether the process has ended. */
	get ended(): boolean {
		const child = this.child;
		return !child || child.exitCode !== null || child.signalCode !== null;
	}

	private async prepareHome(): Promise<void> {
		for (const dir of xdgDirs(this.homeDir)) await mkdir(dir, { recursive: true });
		await seedPluginInstall(join(this.homeDir, ".config", "opencode"));
	}

	private async launch(): Promise<void> {
		const port = await freePort();
		const env = childEnv(this.homeDir, this.options.env ?? {});
		const child = spawn(
			opencodeBin,
			[
				"serve",
				"--port",
				String(port),
				"--hostname",
				"127.0.0.1",
				"--print-logs",
				"--log-level",
				this.options.logLevel ?? "INFO",
			],
			{ cwd: this.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
		);
		this.child = child;
		this.port = port;
		if (child.pid) liveGroups.add(child.pid);
		child.once("exit", () => {
			if (child.pid) liveGroups.delete(child.pid);
		});
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

		const deadline = Date.now() + (this.options.startTimeoutMs ?? 60_000);
		const fail = async (why: string) => {
			await this.stop();
			throw this.failure(`did not start: ${why}`);
		};
		// The line is the one sign the port is open; OpenCode prints it once, so this polls the flag set above.
		while (!listening) {
			if (spawnError) return fail(spawnError.message);
			if (child.exitCode !== null || child.signalCode !== null)
				return fail(`exited (${child.exitCode ?? child.signalCode})`);
			if (Date.now() > deadline) return fail("no 'listening' line in time");
			await sleep(25);
		}
		await bootInstance(new OpencodeClient(this.url), this, deadline);
	}
}

/**
 * Asks for a project's sessions until the server answers. A request that
 * arrives while an instance boots can stay unanswered, so the probe uses
 * short, growing timeouts. The first request for a folder boots its instance,
 * which loads its plugins.
 */
async function bootInstance(client: OpencodeClient, host: OpencodeHost, deadline: number): Promise<void> {
	let attemptMs = 1_000;
	for (;;) {
		try {
			await client.request("GET", "/session", undefined, attemptMs);
			return;
		} catch (error) {
			if (host.ended) throw host.failure("exited");
			if (Date.now() > deadline) throw host.failure(`no answer in time (${String(error)})`);
			attemptMs = Math.min(attemptMs * 2, 8_000);
			await sleep(50);
		}
	}
}

/** One project (a folder with its opencode.json) served by an `OpencodeHost`. */
export class OpencodeServer {
	client: OpencodeClient;
	/** Events of this project since the server process started (reopened on restart). */
	events!: EventStream;

	constructor(
		readonly host: OpencodeHost,
		readonly projectDir: string,
		readonly options: ProjectOptions,
		/** Whether this project's host is its own: disposing the project disposes the host. */
		private readonly ownsHost: boolean,
	) {
		this.client = new OpencodeClient("http://127.0.0.1:1", projectDir);
	}

	/** Creates the throwaway folders, writes the config and starts the server. */
	static start(options: OpencodeOptions): Promise<OpencodeServer> {
		return OpencodeHost.startWith(options);
	}

	get root(): string {
		return this.host.root;
	}

	get homeDir(): string {
		return this.host.homeDir;
	}

	/** Where the real boulder CLI runs as this server's user: in its project, with its HOME and XDG folders. */
	get cliPlace(): CliPlace {
		return { cwd: this.projectDir, env: { ...process.env, ...homeFolders(this.homeDir), NO_COLOR: "1" } };
	}

	get port(): number {
		return this.host.port;
	}

	get url(): string {
		return this.host.url;
	}

	get pid(): number | undefined {
		return this.host.pid;
	}

	/** stdout and stderr of every server process of the host so far. */
	logs(): string {
		return this.host.logs();
	}

	/** Restarts the server process (every project of the host reconnects); the folders stay. */
	restart(): Promise<void> {
		return this.host.restart();
	}

	/** Stops the server process; folders stay. */
	stop(): Promise<void> {
		return this.host.stop();
	}

	/**
	 * Ends this project: its instance in the server is disposed (its plugins stop). Its folder goes with the
	 * host's, once the server process is gone: OpenCode may still write into it (`.opencode/`) just after the
	 * dispose, and a removal racing those writes fails (ENOTEMPTY). The server itself is stopped here only when
	 * it was this project's own.
	 */
	async dispose(): Promise<void> {
		this.events?.close();
		this.host.projects.delete(this);
		if (this.ownsHost) return this.host.dispose();
		if (!this.host.ended)
			await this.client.request("POST", "/instance/dispose", undefined, 10_000).catch(() => undefined);
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

	/** Waits until a session reports idle at or after event index `from`. */
	waitForIdle(sessionID: string, options: WaitOptions = {}): Promise<ServerEvent> {
		return this.events.waitForIdle(sessionID, options);
	}

	/** Index to pass as `from` to `waitForSettled`: the number of decision records so far. */
	async decisionMark(): Promise<number> {
		return (await readDecisionLog(this.projectDir, { missingIsEmpty: true })).length;
	}

	/**
	 * Waits until boulder has taken, at or after record `from`, the decision that ends a session's chain of
	 * turns, and the session is idle: the outcome a test then looks at. Ending: anything but a nudge
	 * (`inject`, `verify`, which runs the checks and decides again) or a skip that comes back by itself
	 * (`background-busy`: decided again when the subagent stops; a `retryAt`: decided again then). Nothing
	 * happens after it until someone writes. `until` replaces the test for one that ends otherwise.
	 */
	async waitForSettled(
		sessionID: string,
		options: { from?: number; timeoutMs?: number; until?: (record: DecisionRecord) => boolean } = {},
	): Promise<DecisionRecord> {
		const ends = options.until ?? endsTheChain;
		const timeoutMs = options.timeoutMs ?? 60_000;
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const records = (await readDecisionLog(this.projectDir, { missingIsEmpty: true }))
				.slice(options.from ?? 0)
				.filter((record) => record.session === sessionID && record.kind !== "event");
			const last = records.at(-1);
			if (last && ends(last)) {
				const status = (await this.client.status())[sessionID];
				if (!status || status.type === "idle") return last;
			}
			if (Date.now() > deadline) {
				const seen = records.map((record) => `${record.kind}:${record.reason}`).join(", ") || "none";
				throw new Error(`session ${sessionID} not settled within ${timeoutMs} ms; its decisions: ${seen}`);
			}
			await sleep(POLL_MS);
		}
	}

	/** Writes the project's files, its opencode.json and seeded installs. */
	async prepare(): Promise<void> {
		const { options } = this;
		await mkdir(this.projectDir, { recursive: true });
		if (options.git !== false) {
			const git = (...args: string[]) => execFileSync("git", args, { cwd: this.projectDir, stdio: "ignore" });
			git("init", "-q");
			// OpenCode names a project by its first commit; without one it is "global". The folder's path in
			// the message keeps two projects made in the same second apart.
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
				`init ${this.projectDir}`,
			);
		}
		for (const [path, content] of Object.entries(options.files ?? {})) {
			const target = join(this.projectDir, path);
			await mkdir(dirname(target), { recursive: true });
			await writeFile(target, content);
		}
		await writeFile(join(this.projectDir, "opencode.json"), `${JSON.stringify(this.config(), null, 2)}\n`);
		await seedPluginInstall(join(this.projectDir, ".opencode"));
		for (const [name, dir] of Object.entries(options.npmPackages ?? {})) {
			await seedCachedPackage(join(this.homeDir, ".cache", "opencode"), name, resolve(this.projectDir, dir));
		}
	}

	/** Boots this project's instance in the (re)started server and opens its event stream. */
	async connect(): Promise<void> {
		this.client = new OpencodeClient(this.host.url, this.projectDir);
		await bootInstance(this.client, this.host, Date.now() + (this.host.options.startTimeoutMs ?? 60_000));
		this.events = await this.client.subscribe();
		this.host.projects.add(this);
		await this.events.waitFor((e) => e.type === "server.connected", { timeoutMs: 10_000 }).catch(() => undefined);
	}

	private config(): Record<string, unknown> {
		const base: Record<string, unknown> = {
			$schema: "https://opencode.ai/config.json",
			provider: {
				[PROVIDER_ID]: {
					npm: "@ai-sdk/openai-compatible",
					name: "Scripted model server",
					options: { baseURL: this.options.modelServerUrl, apiKey: "test-key" },
					models: {
						[MODEL_ID]: { name: "Scripted main model", tool_call: true, limit: { context: 200_000, output: 32_000 } },
						[SMALL_MODEL_ID]: { name: "Scripted small model", limit: { context: 200_000, output: 8_000 } },
					},
				},
			},
			model: `${PROVIDER_ID}/${MODEL_ID}`,
			small_model: `${PROVIDER_ID}/${SMALL_MODEL_ID}`,
			autoupdate: false,
			share: "disabled",
		};
		if (this.options.plugins) base.plugin = this.options.plugins;
		return deepMerge(base, this.options.config ?? {});
	}
}

// Servers run in their own process groups; never leave one behind if the test process exits early.
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

/** Fails the suite early, and says why, when the build the tests drive (the CLI and the plugin) is missing. */
export function requireBuild(): void {
	requireBuilt(join(repoRoot, "dist", "adapters", "opencode", "plugin.js"));
}

/** Starts OpenCode in a throwaway project (see `OpencodeOptions`). */
export function startOpencode(options: OpencodeOptions): Promise<OpencodeServer> {
	return OpencodeServer.start(options);
}

/**
 * Makes `dir` look like a finished install of `@opencode-ai/plugin`, so OpenCode
 * skips its startup install there (it checks: node_modules exists, and every
 * dependency of package.json plus `@opencode-ai/plugin` is in package-lock.json).
 */
export async function seedPluginInstall(dir: string): Promise<void> {
	const version = JSON.parse(await readFile(join(pluginPackageDir, "package.json"), "utf8")).version as string;
	await mkdir(join(dir, "node_modules", "@opencode-ai"), { recursive: true });
	const pkg = { dependencies: { "@opencode-ai/plugin": version } };
	await writeFile(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
	const lock = {
		name: "opencode-config",
		lockfileVersion: 3,
		requires: true,
		packages: { "": pkg, "node_modules/@opencode-ai/plugin": { version } },
	};
	await writeFile(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
	const link = join(dir, "node_modules", "@opencode-ai", "plugin");
	if (!existsSync(link)) await symlink(pluginPackageDir, link, "dir");
}

/**
 * Puts a local package where OpenCode looks before installing an npm-name plugin
 * entry (`<cache>/packages/<name>@latest/node_modules/<name>`), so `"plugin": ["<name>"]`
 * loads it without a registry.
 */
export async function seedCachedPackage(opencodeCacheDir: string, name: string, packageDir: string): Promise<void> {
	const spec = name.includes("@", 1) ? name : `${name}@latest`;
	const bare = name.includes("@", 1) ? name.slice(0, name.lastIndexOf("@")) : name;
	const target = join(opencodeCacheDir, "packages", spec, "node_modules", bare);
	await mkdir(dirname(target), { recursive: true });
	if (!existsSync(target)) await symlink(packageDir, target, "dir");
}

/** How often a wait on a file (the decision log) looks again. */
const POLL_MS = 50;

/** Whether a decision ends its session's chain of turns (see `waitForSettled`). */
export function endsTheChain(record: DecisionRecord): boolean {
	if (record.kind === "inject" || record.kind === "verify") return false;
	if (record.reason === "background-busy") return false;
	return typeof record.retryAt !== "number";
}

function promptBody(input: string | TextPartInput[], options: PromptOptions): Record<string, unknown> {
	const parts: TextPartInput[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
	return { ...options, parts };
}

function xdgDirs(home: string): string[] {
	return [
		join(home, ".config", "opencode"),
		join(home, ".local", "share"),
		join(home, ".cache", "opencode"),
		join(home, ".local", "state"),
	];
}

function childEnv(home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
	return {
		...isolatedEnv(home, /^(OPENCODE|ANTHROPIC|OPENAI|CLAUDE|XDG)_|^OPENCODE$/),
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
		...extra,
	};
}

function eventSessionID(event: ServerEvent): string | undefined {
	const p = event.properties ?? {};
	if (typeof p.sessionID === "string") return p.sessionID;
	const info = p.info as { sessionID?: unknown; id?: unknown } | undefined;
	if (info && typeof info.sessionID === "string") return info.sessionID;
	if (event.type.startsWith("session.") && info && typeof info.id === "string") return info.id;
	const part = p.part as { sessionID?: unknown } | undefined;
	if (part && typeof part.sessionID === "string") return part.sessionID;
	return undefined;
}

function statusType(event: ServerEvent): string | undefined {
	return (event.properties?.status as { type?: string } | undefined)?.type;
}

function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(extra)) {
		const current = out[key];
		out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
	}
	return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
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

export type { Event, Message, Part, Session, SessionStatus, Todo };

/**
 * One server process for a whole test file (started on first use, stopped after the file): each test
 * `open()`s its own project in it, with its own opencode.json, plugins and files, and `dispose()`s it.
 * A test that changes what the whole server sees (its HOME's global config, its environment) starts its
 * own with `startOpencode` instead.
 */
export function sharedOpencode(options: HostOptions = {}): { open(project: ProjectOptions): Promise<OpencodeServer> } {
	let host: Promise<OpencodeHost> | undefined;
	afterAll(async () => {
		const started = await host?.catch(() => undefined);
		await started?.dispose();
	});
	return {
		async open(project) {
			host ??= OpencodeHost.start(options).catch((error: unknown) => {
				host = undefined;
				throw error;
			});
			return (await host).open(project);
		},
	};
}
