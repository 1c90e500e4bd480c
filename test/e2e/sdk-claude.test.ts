/**
 * `boulder-agent/sdk/claude` end to end: docs/sdk.md's example program
 * (`examples/sdk/claude.ts`, run unchanged) drives the pinned Claude Agent
 * SDK, which drives the pinned `claude` binary (`@anthropic-ai/claude-code`,
 * through `pathToClaudeCodeExecutable`), against the scripted model server.
 * boulder is not installed as hooks: its callbacks run inside the program.
 * Assertions are on what the model received and on what `boulder why`
 * says in the project; never on timings.
 *
 * Needs `npm run build` (the example imports the built package).
 */
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { CLAUDE_BIN, type ClaudeSandbox, childEnv, cliPlace, createSandbox, waitFor } from "./support/claude-run.js";
import { type ExampleRun, exampleApp, spawnExample } from "./support/sdk-example.js";
import { expectSubagentRanUnnudged, SUBAGENT_PROMPT, serveSubagentScenario } from "./support/subagent-scenario.js";
import { NUDGE, REPO, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt, claudeTodoWrite as todoWrite } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 180_000;

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
let example: string;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(join(REPO, "dist", "sdk", "claude.js")));

beforeEach(async () => {
	sandbox = await createSandbox();
	example = await exampleApp(sandbox.root, "claude", ["@anthropic-ai/claude-agent-sdk"]);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario);
	servers.push(server);
	return server;
}

function start(server: AnthropicServer, args: string[]) {
	const env = {
		...childEnv(sandbox, { prompt: "", baseUrl: server.url }),
		CLAUDE_CODE_ENABLE_TASKS: "0",
		CLAUDE_CODE_EXECUTABLE: CLAUDE_BIN,
	};
	return spawnExample(example, args, { cwd: sandbox.project, env, timeoutMs: RUN_TIMEOUT_MS });
}

async function run(server: AnthropicServer, ...args: string[]): Promise<ExampleRun> {
	const done = await start(server, args).done;
	expect(done.timedOut, done.stderr).toBe(false);
	expect(done.exitCode, done.stderr).toBe(0);
	return done;
}

function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

function nudges(server: AnthropicServer): number {
	return agentRequests(server).filter((request) => lastUserText(request).includes(NUDGE)).length;
}

const progress = (done: number, total: number): ReplyStep => todoWrite(statusesAt(done, total));
const say = (text: string): ReplyStep => ({ text });

describe("boulder in a Claude Agent SDK program (the real SDK and claude)", () => {
	it(
		"carries a lazy agent through its four todos, then lets it stop",
		async () => {
			const server = await serve([
				progress(0, 4),
				progress(1, 4),
				say("Finished item A."),
				progress(2, 4),
				say("Finished item B."),
				progress(3, 4),
				say("Finished item C."),
				progress(4, 4),
				say("All four items are done."),
			]);

			const done = await run(server, "Work through the list.");

			expect(done.lines.at(-1)).toMatchObject({ result: "All four items are done." });
			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not answer the agent's question for the user",
		async () => {
			const server = await serve([
				progress(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			await run(server, "Build the store.");

			expect(agentRequests(server)).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			const server = await serve([
				progress(0, 2),
				say("I will look into it."),
				say("Still thinking about it."),
				say("Still thinking."),
				say("Thinking some more."),
			]);

			await run(server, "Fix both items.");

			expect(agentRequests(server)).toHaveLength(5);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a subagent",
		async () => {
			const { server, turns } = await serveSubagentScenario(serve);

			await run(server, SUBAGENT_PROMPT);

			expectSubagentRanUnnudged(server, turns(), await decisions());
			expect(nudges(server)).toBe(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan given to the hooks: a failing verify command's output reaches the model, the fix completes it",
		async () => {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			const bash = (command: string): ReplyStep => ({
				toolUses: [{ name: "Bash", input: { command, description: "edit" } }],
			});
			const server = await serve([
				bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				bash("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			await run(server, "Roll the plan.", "plan.md");

			expect(server.exhaustedCount()).toBe(0);
			const requests = agentRequests(server);
			expect(requests).toHaveLength(4);
			const nudge = lastUserText(requests[2] as RecordedRequest);
			expect(nudge).toContain(NUDGE);
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudges(server)).toBe(1);
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops at once on the program's AbortSignal, and remembers the abort",
		async () => {
			const server = await serve([progress(0, 3), { text: "Working on it.", delayMs: 60_000 }]);
			const running = start(server, ["Do the three items."]);
			await waitFor(() => (agentRequests(server).length >= 2 ? true : undefined), 60_000);

			running.signal("SIGINT");
			const done = await running.done;

			expect(done.timedOut, done.stderr).toBe(false);
			expect(done.lines.at(-1)).toEqual({ aborted: true });
			expect(agentRequests(server)).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect((await decisions()).map((record) => `${record.kind}:${record.reason}`)).toContain("event:user-aborted");
			expect(await boulderOk("why")).toMatch(/interrupted/);
		},
		TEST_TIMEOUT_MS,
	);
});
