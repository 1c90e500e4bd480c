/**
 * boulder beside Claude Code's own `/goal` (2.1.332), with the real binary:
 * one driver at a time. `claude -p "/goal CONDITION"` sets a session-scoped
 * prompt-type Stop hook whose judge (a side call to the scripted server,
 * asked for `{ok, reason}`) continues the agent while the condition is
 * unmet. boulder, installed the usual way, reads the goal from the transcript
 * and stands down while it is active, so the agent is pushed by the goal's
 * feedback alone, and `boulder why` names the goal.
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type MessagesBody,
	type RecordedRequest,
	type ReplyStep,
	startAnthropicServer,
	stringsIn,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { CLAUDE_HOOK, NUDGE, readDecisionLog, requireBuilt } from "./support/suite.js";
import { claudeTodoWrite, statusesAt } from "./support/todo-steps.js";

const TEST_TIMEOUT_MS = 150_000;

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

const say = (text: string): ReplyStep => ({ text });

/** The goal's judge: a side call that demands a JSON object (`output_config.format`). */
function isJudge(request: RecordedRequest): boolean {
	const body = request.body as MessagesBody;
	const config = body.output_config as { format?: { type?: string } } | undefined;
	return config?.format?.type === "json_schema";
}

describe("boulder beside Claude Code's /goal", () => {
	it(
		"stands down while the goal drives: the agent gets the goal's feedback only, and `boulder why` names the goal",
		async () => {
			let checks = 0;
			const verdicts = [
				{ ok: false, reason: "item B is not done" },
				{ ok: false, reason: "item B is not done" },
				{ ok: true, reason: "both items are done" },
			];
			const server = await startAnthropicServer(
				[
					claudeTodoWrite(statusesAt(0, 2)),
					say("Working on item A."),
					claudeTodoWrite(statusesAt(1, 2)),
					say("Item A is done."),
					claudeTodoWrite(statusesAt(2, 2)),
					say("Both items are done."),
				],
				{
					sideReply: (request) =>
						isJudge(request) ? { text: JSON.stringify(verdicts[checks++] ?? verdicts.at(-1)) } : { text: "Scripted" },
				},
			);
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "/goal Finish items A and B",
				baseUrl: server.url,
				env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
				timeoutMs: 90_000,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			const agent = server.mainRequests().filter((request) => !isSubagentRequest(request));
			expect(agent).toHaveLength(6);
			expect(checks).toBe(3);
			// Every continuation carried the goal's feedback, none boulder's nudge.
			expect(agent.filter((request) => lastUserText(request).includes(NUDGE))).toHaveLength(0);
			expect(agent.some((request) => stringsIn(request.body).some((text) => text.includes(NUDGE)))).toBe(false);
			expect(agent.filter((request) => lastUserText(request).includes("item B is not done")).length).toBe(2);
			const records = await readDecisionLog(sandbox.project);
			const stoodDown = records.filter((record) => record.reason === "not-eligible");
			expect(stoodDown.length).toBeGreaterThanOrEqual(2);
			expect(stoodDown[0]?.detail).toContain(`Claude Code's /goal "Finish items A and B" drives this session`);
			expect(await boulderOk("why")).toContain("/goal");
		},
		TEST_TIMEOUT_MS,
	);
});
