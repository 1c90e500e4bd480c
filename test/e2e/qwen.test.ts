/**
 * The Qwen Code adapter end to end: the real `qwen` binary (the pinned
 * devDependency, on the pinned Node 22), headless, against the scripted
 * OpenAI-compatible model server, with boulder installed the way a user
 * installs it (`boulder install qwen --project`, the real CLI; the portable
 * hooks find the project's boulder-agent) and explained the way a user asks
 * (`boulder why`). Assertions are on what the model received and on what
 * boulder says; never on timings.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type Scenario,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { cliPlace, createQwenSandbox, type QwenRunResult, type QwenSandbox, runQwen } from "./support/qwen-run.js";
import { COMMAND_HOOK, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 360_000;

const servers: ScriptedModelServer[] = [];
let sandbox: QwenSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox?.dispose();
});

/** A sandbox with boulder installed in the project; `settings` go into Qwen Code's user settings. */
async function setUp(settings: Record<string, unknown> = {}): Promise<void> {
	sandbox = await createQwenSandbox(settings);
	await boulderOk("install", "qwen", "--project");
}

async function serve(scenario: Scenario): Promise<ScriptedModelServer> {
	const server = await startModelServer({ scenario, fallback: { text: "Nothing more to do." } });
	servers.push(server);
	return server;
}

async function qwen(
	server: ScriptedModelServer,
	prompt: string,
	env: Record<string, string> = {},
): Promise<QwenRunResult> {
	const run = await runQwen(sandbox, { prompt, baseUrl: server.baseUrl, env, timeoutMs: RUN_TIMEOUT_MS });
	expect(run.timedOut, `${run.stderr}\n${server.describe()}`).toBe(false);
	return run;
}

