/**
 * Resume context with the real Qwen Code: a session that stopped with its
 * plan unfinished is resumed (`qwen -p … --resume <id>`); its SessionStart
 * hook (`source: "resume"`) adds context naming the plan, the progress and
 * the open items, which Qwen Code appends to the system instruction, and
 * the model's first request carries it. It is no nudge: the resumed run's
 * one automatic turn is still there, and the decision log shows the context
 * before the user's turn.
 *
 * Needs `npm run build`.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import { cliPlace, createQwenSandbox, type QwenSandbox, runQwen } from "./support/qwen-run.js";
import { expectContextFirst, RESUME_FILES } from "./support/resume.js";
import { COMMAND_HOOK, CONTEXT, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";

const RUN_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 360_000;

const servers: ScriptedModelServer[] = [];
let sandbox: QwenSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createQwenSandbox();
	await boulderOk("install", "qwen", "--project");
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

async function qwen(server: ScriptedModelServer, prompt: string, args: string[]) {
	const run = await runQwen(sandbox, { prompt, baseUrl: server.baseUrl, args, timeoutMs: RUN_TIMEOUT_MS });
	expect(run.timedOut, `${run.stderr}\n${server.describe()}`).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

function systemText(request: RecordedRequest | undefined): string {
	return contentText(request?.body.messages?.find((message) => message.role === "system")?.content);
}

function nudges(server: ScriptedModelServer): number {
	return server.mainRequests().filter(endsInNudge).length;
}

const say = (text: string): ModelStep => ({ text });

describe("resume context with the real Qwen Code", () => {
	it(
		"tells a resumed session where its plan stands, in the system instruction, without a nudge of its own",
		async () => {
			await boulderOk("start", "PLAN.md");
			const session = randomUUID();
			const first = await serve([say("Not now."), say("Pausing here.")]);
			await qwen(first, "Work through the plan.", ["--session-id", session]);
			expect(nudges(first)).toBe(1);
			expect(first.mainRequests().some((request) => systemText(request).includes(CONTEXT))).toBe(false);
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item A."), say("Resting.")]);
			await qwen(second, "Where were we?", ["--resume", session]);

			const [firstRequest] = second.mainRequests();
			const system = systemText(firstRequest);
			expect(system).toContain(CONTEXT);
			expect(system).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
			expect(system).toContain(
				"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
			);
			expect(system).toContain("Next: Item A: write the greeting");
			// The user's own prompt is the turn; the context is no message of its own, and no nudge.
			expect(second.lastUserText(firstRequest)).toContain("Where were we?");
			expect(second.lastUserText(firstRequest)).not.toContain(CONTEXT);
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(nudges(second)).toBe(1);
			// Qwen Code keeps the context in the system instruction for the rest of the process.
			expect(second.mainRequests().every((request) => systemText(request).includes(CONTEXT))).toBe(true);

			expectContextFirst((await decisions()).slice(before));
			expect(await boulderOk("why")).toMatch(/gave context/);
		},
		TEST_TIMEOUT_MS,
	);
});
