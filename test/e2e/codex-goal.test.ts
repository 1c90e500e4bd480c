/**
 * boulder beside Codex's own goal mode (0.171), with the real binary: one
 * driver at a time.
 *
 * - Driven as the TUI drives it (`codex app-server`, `thread/goal/set`, what
 *   `/goal OBJECTIVE` sends): the goal starts a turn whenever the thread is
 *   idle. boulder reads the goal from the rollout and stands down, so the
 *   agent gets the goal's continuations only, and `boulder why` names it.
 * - Under `codex exec` a goal never continues (exec aborts the goal's turn as
 *   it shuts down), so boulder drives; the Interrupt Codex fires for that
 *   aborted turn is not the user's, and the next `codex exec resume` gets
 *   boulder's resume context.
 *
 * Needs `npm run build`.
 */
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { runCodexAppServer } from "./support/codex-app-server.js";
import { type CodexSandbox, createCodexSandbox, runCodex, trustHooks } from "./support/codex-run.js";
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
import { ONE_AUTO_TURN } from "./support/resume.js";
import { COMMAND_HOOK, CONTEXT, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";

const TEST_TIMEOUT_MS = 200_000;
const GOAL_TURN = '<codex_internal_context source="goal">';

const servers: ResponsesServer[] = [];
let sandbox: CodexSandbox;
const { boulderOk } = boulderIn(() => ({ cwd: sandbox.project, env: sandbox.env }));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createCodexSandbox();
	await boulderOk("install", "codex", "--user");
	await trustHooks(sandbox, join(sandbox.codexHome, "hooks.json"));
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario, options: ServerOptions = {}): Promise<ResponsesServer> {
	const server = await startResponsesServer(scenario, options);
	servers.push(server);
	return server;
}

function plan(done: number, total: number): ReplyStep {
	const steps = statusesAt(done, total).map((status, index) => ({ step: `Item ${index + 1}`, status }));
	return { calls: [{ name: "update_plan", args: { plan: steps } }] };
}

const say = (text: string): ReplyStep => ({ text });
const carries = (request: RecordedRequest | undefined, text: string) =>
	JSON.stringify(request?.body ?? null).includes(text);

describe("boulder beside Codex's goal", () => {
	it(
		"stands down while the goal drives (codex app-server, as the TUI's /goal): the goal's turns only, and `boulder why` names it",
		async () => {
			const server = await serve([
				plan(0, 2),
				say("Working on item 1."),
				plan(1, 2),
				say("Item 1 is done."),
				plan(2, 2),
				{ calls: [{ name: "update_goal", args: { status: "complete" } }] },
				say("Both items are done."),
			]);

			const run = await runCodexAppServer(sandbox, { goal: "Finish items 1 and 2", modelUrl: server.url });

			expect(run.timedOut, run.stderr).toBe(false);
			expect(run.runaway).toBe(false);
			expect(server.exhaustedCount()).toBe(0);
			expect(run.goalStatus).toBe("complete");
			const requests = server.mainRequests();
			expect(requests.filter((request) => carries(request, NUDGE))).toHaveLength(0);
			// The goal started every turn: its first and the two after the agent stopped.
			const goalTurns = requests.filter(
				(request) => lastUserText(request).includes(GOAL_TURN) && tailAfterLastUser(request).length === 0,
			);
			expect(goalTurns).toHaveLength(3);
			const stoodDown = (await decisions()).filter((record) => record.reason === "not-eligible");
			expect(stoodDown.length).toBeGreaterThanOrEqual(2);
			expect(stoodDown[0]?.detail).toContain(`Codex's goal "Finish items 1 and 2" drives this session`);
			expect(await boulderOk("why")).toContain("Codex's goal");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"drives under codex exec, where the goal cannot continue; the goal turn exec aborts is not the user's interrupt, so resume gets its context",
		async () => {
			await writeProjectFiles(sandbox.project, { "boulder.config.json": JSON.stringify(ONE_AUTO_TURN) });
			const first = await serve([
				{ calls: [{ name: "create_goal", args: { objective: "Finish items 1 to 3" } }] },
				plan(1, 3),
				say("Item 1 is done."),
				say("Pausing here."),
			]);
			const run = await runCodex(sandbox, { prompt: "/goal Finish items 1 to 3", modelUrl: first.url });
			expect(run.timedOut, run.stderr).toBe(false);
			// boulder drove (its one automatic turn): the goal could not.
			expect(first.mainRequests().filter((request) => lastUserText(request).includes(NUDGE))).toHaveLength(1);
			expect(first.mainRequests().some((request) => lastUserText(request).includes(GOAL_TURN))).toBe(false);

			const second = await serve([say("Picking up at item 2.")], { whenExhausted: say("Resting.") });
			await runCodex(sandbox, { prompt: "Where were we?", modelUrl: second.url, resume: run.sessionId as string });
			expect(carries(second.mainRequests()[0], CONTEXT)).toBe(true);
			const records = await decisions();
			expect(records.filter((record) => record.reason === "user-aborted")).toHaveLength(0);
			expect(records.filter((record) => record.reason === "resume-context")).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);
});