/** The agent's own requests (a subagent's system prompt is not Qwen Code's main one). */
function agentRequests(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

function isSubagentRequest(request: RecordedRequest): boolean {
	const system = request.body.messages?.find((message) => message.role === "system");
	return !contentText(system?.content).startsWith("You are Qwen Code");
}

/** Requests that arrived right after a boulder nudge: the nudge is their last message (not a tool result after it). */
function nudges(server: ScriptedModelServer): number {
	return agentRequests(server).filter(endsInNudge).length;
}

function todoWrite(statuses: string[]): ModelStep {
	const todos = statuses.map((status, index) => ({ id: String(index + 1), content: `Item ${index + 1}`, status }));
	return { toolCalls: [{ name: "todo_write", args: { todos } }] };
}

/** `done` items completed, the next one in progress, the rest pending. */
function progress(done: number, total: number): ModelStep {
	return todoWrite(statusesAt(done, total));
}

function say(text: string): ModelStep {
	return { text };
}

/** A list of `total` items worked through one per nudge, the agent stopping lazily after each. */
function onePerNudge(total: number): ModelStep[] {
	const steps: ModelStep[] = [progress(0, total), say("Started on the list.")];
	for (let done = 1; done <= total; done++) steps.push(progress(done, total), say(`Finished item ${done}.`));
	return steps;
}

describe("Qwen Code, real binary", () => {
	it(
		"carries a lazy agent through its todo_write list to the end",
		async () => {
			await setUp();
			const server = await serve(onePerNudge(3));

			const run = await qwen(server, "Work through the list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(server.overruns).toBe(0);
			expect(nudges(server)).toBe(3);
			const first = agentRequests(server).find(endsInNudge);
			expect(server.lastUserText(first)).toMatch(/0 of 3 done[\s\S]*Item 1/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"finishes a list that needs more continuations than Qwen Code's default cap, once the cap is lifted",
		async () => {
			await setUp({ stopHookBlockingCap: 100 });
			const server = await serve(onePerNudge(9));

			const run = await qwen(server, "Work through the long list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(server.overruns).toBe(0);
			expect(nudges(server)).toBe(9);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"at Qwen Code's default cap, sends no nudge the harness would override, and says so in why",
		async () => {
			await setUp();
			const server = await serve(onePerNudge(9));

			const run = await qwen(server, "Work through the long list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(nudges(server)).toBe(7);
			expect(run.stdout).not.toMatch(/overriding and ending the turn/);
			// Every nudge the log calls sent reached the model: 7 lines, 7 received; the eighth is the cap's stop.
			const lines = await decisions();
			expect(lines.filter((line) => line.reason === "continue")).toHaveLength(7);
			expect(lines.filter((line) => line.reason === "delivery-failed")).toEqual([]);
			expect(lines.filter((line) => line.reason === "harness-cap")).toHaveLength(1);
			// The user hears it once, in the session, as for a stagnation stop.
			expect(run.stderr.match(/boulder: not continuing — Qwen Code lets at most 7/g)).toHaveLength(1);
			expect(await boulderOk("why")).toMatch(
				/the harness stopped it: Qwen Code lets at most 7 continuation\(s\) in a row through .*stopHookBlockingCap/,
			);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			await setUp();
			const server = await serve([
				progress(0, 2),
				say("I will look into it."),
				say("Still thinking about it."),
				say("Still thinking."),
				say("Thinking some more."),
			]);

			const run = await qwen(server, "Fix both items.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(agentRequests(server)).toHaveLength(5);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops an agent that churns its list without finishing anything",
		async () => {
			await setUp();
			const churn = (word: string): ModelStep => ({
				toolCalls: [
					{
						name: "todo_write",
						args: {
							todos: [
								{ id: "1", content: `Item 1 (${word})`, status: "in_progress" },
								{ id: "2", content: "Item 2", status: "pending" },
							],
						},
					},
				],
			});
			const server = await serve([
				churn("first look"),
				say("Reorganised the list."),
				churn("second look"),
				say("Reworded it."),
				churn("third look"),
				say("Reworded again."),
				churn("fourth look"),
				say("And again."),
			]);

			const run = await qwen(server, "Do both items.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge an agent that asked the user to choose",
		async () => {
			await setUp();
			const server = await serve([
				progress(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			const run = await qwen(server, "Build the store.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(agentRequests(server)).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a subagent, whose list is its parent's business",
		async () => {
			await setUp();
			const server = await serve(({ request }) => {
				if (isSubagentRequest(request)) return say("Sub-task done.");
				const mains = agentRequests(server).length;
				if (mains === 1) return progress(0, 2);
				if (mains === 2) {
					return {
						toolCalls: [
							{
								name: "agent",
								args: { description: "look around", prompt: "List the files.", subagent_type: "general-purpose" },
							},
						],
					};
				}
				if (mains <= 4) return say("Waiting on the helper.");
				return mains % 2 === 1 ? progress(Math.min(2, mains - 4), 2) : say("Progressing.");
			});

			const run = await qwen(server, "Use a helper.");

			expect(run.exitCode, run.stderr).toBe(0);
			const subagentRequests = server.mainRequests().filter(isSubagentRequest);
			expect(subagentRequests.length).toBeGreaterThan(0);
			expect(subagentRequests.some((request) => server.userTexts(request).some((text) => text.includes(NUDGE)))).toBe(
				false,
			);
			expect(await decisions()).toContainEqual(
				expect.objectContaining({ kind: "skip", reason: "not-eligible", harness: "qwen" }),
			);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			await setUp();
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			await boulderOk("start", "plan.md");
			const shell = (command: string): ModelStep => ({
				toolCalls: [{ name: "run_shell_command", args: { command, description: "edit" } }],
			});
			const server = await serve([
				// Qwen Code refuses to change a file the agent has not read in the session.
				{ toolCalls: [{ name: "read_file", args: { file_path: join(sandbox.project, "plan.md") } }] },
				shell("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				shell("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			const run = await qwen(server, "Roll the plan.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(server.overruns, JSON.stringify(server.requests.map((request) => server.toolResults(request)))).toBe(0);
			const requests = agentRequests(server);
			expect(requests).toHaveLength(5);
			expect(nudges(server)).toBe(1);
			const nudge = server.lastUserText(requests[3]) ?? "";
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);
});
