/**
 * The Copilot CLI adapter end to end: the real `copilot` binary, headless
 * and offline, against the scripted OpenAI-compatible model server, with
 * boulder installed the way a user installs it (`boulder install copilot
 * --project`, the real CLI: the portable hooks find this copy through the
 * user's link) and explained the way a user asks (`boulder why`). The agent
 * keeps its list the way Copilot's agent does: rows of the `todos` table,
 * written with the `sql` tool. Assertions are on what the model received and
 * on what boulder says; never on timings.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import {
	type CopilotRunResult,
	type CopilotSandbox,
	cliPlace,
	createSandbox,
	readEventLogs,
	runCopilot,
} from "./support/copilot-run.js";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type Scenario,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { COMMAND_HOOK, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const TEST_TIMEOUT_MS = 240_000;
/** What the subagent of the subagent test is asked: how its requests are told from the main agent's. */
const SUBAGENT_PROMPT = "Look around the project for item A.";

const servers: ScriptedModelServer[] = [];
let sandbox: CopilotSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "copilot", "--project");
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario, fallback?: ModelStep): Promise<ScriptedModelServer> {
	const server = await startModelServer({ scenario, ...(fallback ? { fallback } : {}) });
	servers.push(server);
	return server;
}

async function copilot(server: ScriptedModelServer, prompt: string, args: string[] = []): Promise<CopilotRunResult> {
	const run = await runCopilot(sandbox, { prompt, baseUrl: server.baseUrl, args });
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

function sql(query: string): ModelStep {
	return { toolCalls: [{ name: "sql", args: { description: "Update todos", query } }] };
}

function bash(command: string): ModelStep {
	return { toolCalls: [{ name: "bash", args: { command, description: "Run a command" } }] };
}

function say(text: string): ModelStep {
	return { text };
}

/** The agent makes a list of `count` items, `item-1` … (its todos table). */
function list(count: number): ModelStep {
	const rows = Array.from({ length: count }, (_, index) => `('item-${index + 1}', 'Item ${index + 1}')`);
	return sql(`INSERT INTO todos (id, title) VALUES ${rows.join(", ")}`);
}

function finish(item: number): ModelStep {
	return sql(`UPDATE todos SET status = 'done' WHERE id = 'item-${item}'`);
}

function isSubagentRequest(request: RecordedRequest): boolean {
	return (request.body.messages ?? []).some(
		(message) => message.role === "user" && contentText(message.content).includes(SUBAGENT_PROMPT),
	);
}

/** The main agent's requests (not a subagent's). */
function agentRequests(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

/**
 * How many nudges reached the model: the user messages carrying one in the
 * main agent's last request, which holds the whole conversation (a nudge's
 * turn may span several requests, each ending with tool results).
 */
function nudges(server: ScriptedModelServer): number {
	const last = agentRequests(server).at(-1);
	return server.userTexts(last).filter((text) => text.includes(NUDGE)).length;
}

describe("boulder with the real Copilot CLI", () => {
	it(
		"carries a lazy agent through its four todos (the todos table), then lets it stop",
		async () => {
			const server = await serve([
				list(4),
				say("I made a list."),
				finish(1),
				say("Finished item 1."),
				finish(2),
				say("Finished item 2."),
				finish(3),
				say("Finished item 3."),
				finish(4),
				say("All four items are done."),
			]);

			await copilot(server, "Work through the list.");

			expect(server.overruns).toBe(0);
			expect(nudges(server)).toBe(4);
			const first = agentRequests(server).find((request) => server.lastUserText(request)?.includes(NUDGE));
			expect(server.lastUserText(first)).toMatch(/0 of 4 done[\s\S]*Item 1/);
			expect(await boulderOk("why")).toMatch(/completed: every item is done/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries a list of twelve to Copilot's cap of eight blocks in a row, says so, and finishes on the next prompt",
		async () => {
			const steps: ModelStep[] = [list(12), say("I made a list.")];
			for (let item = 1; item <= 12; item++) steps.push(finish(item), say(`Finished item ${item}.`));
			const server = await serve(steps);

			await copilot(server, "Work through all twelve items.");

			// Copilot delivers 8 blocks in a row and no more, tool calls or not: boulder does not print a ninth.
			expect(nudges(server)).toBe(8);
			expect(await boulderOk("why")).toMatch(
				/the harness stopped it: Copilot CLI lets at most 8 continuation\(s\) in a row through .*no setting raises it/,
			);
			// Every nudge the log calls sent reached the model: 8 lines, 8 received.
			expect((await decisions()).filter((line) => line.reason === "continue")).toHaveLength(8);
			expect((await decisions()).filter((line) => line.reason === "delivery-failed")).toEqual([]);
			const [log] = await readEventLogs(sandbox);
			await copilot(server, "Carry on with the list.", [`--resume=${log?.session}`]);

			expect(server.overruns).toBe(0);
			expect(nudges(server)).toBe(11);
			expect(await boulderOk("why")).toMatch(/completed: every item is done/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, though Copilot echoes each nudge as a prompt",
		async () => {
			// Copilot fires userPromptSubmitted for every nudge: were it a user turn, the episode would restart
			// each time and only Copilot's own cap (8 blocks) would stop the agent.
			const server = await serve([list(2), say("I will look into it.")], say("Still thinking about it."));

			await copilot(server, "Fix both items.");

			expect(nudges(server)).toBe(3);
			expect(agentRequests(server)).toHaveLength(5);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
			expect((await decisions()).filter((line) => line.reason === "user-turn")).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a churning agent (statuses flipped, items renamed) within the stagnation limit",
		async () => {
			let turn = 0;
			const churn = [
				sql("UPDATE todos SET status = 'in_progress' WHERE id = 'item-1'"),
				sql("UPDATE todos SET title = 'Item one, reworded' WHERE id = 'item-1'"),
				sql("UPDATE todos SET status = 'pending' WHERE id = 'item-1'"),
				sql("UPDATE todos SET title = 'Item 1' WHERE id = 'item-1'"),
			];
			const server = await serve(({ index }) => {
				if (index === 0) return list(2);
				if (index % 2 === 1) return say("Made some changes.");
				return churn[turn++ % churn.length] as ModelStep;
			});

			await copilot(server, "Fix both items.");

			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge an agent that asked the user to choose",
		async () => {
			const server = await serve([
				list(3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			await copilot(server, "Build the store.");

			expect(agentRequests(server)).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a subagent; its parent is nudged for its own list only",
		async () => {
			let agentTurn = 0;
			const steps = [
				list(2),
				{
					toolCalls: [
						{
							name: "task",
							args: { name: "finder", description: "Find item A", prompt: SUBAGENT_PROMPT, agent_type: "explore" },
						},
					],
				},
				finish(1),
				say("Item 1 is done."),
				finish(2),
				say("Both items are done."),
			];
			const server = await serve(({ request }) => {
				if (isSubagentRequest(request)) return say("Subagent: item A is in the project.");
				return steps[agentTurn++] ?? say("Nothing more.");
			});

			await copilot(server, "Do both items; send a subagent to look for item A.");

			const subagent = server.mainRequests().filter(isSubagentRequest);
			expect(subagent).toHaveLength(1);
			expect(subagent.some((request) => server.userTexts(request).some((text) => text.includes(NUDGE)))).toBe(false);
			expect(agentTurn).toBe(steps.length);
			expect(nudges(server)).toBe(1);
			const skipped = (await decisions()).filter((line) => line.kind === "skip" && line.reason === "not-eligible");
			expect(skipped.length).toBeGreaterThanOrEqual(1);
			expect(skipped.every((line) => line.scope === null && line.harness === "copilot")).toBe(true);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			await boulderOk("start", "plan.md");
			const server = await serve([
				bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				bash("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			await copilot(server, "Roll the plan.");

			expect(server.overruns).toBe(0);
			expect(nudges(server)).toBe(1);
			const nudge = server.userTexts(agentRequests(server).at(-1)).find((text) => text.includes(NUDGE)) ?? "";
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
			const logs = await readEventLogs(sandbox);
			expect(logs.flatMap((log) => log.lines).some((line) => line.type === "session.usage_record")).toBe(true);
		},
		TEST_TIMEOUT_MS,
	);
});
