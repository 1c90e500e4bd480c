/**
 * `boulder-agent/sdk/codex` end to end: docs/sdk.md's example program
 * (`examples/sdk/codex.ts`, run unchanged) drives the pinned Codex SDK,
 * which drives the pinned `codex` binary (`@openai/codex`, through
 * `codexPathOverride`), against the scripted Responses-API server. No hooks
 * are installed: `runUntilDone` asks the engine after each turn. Codex has
 * no cap of its own here either: every stop is boulder's. Assertions are on
 * what the model received and on what `boulder why` says; never on timings.
 *
 * Needs `npm run build` (the example imports the built package).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { waitFor } from "./support/claude-run.js";
import { CODEX_BIN, type CodexSandbox, createCodexSandbox } from "./support/codex-run.js";
import {
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type ResponsesServer,
	type Scenario,
	type ServerOptions,
	startResponsesServer,
	tailAfterLastUser,
} from "./support/responses-server.js";
import { type ExampleRun, exampleApp, spawnExample } from "./support/sdk-example.js";
import { NUDGE, REPO, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 200_000;

const servers: ResponsesServer[] = [];
let sandbox: CodexSandbox;
let example: string;
const { boulderOk } = boulderIn(() => ({ cwd: sandbox.project, env: sandbox.env }));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(join(REPO, "dist", "sdk", "codex.js")));

beforeEach(async () => {
	sandbox = await createCodexSandbox();
	example = await exampleApp(sandbox.root, "codex", ["@openai/codex-sdk"]);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

/** The scripted server, named in the sandbox's Codex config (the SDK passes no `-c` of the test's own). */
async function serve(scenario: Scenario, options: ServerOptions = {}): Promise<ResponsesServer> {
	const server = await startResponsesServer(scenario, options);
	servers.push(server);
	const config = join(sandbox.codexHome, "config.toml");
	const text = (await readFile(config, "utf8")).replace("http://127.0.0.1:9/v1", server.url);
	await writeFile(config, `tools.update_plan.enabled = true\n${text}`);
	return server;
}

function start(args: string[], extraConfig: Record<string, string> = {}) {
	const env = { ...sandbox.env, CODEX_EXECUTABLE: CODEX_BIN, ...extraConfig };
	return spawnExample(example, args, { cwd: sandbox.project, env, timeoutMs: RUN_TIMEOUT_MS });
}

async function run(...args: string[]): Promise<{ done: ExampleRun; result: Record<string, unknown> }> {
	const done = await start(args).done;
	expect(done.timedOut, done.stderr).toBe(false);
	expect(done.exitCode, done.stderr).toBe(0);
	return { done, result: done.lines.at(-1) ?? {} };
}

/** Requests that answered a boulder nudge: the nudge is their last input item. */
function nudges(server: ResponsesServer): number {
	return server
		.mainRequests()
		.filter((request) => lastUserText(request).includes(NUDGE) && tailAfterLastUser(request).length === 0).length;
}

function plan(done: number, total: number): ReplyStep {
	const steps = statusesAt(done, total).map((status, index) => ({ step: `Item ${index + 1}`, status }));
	return { calls: [{ name: "update_plan", args: { plan: steps } }] };
}

const say = (text: string): ReplyStep => ({ text });
const shell = (cmd: string): ReplyStep => ({ calls: [{ name: "exec_command", args: { cmd } }] });

/** A request a subagent made: Codex names the agent in its turn metadata header (`/root` is the session's own). */
function isSubagentRequest(request: RecordedRequest): boolean {
	const header = request.headers["x-codex-turn-metadata"];
	try {
		const metadata = JSON.parse(typeof header === "string" ? header : "{}") as { agent_name?: unknown };
		return typeof metadata.agent_name === "string" && metadata.agent_name !== "/root";
	} catch {
		return false;
	}
}

