/**
 * Resume context with the real Claude Code: a session that stopped with its
 * plan unfinished is resumed (`claude -p --resume`); its SessionStart hook
 * adds context naming the plan, the progress and the open items, and the
 * model's first request carries it. It is no nudge: the episode's one
 * automatic turn is still there for the resumed run. After `/compact` the
 * same context (from SessionStart `compact`) reaches the model's next
 * request. A paused work tells nobody anything.
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	type ServerOptions,
	startAnthropicServer,
	stringsIn,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { expectContextFirst, RESUME_FILES } from "./support/resume.js";
import { CLAUDE_HOOK, CONTEXT, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";

const TEST_TIMEOUT_MS = 180_000;
const RUN_TIMEOUT_MS = 90_000;
const TODO_TOOLS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
	await writeProjectFiles(sandbox.project, RESUME_FILES);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario, options: ServerOptions = {}): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario, options);
	servers.push(server);
	return server;
}

async function claude(server: AnthropicServer, prompt: string, resume?: string) {
	const run = await runClaude(sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		env: TODO_TOOLS_OFF,
		...(resume ? { resume } : {}),
	});
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

function nudges(server: AnthropicServer): number {
	return agentRequests(server).filter((request) => lastUserText(request).includes(NUDGE)).length;
}

/** The resume context as the model received it in this request, or undefined. */
function contextIn(request: RecordedRequest | undefined): string | undefined {
	return stringsIn(request?.body ?? null).find((text) => text.includes(CONTEXT));
}

const say = (text: string): ReplyStep => ({ text });
const tick = (item: string): ReplyStep => ({
	toolUses: [
		{
			name: "Bash",
			input: { command: `sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`, description: "tick" },
		},
	],
});

describe("resume context with the real Claude Code", () => {
	it(
		"tells a resumed session where its plan stands, without a nudge and without spending its budget",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([tick("A"), say("Item A is done."), say("Pausing here.")]);
			const run = await claude(first, "Work through the plan.");
			expect(nudges(first)).toBe(1);
			expect(agentRequests(first).some((request) => contextIn(request) !== undefined)).toBe(false);
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item B."), say("Resting.")], {
				whenExhausted: say("Still resting."),
			});
			const resumed = await claude(second, "Where were we?", run.sessionId);
			expect(resumed.sessionId).toBe(run.sessionId);

			const [firstRequest] = agentRequests(second);
			const context = contextIn(firstRequest);
			expect(context).toBeDefined();
			expect(context).toContain('1 of 3 done, 2 open in the plan "Greetings" (PLAN.md)');
			expect(context).toContain("- Item B: write the farewell\n- Item C: write the thanks");
			expect(context).toContain("Next: Item B: write the farewell");
			// The user's own prompt is the turn; the context rides along, it is no nudge.
			expect(lastUserText(firstRequest as RecordedRequest)).toContain("Where were we?");
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(nudges(second)).toBe(1);

			expectContextFirst((await decisions()).slice(before));
			expect(await boulderOk("why")).toMatch(/gave context/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"tells a session whose conversation was compacted where its plan stands, and the model reads it next",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([tick("A"), say("Item A is done."), say("Pausing here.")]);
			const run = await claude(first, "Work through the plan.");
			// `/compact` in `-p` mode: the summary is a side call; SessionStart fires with `source: "compact"`.
			const second = await serve([], { whenExhausted: say("Resting.") });
			await claude(second, "/compact", run.sessionId);
			const compacted = (await decisions()).filter((record) => record.reason === "resume-context");
			expect(compacted.map((record) => String(record.detail))).toContainEqual(
				expect.stringContaining("had its conversation compacted with 1 of 3 done"),
			);
			expect(nudges(second)).toBe(0);

			const third = await serve([say("On to item B."), say("Resting.")], { whenExhausted: say("Still resting.") });
			await claude(third, "Go on.", run.sessionId);
			const texts = stringsIn(agentRequests(third)[0]?.body ?? null).filter((text) => text.includes(CONTEXT));
			expect(texts.join("\n")).toContain("had its conversation compacted");
			expect(nudges(third)).toBe(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"says nothing to a resumed session once the work is paused",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([say("Not now.")], { whenExhausted: say("Resting.") });
			const run = await claude(first, "Work through the plan.");
			await boulderOk("pause");

			const second = await serve([say("Hello again.")]);
			await claude(second, "Where were we?", run.sessionId);
			expect(agentRequests(second).some((request) => contextIn(request) !== undefined)).toBe(false);
			expect((await decisions()).some((record) => record.reason === "resume-context")).toBe(false);
		},
		TEST_TIMEOUT_MS,
	);
});
