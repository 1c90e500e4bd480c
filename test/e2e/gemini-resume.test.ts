/**
 * Resume context with the real Gemini CLI: a session that stopped with its
 * plan unfinished is resumed (`gemini -p … --resume <id>`); its SessionStart
 * hook (`source: "resume"`) adds context naming the plan, the progress and
 * the open items, which Gemini CLI puts before the prompt, and the model's
 * first request carries it. It is no nudge: the resumed run's one automatic
 * turn is still there, and the decision log shows the context before the
 * user's turn.
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { cliPlace, createSandbox, type GeminiSandbox, runGemini } from "./support/gemini-run.js";
import {
	GeminiServer,
	type GeminiServerOptions,
	type GeminiStep,
	lastPromptText,
	type Scenario,
	textsIn,
} from "./support/gemini-server.js";
import { expectContextFirst, RESUME_FILES } from "./support/resume.js";
import { COMMAND_HOOK, CONTEXT, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";

const TEST_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 120_000;

const servers: GeminiServer[] = [];
let sandbox: GeminiSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "gemini", "--project");
	await writeProjectFiles(sandbox.project, RESUME_FILES);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario, options: GeminiServerOptions = {}): Promise<GeminiServer> {
	const server = await GeminiServer.start(scenario, options);
	servers.push(server);
	return server;
}

async function gemini(server: GeminiServer, prompt: string, resume?: string) {
	const run = await runGemini(sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		...(resume ? { resume } : {}),
	});
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

function nudges(server: GeminiServer): number {
	return server.mainRequests().filter((request) => lastPromptText(request).includes(NUDGE)).length;
}

const say = (text: string): GeminiStep => ({ text });

describe("resume context with the real Gemini CLI", () => {
	it(
		"tells a resumed session where its plan stands, before the user's prompt, without a nudge of its own",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([say("Not now."), say("Pausing here.")]);
			const run = await gemini(first, "Work through the plan.");
			expect(nudges(first)).toBe(1);
			expect(first.mainRequests().some((request) => textsIn(request).some((text) => text.includes(CONTEXT)))).toBe(
				false,
			);
			const session = run.json?.session_id;
			expect(session).toBeTruthy();
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item A."), say("Resting.")], {
				whenExhausted: say("Still resting."),
			});
			await gemini(second, "Where were we?", session);

			const [firstRequest] = second.mainRequests();
			const prompt = lastPromptText(firstRequest as NonNullable<typeof firstRequest>);
			expect(prompt).toContain(CONTEXT);
			expect(prompt).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
			expect(prompt).toContain(
				"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
			);
			expect(prompt).toContain("Next: Item A: write the greeting");
			// The user's own prompt is the turn; the context rides before it, and is no nudge.
			expect(prompt).toMatch(/<\/hook_context>\s*Where were we\?$/);
			expect(prompt).not.toContain(NUDGE);
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(nudges(second)).toBe(1);

			expectContextFirst((await decisions()).slice(before));
			expect(await boulderOk("why")).toMatch(/gave context/);
		},
		TEST_TIMEOUT_MS,
	);
});
