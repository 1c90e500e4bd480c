/**
 * Resume context with the real Copilot CLI: a session that stopped with its
 * plan unfinished is resumed (`copilot -p … --resume=<id>`); its
 * sessionStart hook (`source: "resume"`) answers with `additionalContext`
 * naming the plan, the progress and the open items, which Copilot sends
 * first in the conversation, and the model's first request carries it. It
 * is no nudge: the resumed run's one automatic turn is still there, and the
 * decision log shows the context before the user's turn.
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type CopilotSandbox, cliPlace, createSandbox, readEventLogs, runCopilot } from "./support/copilot-run.js";
import { type ModelStep, type Scenario, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { expectContextFirst, RESUME_FILES } from "./support/resume.js";
import { COMMAND_HOOK, CONTEXT, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";

const TEST_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 120_000;

const servers: ScriptedModelServer[] = [];
let sandbox: CopilotSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "copilot", "--project");
	await writeProjectFiles(sandbox.project, RESUME_FILES);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario): Promise<ScriptedModelServer> {
	const server = await startModelServer({ scenario, fallback: { text: "Still resting." } });
	servers.push(server);
	return server;
}

async function copilot(server: ScriptedModelServer, prompt: string, args: string[] = []) {
	const run = await runCopilot(sandbox, { prompt, baseUrl: server.baseUrl, args, timeoutMs: RUN_TIMEOUT_MS });
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

const say = (text: string): ModelStep => ({ text });

describe("resume context with the real Copilot CLI", () => {
	it(
		"tells a resumed session where its plan stands, first in the conversation, without a nudge of its own",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([say("Not now."), say("Pausing here.")]);
			await copilot(first, "Work through the plan.");
			expect(first.countUserTurnsWith(NUDGE)).toBe(1);
			expect(first.reached(CONTEXT, { role: "user", mainOnly: true })).toBe(false);
			const [log] = await readEventLogs(sandbox);
			expect(log?.session).toBeTruthy();
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item A."), say("Resting.")]);
			await copilot(second, "Where were we?", [`--resume=${log?.session}`]);

			const texts = second.userTexts(second.mainRequests()[0]);
			const context = texts[0] ?? "";
			expect(context).toMatch(/^\[boulder · where the work stands/);
			expect(context).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
			expect(context).toContain(
				"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
			);
			expect(context).toContain("Next: Item A: write the greeting");
			// The earlier conversation follows it, and the user's own prompt is the turn.
			expect(texts.at(-1)).toContain("Where were we?");
			expect(texts.filter((text) => text.includes(CONTEXT))).toHaveLength(1);
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(second.countUserTurnsWith(NUDGE)).toBe(1);

			expectContextFirst((await decisions()).slice(before), { hooksRaceAtStart: true });
			expect(await boulderOk("why")).toMatch(/gave context/);
		},
		TEST_TIMEOUT_MS,
	);
});
