/**
 * A new user's journey with Claude Code, using only the packed tarball: a
 * fresh HOME and an empty git repository; `npm install -g` of the tarball
 * (into a throwaway prefix); `boulder install claude-code --project`; the real
 * `claude` on a lazy agent, which boulder carries to the end of its list;
 * `boulder why`; `boulder uninstall claude-code --project`, after which the
 * repository is what it was, byte for byte. Then a teammate without boulder
 * runs Claude Code on the same committed settings: one notice, no hook
 * errors, and the agent simply stops.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NOT_INSTALLED_NOTICE, REGISTRATIONS } from "../../src/adapters/claude-code/dialect.js";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	reachedModel,
	type Scenario,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { type ClaudeRunResult, createSandbox, readTranscript, runClaude } from "./support/claude-run.js";
import { boulderOk, type Machine, machinePaths, newMachine, plainPath } from "./support/journey.js";
import { npmEnv, snapshot } from "./support/packed-package.js";
import { NUDGE } from "./support/suite.js";
import { claudeTodoWrite, statusesAt } from "./support/todo-steps.js";

const exec = promisify(execFile);
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;

let machine: Machine;
const servers: AnthropicServer[] = [];

beforeAll(async () => {
	machine = await newMachine();
}, TEST_TIMEOUT_MS);

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
	await machine?.dispose();
});

async function serve(scenario: Scenario): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario, { whenExhausted: { text: "Nothing more to do." } });
	servers.push(server);
	return server;
}

/** The real `claude`, headless, in the user's project and environment. */
async function claude(server: AnthropicServer, prompt: string, env: Record<string, string>): Promise<ClaudeRunResult> {
	const run = await runClaude(machine.sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		env: { ...env, CLAUDE_CODE_ENABLE_TASKS: "0" },
	});
	expect(run.timedOut, run.stderr).toBe(false);
	return run;
}

/** What Claude Code recorded about hook runs: successes, errors, and the messages hooks showed the user. */
function hookAttachments(transcript: Record<string, unknown>[]): { type: string; content?: unknown }[] {
	return transcript.flatMap((line) => {
		const attachment = line.attachment as { type?: unknown; content?: unknown } | undefined;
		return line.type === "attachment" && typeof attachment?.type === "string" && attachment.type.startsWith("hook_")
			? [{ type: attachment.type, content: attachment.content }]
			: [];
	});
}

function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

function nudges(server: AnthropicServer): number {
	return agentRequests(server).filter((request) => lastUserText(request).includes(NUDGE)).length;
}

/** `done` of `total` items completed, the next in progress (TodoWrite). */
function progress(done: number, total: number): ReplyStep {
	return claudeTodoWrite(statusesAt(done, total));
}

/** An agent that stops after every item unless something tells it to go on. */
const LAZY: Scenario = [
	progress(0, 3),
	{ text: "Item A is under way; stopping here." },
	progress(1, 3),
	{ text: "Finished item A." },
	progress(2, 3),
	{ text: "Finished item B." },
	progress(3, 3),
	{ text: "All three items are done." },
];

const notState = (path: string) => path === ".git" || path === ".boulder";

