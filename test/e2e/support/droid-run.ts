/**
 * Runs the real Factory Droid binary (`droid exec --input-format
 * stream-jsonrpc`, the mode Factory's own SDK drives) inside a throwaway HOME
 * and project folder, pointed at the scripted OpenAI-compatible model server
 * (`openai-server.ts`) through a BYOK `customModels` entry, with no login.
 * Nothing of the machine's own Factory setup (settings, keys, FACTORY_* or
 * OPENAI_* variables) leaks in.
 *
 * Why the JSON-RPC mode and not `droid exec "prompt"`: a one-shot exec is
 * Droid's "non-interactive" mode, which hides its TodoWrite tool and never
 * fires UserPromptSubmit; the JSON-RPC session is "interactive" (as the TUI)
 * and has both. A run sends one user message and ends when Droid's working
 * state goes back to idle (a Stop hook that blocks keeps it working).
 *
 * Contract: every sandbox must be disposed; every run ends (a timeout kills
 * the process group).
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { CliPlace } from "./boulder-cli.js";
import { type ChildOutput, collectOutput } from "./child-output.js";
import { harnessBin } from "./harnesses.js";
import { isolatedEnv } from "./isolated-env.js";
import { contentText, type ModelStep, type RecordedRequest, type Scenario } from "./openai-server.js";
import { REPO } from "./suite.js";

export const DROID_BIN = harnessBin("droid");

/** The BYOK model every run uses (`custom:<model>`). */
const MODEL = "m";

export interface DroidSandbox {
	root: string;
	home: string;
	/** The run's cwd: a git worktree (unless made without one) with boulder-agent as its devDependency. */
	project: string;
	/** `~/.factory/settings.json` (the model entry; boulder's hooks go to `hooks.json`). */
	userSettings: string;
	dispose(): Promise<void>;
}

export async function createDroidSandbox(options: { git?: boolean } = {}): Promise<DroidSandbox> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-droid-")));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(join(home, ".factory"), { recursive: true });
	await mkdir(join(project, "node_modules"), { recursive: true });
	if (options.git !== false) await mkdir(join(project, ".git"), { recursive: true });
	await symlink(REPO, join(project, "node_modules", "boulder-agent"), "dir");
	return {
		root,
		home,
		project,
		userSettings: join(home, ".factory", "settings.json"),
		dispose: () => rm(root, { recursive: true, force: true }),
	};
}

export interface DroidRunOptions {
	prompt: string;
	/** The model server's base URL, ending in `/v1`. */
	baseUrl: string;
	/** Continue this session (`droid.load_session`) instead of starting one. */
	sessionId?: string;
	env?: Record<string, string>;
	timeoutMs?: number;
}

export interface DroidRunResult extends ChildOutput {
	/** The session's id, from Droid's answer to the session request. */
	sessionId: string | undefined;
	/** Permission requests Droid sent (none is expected at autonomy "high"). */
	permissionRequests: unknown[];
}

export async function runDroid(sandbox: DroidSandbox, options: DroidRunOptions): Promise<DroidRunResult> {
	await writeModelSettings(sandbox, options.baseUrl);
	const child = spawn(
		DROID_BIN,
		["exec", "--input-format", "stream-jsonrpc", "--output-format", "stream-jsonrpc", "--cwd", sandbox.project],
		{ cwd: sandbox.project, env: droidEnv(sandbox, options.env), detached: true, stdio: ["pipe", "pipe", "pipe"] },
	);
	const done = collectOutput(child, options.timeoutMs ?? 120_000);
	const send = (id: string, method: string, params: unknown) =>
		child.stdin.write(
			`${JSON.stringify({ jsonrpc: "2.0", factoryApiVersion: "1.0.0", type: "request", id, method, params })}\n`,
		);
	let sessionId = options.sessionId;
	let working = false;
	const permissionRequests: unknown[] = [];
	child.stdin.on("error", () => undefined);
	createInterface({ input: child.stdout }).on("line", (line) => {
		const message = parseLine(line);
		if (message?.type === "response" && message.id === "session") {
			const result = message.result as { sessionId?: string } | undefined;
			sessionId ??= result?.sessionId;
			send("prompt", "droid.add_user_message", { text: options.prompt });
		} else if (message?.type === "request" && message.method === "droid.request_permission") {
			permissionRequests.push(message.params);
			child.stdin.end();
		} else if (message?.method === "droid.session_notification") {
			const notification = (message.params as { notification?: { type?: string; newState?: string } }).notification;
			if (notification?.type !== "droid_working_state_changed") return;
			if (notification.newState !== "idle") working = true;
			else if (working) child.stdin.end();
		}
	});
	if (options.sessionId) send("session", "droid.load_session", { sessionId: options.sessionId });
	else
		send("session", "droid.initialize_session", {
			machineId: "boulder-test",
			cwd: sandbox.project,
			modelId: `custom:${MODEL}`,
			autonomyLevel: "high",
		});
	const output = await done;
	return { ...output, sessionId, permissionRequests };
}

