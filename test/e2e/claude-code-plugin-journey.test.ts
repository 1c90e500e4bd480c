/**
 * boulder as a Claude Code plugin, installed the way Claude Code installs
 * plugins: `claude plugin marketplace add` of a local marketplace folder (the
 * repository's marketplace file and plugin folder, committed as a clone would
 * have them, never built) and `claude plugin install boulder@boulder`, by the
 * real pinned `claude`, on a machine where boulder itself was installed from
 * the packed tarball. The plugin's hooks nudge a lazy agent to the end of its
 * list, `/boulder:why` answers from the installed boulder, and uninstalling
 * the plugin and the marketplace leaves neither in Claude Code's records nor
 * anything in the project.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { CLAUDE_BIN, type ClaudeRunResult, childEnv, runClaude } from "./support/claude-run.js";
import { boulderOk, type Machine, newMachine } from "./support/journey.js";
import { snapshot } from "./support/packed-package.js";
import { NUDGE, REPO } from "./support/suite.js";
import { claudeTodoWrite, statusesAt } from "./support/todo-steps.js";

const run = promisify(execFile);
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;

let machine: Machine;
let market: string;
const servers: AnthropicServer[] = [];

beforeAll(async () => {
	machine = await newMachine();
	market = join(machine.root, "boulder-marketplace");
	await mkdir(join(market, ".claude-plugin"), { recursive: true });
	await cp(join(REPO, ".claude-plugin", "marketplace.json"), join(market, ".claude-plugin", "marketplace.json"));
	await cp(join(REPO, "plugins", "boulder"), join(market, "plugins", "boulder"), { recursive: true });
	const git = (...args: string[]) =>
		run("git", ["-c", "commit.gpgsign=false", ...args], { cwd: market, env: machine.env });
	await git("init", "-q");
	await git("add", ".");
	await git("commit", "-q", "-m", "The marketplace, as a clone has it");
}, TEST_TIMEOUT_MS);

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
	await machine?.dispose();
});

/** The user's environment as Claude Code gets it (no model server needed for `claude plugin …`). */
function claudeEnv(baseUrl = "http://127.0.0.1:9"): Record<string, string> {
	return { ...childEnv(machine.sandbox, { prompt: "", baseUrl }), ...machine.env, CLAUDE_CODE_ENABLE_TASKS: "0" };
}

/** `claude plugin …`, as the user types it. */
async function claudePlugin(...args: string[]): Promise<string> {
	const { stdout, stderr } = await run(CLAUDE_BIN, ["plugin", ...args], {
		cwd: machine.project,
		env: claudeEnv(),
		timeout: RUN_TIMEOUT_MS,
	});
	return `${stdout}${stderr}`;
}

async function serve(scenario: Scenario): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario, { whenExhausted: { text: "Nothing more to do." } });
	servers.push(server);
	return server;
}

async function claude(server: AnthropicServer, prompt: string, resume?: string): Promise<ClaudeRunResult> {
	const result = await runClaude(machine.sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		env: { ...machine.env, CLAUDE_CODE_ENABLE_TASKS: "0" },
		...(resume ? { resume } : {}),
	});
	expect(result.timedOut, result.stderr).toBe(false);
	return result;
}

function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

function progress(done: number, total: number): ReplyStep {
	return claudeTodoWrite(statusesAt(done, total));
}

async function readJson(file: string): Promise<Record<string, unknown>> {
	return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

describe("boulder as a Claude Code plugin from a marketplace", () => {
	it(
		"installs with Claude Code's own commands, nudges a lazy agent to the end of its list, answers /boulder:why, and uninstalls without a trace",
		async () => {
			const notState = (path: string) => path === ".git" || path === ".boulder";
			const before = await snapshot(machine.project, notState);

			expect(await claudePlugin("marketplace", "add", market)).toMatch(/Successfully added marketplace: boulder/);
			expect(await claudePlugin("install", "boulder@boulder")).toMatch(
				/Successfully installed plugin: boulder@boulder/,
			);
			const claudeDir = join(machine.home, ".claude");
			const installs = (await readJson(join(claudeDir, "plugins", "installed_plugins.json"))).plugins as Record<
				string,
				{ installPath: string }[]
			>;
			const folder = installs["boulder@boulder"]?.[0]?.installPath as string;
			expect((await readdir(folder)).sort()).toEqual([".claude-plugin", "commands", "hooks"]);
			expect(await boulderOk(machine, ["doctor"])).toMatch(
				new RegExp(`plugin boulder@boulder is enabled \\(runs boulder \\d+\\.\\d+\\.\\d+, .*${machine.installed.bin}`),
			);

			const server = await serve([
				progress(0, 3),
				{ text: "Item A is under way; stopping here." },
				progress(1, 3),
				{ text: "Finished item A." },
				progress(2, 3),
				{ text: "Finished item B." },
				progress(3, 3),
				{ text: "All three items are done." },
			]);
			const lazy = await claude(server, "Work through the list.");

			expect(lazy.exitCode, lazy.stderr).toBe(0);
			expect(lazy.json?.result).toBe("All three items are done.");
			expect(agentRequests(server).filter((request) => lastUserText(request).includes(NUDGE))).toHaveLength(3);

			const explain = await serve([{ text: "Here is boulder's explanation." }]);
			await claude(explain, "/boulder:why", lazy.sessionId);
			const [asked] = agentRequests(explain);
			expect(lastUserText(asked as RecordedRequest)).toMatch(/boulder's explanation:[\s\S]*continued/);
			expect(agentRequests(explain)).toHaveLength(1);

			expect(await claudePlugin("uninstall", "boulder@boulder")).toMatch(/Successfully uninstalled plugin: boulder/);
			expect(await claudePlugin("marketplace", "remove", "boulder")).toMatch(
				/Successfully removed marketplace: boulder/,
			);

			const settings = await readJson(join(claudeDir, "settings.json"));
			expect(JSON.stringify(settings)).not.toContain("boulder");
			expect(JSON.stringify(await readJson(join(claudeDir, "plugins", "installed_plugins.json")))).not.toContain(
				"boulder",
			);
			expect(JSON.stringify(await readJson(join(claudeDir, "plugins", "known_marketplaces.json")))).not.toContain(
				"boulder",
			);
			// Claude Code marks the copy it made for removal and deletes it itself later.
			expect(!existsSync(folder) || existsSync(join(folder, ".orphaned_at"))).toBe(true);
			expect(await snapshot(machine.project, notState)).toEqual(before);
			expect(await machine.git("status", "--porcelain")).toBe("");
			expect(await boulderOk(machine, ["doctor"])).toMatch(/its plugin is not enabled/);
		},
		TEST_TIMEOUT_MS,
	);
});