describe("boulder driving a Codex SDK thread (the real SDK and codex)", () => {
	it(
		"carries a lazy agent through its three-step plan (todo_list), then lets it stop",
		async () => {
			const server = await serve([
				plan(0, 3),
				say("Starting."),
				plan(1, 3),
				say("Item 1 is done."),
				plan(2, 3),
				say("Item 2 is done."),
				plan(3, 3),
				say("All three are done."),
			]);

			const { result } = await run("Work through the plan.");

			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(result).toMatchObject({ turns: 4, stopped: "decided", finalResponse: "All three are done." });
			expect(result.decisions).toEqual(["inject:continue", "inject:continue", "inject:continue", "complete:complete"]);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not answer the agent's question for the user",
		async () => {
			const server = await serve([
				plan(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Which do you prefer?"),
			]);

			const { result } = await run("Build the store.");

			expect(server.mainRequests()).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect(result).toMatchObject({ turns: 1, decisions: ["skip:awaiting-user"] });
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress",
		async () => {
			const server = await serve([plan(0, 2), say("I will look into it.")], {
				whenExhausted: say("Still thinking about it."),
			});

			const { result } = await run("Fix both items.");

			expect(nudges(server)).toBe(3);
			expect(server.mainRequests()).toHaveLength(5);
			expect(result).toMatchObject({ turns: 4, stopped: "decided" });
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a subagent (spawn_agent): only the thread it drives gets boulder's turns",
		async () => {
			let agentTurn = 0;
			const steps: ReplyStep[] = [
				plan(0, 2),
				{
					calls: [
						{ name: "spawn_agent", namespace: "collaboration", args: { message: "Do item 1.", task_name: "item_one" } },
					],
				},
				{ calls: [{ name: "wait_agent", namespace: "collaboration", args: { timeout_ms: 60_000 } }] },
				plan(2, 2),
				say("Both items are done."),
			];
			const server = await serve(({ request }) => {
				if (isSubagentRequest(request)) return say("Subagent: item 1 is done.");
				return steps[agentTurn++] ?? say("Nothing more.");
			});
			const config = join(sandbox.codexHome, "config.toml");
			await writeFile(config, `features.multi_agent_v2 = true\n${await readFile(config, "utf8")}`);

			const { result } = await run("Do both items; hand item 1 to a subagent.");

			const subagent = server.mainRequests().filter(isSubagentRequest);
			expect(subagent.length).toBeGreaterThan(0);
			expect(subagent.some((request) => JSON.stringify(request.body).includes(NUDGE))).toBe(false);
			expect(agentTurn).toBe(steps.length);
			expect(nudges(server)).toBe(0);
			expect(result).toMatchObject({ turns: 1, decisions: ["complete:complete"] });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan given to the driver: a failing verify command's output reaches the model, the fix completes it",
		async () => {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			const server = await serve([
				shell("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				shell("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			const { result } = await run("Roll the plan.", "plan.md");

			expect(server.exhaustedCount()).toBe(0);
			const requests = server.mainRequests();
			expect(requests).toHaveLength(4);
			expect(nudges(server)).toBe(1);
			expect(lastUserText(requests[2] as RecordedRequest)).toContain(VERIFY_FAILURE);
			expect(result).toMatchObject({ turns: 2, stopped: "decided" });
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops at once on the program's AbortSignal, and remembers the abort",
		async () => {
			const server = await serve([plan(0, 3), shell("sleep 30")], { whenExhausted: say("After the sleep.") });
			const running = start(["Do the three items."]);
			await waitFor(() => (server.mainRequests().length >= 2 ? true : undefined), 90_000);

			running.signal("SIGINT");
			const done = await running.done;

			expect(done.timedOut, done.stderr).toBe(false);
			expect(done.lines.at(-1)).toMatchObject({ stopped: "aborted", turns: 1, decisions: [] });
			expect(nudges(server)).toBe(0);
			expect((await decisions()).map((record) => `${record.kind}:${record.reason}`)).toContain("event:user-aborted");
			expect(await boulderOk("why")).toMatch(/abort|interrupt/i);
		},
		TEST_TIMEOUT_MS,
	);
});