/** Points the user settings' one custom model at the test's server, keeping any other keys. */
async function writeModelSettings(sandbox: DroidSandbox, baseUrl: string): Promise<void> {
	const current = await readFile(sandbox.userSettings, "utf8").then(
		(text) => JSON.parse(text) as Record<string, unknown>,
		() => ({}),
	);
	const model = {
		model: MODEL,
		displayName: "Scripted",
		baseUrl,
		apiKey: "test",
		provider: "generic-chat-completion-api",
	};
	const settings = { ...current, customModels: [{ ...model, maxOutputTokens: 4096 }], cloudSessionSync: false };
	await writeFile(sandbox.userSettings, `${JSON.stringify(settings, null, 2)}\n`);
}

/** The machine's env minus its model and Factory settings, with the sandbox's HOME. */
export function droidEnv(sandbox: DroidSandbox, extra: Record<string, string> = {}): Record<string, string> {
	return { ...isolatedEnv(sandbox.home, /^(FACTORY_|DROID_|OPENAI_|ANTHROPIC_|CLAUDE|GEMINI_)/), ...extra };
}

/** Where the boulder CLI runs beside the sandbox's runs: in its project, with its HOME and state folders. */
export function cliPlace(sandbox: DroidSandbox): CliPlace {
	return { cwd: sandbox.project, env: { ...droidEnv(sandbox), NO_COLOR: "1" } };
}

/** The first words of Droid's own end-of-turn reminder when its TodoWrite list has open items. */
export const DROID_TODO_REMINDER = "IMPORTANT: You may be ending the turn, but the TodoWrite plan still has open items";

/** Whether Droid's own reminder (not the user, not boulder) started this request. */
export function endsInDroidReminder(request: RecordedRequest): boolean {
	const last = request.body.messages?.at(-1);
	return last?.role === "user" && contentText(last.content).includes(DROID_TODO_REMINDER);
}

/**
 * A scenario for Droid: `steps` in order, except that a request Droid's own
 * open-todo reminder started is answered by the agent saying its last words
 * again (a lazy agent ignores the reminder; an agent waiting on the user asks
 * again), without using a step. The reminder comes once per user message, so
 * every turn boulder decides on has it behind it.
 */
export function droidScenario(steps: readonly ModelStep[] | ((index: number) => ModelStep)): Scenario {
	let cursor = 0;
	let lastText = "I will stop here.";
	return ({ request }) => {
		if (endsInDroidReminder(request)) return { text: lastText };
		const step = typeof steps === "function" ? steps(cursor) : (steps[cursor] ?? { text: "Nothing more to do." });
		cursor++;
		if (step.text) lastText = step.text;
		return step;
	};
}

/** Droid's TodoWrite, as its tool description asks: numbered lines with a status marker. */
export function droidTodoWrite(statuses: readonly string[]): ModelStep {
	const todos = statuses.map((status, index) => `${index + 1}. [${status}] Item ${index + 1}`).join("\n");
	return { toolCalls: [{ name: "TodoWrite", args: { todos } }] };
}

/** Droid's Execute, with the fields its schema requires. */
export function droidExecute(command: string): ModelStep {
	return {
		toolCalls: [
			{
				name: "Execute",
				args: {
					summary: "Run a project command now",
					command,
					riskLevelReason: "It only touches files inside the project.",
					riskLevel: "low",
				},
			},
		],
	};
}

function parseLine(
	line: string,
): { type?: string; id?: string; method?: string; params?: unknown; result?: unknown } | null {
	if (!line.startsWith("{")) return null;
	try {
		return JSON.parse(line) as { type?: string };
	} catch {
		return null;
	}
}
