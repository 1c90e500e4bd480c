/**
 * boulder beside Copilot CLI's own autopilot (`--autopilot`, 1.0.102), with
 * the real binary: one driver at a time. In autopilot Copilot answers an
 * agent that stops without calling `task_complete` with a prompt of its own.
 * boulder reads the mode from the event log and stands down, so the agent is
 * pushed by autopilot alone, and `boulder why` names it. (Before, the two
 * loops fed each other: boulder took autopilot's prompts for the user's and
 * began a new episode at each, past `--max-autopilot-continues`, until the
 * run was killed.)
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type CopilotSandbox, cliPlace, createSandbox, runCopilot } from "./support/copilot-run.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { COMMAND_HOOK, NUDGE, readDecisionLog, requireBuilt } from "./support/suite.js";

const TEST_TIMEOUT_MS = 240_000;
/** How autopilot's own continuation begins (1.0.102). */
const AUTOPILOT_PROMPT = "You have not yet marked the task as complete";

const servers: ScriptedModelServer[] = [];
let sandbox: CopilotSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "copilot", "--project");
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

const sql = (query: string): ModelStep => ({
	toolCalls: [{ name: "sql", args: { description: "Update todos", query } }],
});
const say = (text: string): ModelStep => ({ text });

describe("boulder beside Copilot's --autopilot", () => {
	it(
		"stands down while autopilot drives: the agent gets autopilot's prompts only, and `boulder why` names it",
		async () => {
			const server = await startModelServer({
				scenario: [
					sql("INSERT INTO todos (id, title) VALUES ('item-1', 'Item 1'), ('item-2', 'Item 2')"),
					say("I made a list."),
					sql("UPDATE todos SET status = 'done' WHERE id = 'item-1'"),
					say("Item 1 is done."),
					sql("UPDATE todos SET status = 'done' WHERE id = 'item-2'"),
					{ toolCalls: [{ name: "task_complete", args: { summary: "Both items are done." } }] },
					say("Both items are done."),
				],
				fallback: say("Nothing more is scripted."),
			});
			servers.push(server);

			const run = await runCopilot(sandbox, {
				prompt: "Finish items 1 and 2",
				baseUrl: server.baseUrl,
				args: ["--autopilot", "--max-autopilot-continues", "6"],
				timeoutMs: 150_000,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			expect(server.overruns).toBe(0);
			const last = server.mainRequests().at(-1);
			const users = server.userTexts(last);
			expect(users.filter((text) => text.includes(NUDGE))).toHaveLength(0);
			expect(users.filter((text) => text.includes(AUTOPILOT_PROMPT))).toHaveLength(2);
			const records = await readDecisionLog(sandbox.project);
			expect(records.filter((record) => record.reason === "user-turn")).toHaveLength(1);
			const stoodDown = records.filter((record) => record.reason === "not-eligible");
			expect(stoodDown.length).toBeGreaterThanOrEqual(2);
			expect(stoodDown[0]?.detail).toContain("Copilot's autopilot drives this session");
			expect(await boulderOk("why")).toContain("autopilot");
		},
		TEST_TIMEOUT_MS,
	);
});