describe("a new user installs boulder from the tarball and uses it with Claude Code", () => {
	it(
		"installs globally, hooks the project with no path of this machine, finishes a lazy agent's list, explains it, and uninstalls to the same bytes",
		async () => {
			expect(machine.packed.entryCount).toBeGreaterThan(0);
			const help = await boulderOk(machine, ["--help"], machine.home);
			expect(help).toMatch(/install/);
			const before = await snapshot(machine.project, notState);

			const installed = await boulderOk(machine, ["install", "claude-code", "--project"]);

			expect(installed).toContain(`Installed boulder's Claude Code hooks (${REGISTRATIONS.length} entries)`);
			expect(installed).toMatch(/no path of this machine/);
			const settings = await readFile(join(machine.project, ".claude", "settings.json"), "utf8");
			for (const path of machinePaths(machine)) expect(settings).not.toContain(path);
			expect(await machine.git("status", "--porcelain")).toBe("?? .claude/\n");

			const server = await serve(LAZY);
			const run = await claude(server, "Work through the list.", machine.env);

			expect(run.exitCode, run.stderr).toBe(0);
			expect(run.json?.result).toBe("All three items are done.");
			expect(nudges(server)).toBe(3);
			const hooks = hookAttachments(await readTranscript(machine.sandbox, run.sessionId as string));
			// A Stop block (a nudge) is recorded as a "blocking error"; a hook that failed would be a non-blocking one.
			expect(hooks.filter((hook) => hook.type === "hook_non_blocking_error")).toEqual([]);
			expect(hooks.filter((hook) => hook.type === "hook_blocking_error")).toHaveLength(3);
			const why = await boulderOk(machine, ["why"]);
			expect(why).toMatch(/continued/);
			expect(why).toMatch(/complete/i);
			const doctor = await machine.boulder(["doctor"]);
			expect(doctor.stdout).toMatch(/portable: here they run boulder \d+\.\d+\.\d+, linked for you/);

			const removed = await boulderOk(machine, ["uninstall", "claude-code", "--project"]);

			expect(removed).toContain(`Removed boulder's Claude Code hooks (${REGISTRATIONS.length} entries)`);
			expect(await snapshot(machine.project, notState)).toEqual(before);
			expect(await machine.git("status", "--porcelain")).toBe("");
			expect(existsSync(join(machine.home, ".local", "state", "boulder", "install-backups"))).toBe(false);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"gives a teammate without boulder one notice at session start and no hook errors; the agent just stops",
		async () => {
			await boulderOk(machine, ["install", "claude-code", "--project"]);
			await machine.git("add", ".claude/settings.json");
			await machine.git("commit", "-q", "-m", "Use boulder");
			const teammate = await createSandbox();
			try {
				await mkdir(join(teammate.home, ".config"), { recursive: true });
				await cp(join(machine.project, ".claude"), join(teammate.project, ".claude"), { recursive: true });
				const env: Record<string, string> = {
					HOME: teammate.home,
					XDG_CONFIG_HOME: join(teammate.home, ".config"),
					XDG_CACHE_HOME: join(teammate.home, ".cache"),
					XDG_DATA_HOME: join(teammate.home, ".local", "share"),
					XDG_STATE_HOME: join(teammate.home, ".local", "state"),
					PATH: plainPath(),
				};
				const server = await serve(LAZY);

				const run = await runClaude(teammate, {
					prompt: "Work through the list.",
					baseUrl: server.url,
					timeoutMs: RUN_TIMEOUT_MS,
					env: { ...env, CLAUDE_CODE_ENABLE_TASKS: "0" },
				});

				expect(run.exitCode, run.stderr).toBe(0);
				expect(run.json?.result).toBe("Item A is under way; stopping here.");
				expect(nudges(server)).toBe(0);
				expect(existsSync(join(teammate.project, ".boulder"))).toBe(false);
				const hooks = hookAttachments(await readTranscript(teammate, run.sessionId as string));
				expect(hooks.filter((hook) => hook.type.includes("error"))).toEqual([]);
				expect(hooks.filter((hook) => hook.type === "hook_system_message").map((hook) => hook.content)).toEqual([
					NOT_INSTALLED_NOTICE,
				]);
				expect(reachedModel(server, "not installed")).toBe(false);
			} finally {
				await teammate.dispose();
			}
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"works as a devDependency: `npx boulder` runs in the project, and a teammate with only that copy is nudged by the committed hooks",
		async () => {
			const project = join(machine.root, "devdep-project");
			await mkdir(project);
			await exec("git", ["init", "-q"], { cwd: project });
			await exec("npm", ["init", "-y"], { cwd: project, env: npmEnv(process.env) });
			await exec("npm", ["install", "--save-dev", "--prefer-offline", machine.packed.tarball], {
				cwd: project,
				env: npmEnv(process.env),
				timeout: TEST_TIMEOUT_MS,
			});
			const teammate = await createSandbox();
			try {
				const env: Record<string, string> = {
					HOME: teammate.home,
					XDG_CONFIG_HOME: join(teammate.home, ".config"),
					XDG_CACHE_HOME: join(teammate.home, ".cache"),
					XDG_DATA_HOME: join(teammate.home, ".local", "share"),
					XDG_STATE_HOME: join(teammate.home, ".local", "state"),
					PATH: plainPath(),
				};
				const npx = (...args: string[]) =>
					exec("npx", ["--no-install", "boulder", ...args], { cwd: project, env: npmEnv(process.env, env) });

				expect((await npx("--version")).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
				const installed = (await npx("install", "claude-code", "--project")).stdout;

				expect(installed).toMatch(/no path of this machine/);
				expect(existsSync(join(teammate.home, ".local", "share", "boulder"))).toBe(false);
				const settings = await readFile(join(project, ".claude", "settings.json"), "utf8");
				for (const path of [...machinePaths(machine), project]) expect(settings).not.toContain(path);

				await cp(join(project, ".claude"), join(teammate.project, ".claude"), { recursive: true });
				await cp(join(project, "node_modules"), join(teammate.project, "node_modules"), { recursive: true });
				const server = await serve(LAZY);
				const result = await runClaude(teammate, {
					prompt: "Work through the list.",
					baseUrl: server.url,
					timeoutMs: RUN_TIMEOUT_MS,
					env: { ...env, CLAUDE_CODE_ENABLE_TASKS: "0" },
				});

				expect(result.exitCode, result.stderr).toBe(0);
				expect(result.json?.result).toBe("All three items are done.");
				expect(nudges(server)).toBe(3);
			} finally {
				await teammate.dispose();
			}
		},
		TEST_TIMEOUT_MS,
	);
});
