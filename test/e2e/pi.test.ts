// boulder's pi extension in the real pinned pi (RPC mode, under the Node 22
// devDependency), against a scripted OpenAI-compatible model server. Every
// scenario counts the nudges the model actually received.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type Scenario,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { EXTENSION, type PiOptions, PiRpc, piUnavailable } from "./support/pi-run.js";
import { readDecisionLog, requireBuilt } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const TEST_TIMEOUT_MS = 150_000;
const unavailable = piUnavailable();

let model: ScriptedModelServer | undefined;
let pi: PiRpc | undefined;
const { boulderOk } = boulderIn(() => (pi as PiRpc).cliPlace);
const decisions = () => readDecisionLog((pi as PiRpc).projectDir, { missingIsEmpty: true });

afterEach(async () => {
	const errors = pi ? (await decisions()).filter((record) => record.reason === "error") : [];
	await pi?.dispose();
	pi = undefined;
	await model?.close();
	model = undefined;
	// boulder records every internal error in the decision log: none is expected in these runs.
	expect(errors.map((record) => record.detail)).toEqual([]);
});

async function setUp(scenario: Scenario, options: Partial<PiOptions> & { config?: Record<string, unknown> } = {}) {
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	model.setScenario(scenario);
	const { config, ...rest } = options;
	pi = await PiRpc.start({
		modelServerUrl: model.baseUrl,
		...rest,
		files: { ...(config ? { "boulder.config.json": JSON.stringify(config) } : {}), ...rest.files },
	});
	return { model, pi };
}

/** The requests that a boulder nudge started: their very last message is the nudge. */
function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter(endsInNudge);
}

/** `done` items completed, the next one in progress, the rest pending, written with boulder's todo_write. */
function progress(done: number, total: number): ModelStep {
	const todos = statusesAt(done, total).map((status, index) => ({
		content: `Item ${String.fromCharCode(65 + index)}`,
		status,
	}));
	return { toolCalls: [{ name: "todo_write", args: { todos } }] };
}

function say(text: string): ModelStep {
	return { text };
}

describe.skipIf(unavailable !== null)(
	unavailable ? `boulder with the real pi (skipped: ${unavailable})` : "boulder with the real pi",
	() => {
		beforeAll(() => requireBuilt(EXTENSION));

		it(
			"carries a lazy agent through its todo list (todo_write, todo_read), then lets it stop",
			async () => {
				const { model, pi } = await setUp([
					progress(0, 3),
					say("Started on item A."),
					{ toolCalls: [{ name: "todo_read", args: {} }] },
					progress(1, 3),
					say("Finished item A."),
					progress(3, 3),
					say("All three items are done."),
				]);

				await pi.promptAndSettle("Work through the list.");

				expect(model.overruns).toBe(0);
				expect(nudges(model)).toHaveLength(2);
				expect(model.lastUserText(nudges(model)[0])).toMatch(/0 of 3 done[\s\S]*Item A/);
				expect(model.toolResults().some((result) => result.content.includes("[in_progress] Item A"))).toBe(true);
				expect(model.toolNames()).toEqual(expect.arrayContaining(["todo_write", "todo_read", "todo_clear"]));
				expect(pi.notices()).toContain("boulder: continuing — 3 items left (/boulder stop turns it off)");
				expect(await boulderOk("why")).toMatch(/complete/i);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"finishes a long list, one nudge per item the agent stops at",
			async () => {
				const steps: ModelStep[] = [progress(0, 8)];
				for (let done = 1; done <= 8; done++) steps.push(say(`Finished item ${done}.`), progress(done, 8));
				steps.push(say("The whole list is done."));
				const { model, pi } = await setUp(steps);

				await pi.promptAndSettle("Do the eight items.");

				expect(model.overruns).toBe(0);
				expect(nudges(model)).toHaveLength(8);
				const records = await decisions();
				expect(records.filter((record) => record.kind === "inject")).toHaveLength(8);
				expect(records.at(-1)).toMatchObject({ kind: "complete" });
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"stops a stalled agent within the stagnation limit, and says why (installed with `boulder install pi --user`)",
			async () => {
				const { model, pi } = await setUp(
					[progress(0, 2), say("I will look into it."), say("Still thinking."), say("Thinking more."), say("Hmm.")],
					{ withExtension: false },
				);
				const installed = await boulderOk("install", "pi", "--user");
				expect(installed).toContain(`Installed boulder's pi extension in ${join(pi.agentDir, "settings.json")}`);
				const settings = JSON.parse(await readFile(join(pi.agentDir, "settings.json"), "utf8"));
				expect(settings.extensions).toEqual([
					"-builtin:mcp",
					"-builtin:llama.cpp",
					"-builtin:codemode",
					"-builtin:tool-search",
					EXTENSION,
				]);
				await pi.restart();

				await pi.promptAndSettle("Fix both items.");

				// The default stagnation limit is 3: three nudges without progress, then boulder lets pi settle.
				expect(nudges(model)).toHaveLength(3);
				expect(model.mainRequests()).toHaveLength(5);
				expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
				expect(await boulderOk("doctor")).toMatch(/extension listed in .*settings\.json \(user/);
				expect((await boulderOk("uninstall", "pi", "--user")).trim()).toMatch(/Removed boulder's pi extension/);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"does not answer the agent's question for the user; continues once the user answers",
			async () => {
				const { model, pi } = await setUp([
					progress(0, 2),
					say("Should I store the data in Postgres or SQLite? Which do you prefer?"),
					progress(1, 2),
					say("Item A is done with SQLite."),
					progress(2, 2),
					say("Both done."),
				]);

				await pi.promptAndSettle("Build the store.");
				expect(nudges(model)).toHaveLength(0);
				expect((await decisions()).at(-1)).toMatchObject({ reason: "awaiting-user" });

				await pi.promptAndSettle("SQLite, please.");
				expect(nudges(model)).toHaveLength(1);
				expect(model.overruns).toBe(0);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"honours an abort (RPC abort) until the user writes again",
			async () => {
				const { model, pi } = await setUp([progress(0, 2), { text: "Working on it...", delayMs: 30_000 }]);

				const from = pi.records.length;
				await pi.prompt("Do both items.");
				await model.waitForMainRequests(2, 60_000);
				await pi.send({ type: "abort" });
				const settled = await pi.waitFor((record) => record.type === "agent_settled", 30_000, from);
				expect(settled.aborted).toBe(true);
				expect(nudges(model)).toHaveLength(0);
				expect(await boulderOk("why")).toMatch(/the run was interrupted/);

				model.setScenario([say("Carrying on with item A."), progress(2, 2), say("Both done.")]);
				await pi.promptAndSettle("Carry on, please.");

				const reasons = (await decisions()).map((record) => `${record.kind}:${record.reason}`);
				const aborted = reasons.indexOf("event:user-aborted");
				expect(aborted).toBeGreaterThan(-1);
				expect(reasons.indexOf("event:user-turn", aborted)).toBeGreaterThan(aborted);
				expect(nudges(model)).toHaveLength(1);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
			async () => {
				const bash = (command: string): ModelStep => ({ toolCalls: [{ name: "bash", args: { command } }] });
				const { model, pi } = await setUp(
					[
						bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
						say("Ticked the item."),
						bash("echo hello > greeting.txt"),
						say("Wrote the greeting; the check passes now."),
					],
					{
						files: VERIFY_FILES,
					},
				);
				await boulderOk("start", "plan.md");

				await pi.promptAndSettle("Roll the plan.");

				expect(model.overruns).toBe(0);
				expect(nudges(model)).toHaveLength(1);
				const nudge = model.lastUserText(nudges(model)[0]) ?? "";
				expect(nudge).toContain(VERIFY_FAILURE);
				expect(nudge).toContain("node check.mjs");
				await expectVerifiedWork(pi.projectDir);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"/boulder stop holds after pi restarts and is answered without a model turn; `boulder stop` holds too; /boulder go resumes (installed with `boulder install pi --project`)",
			async () => {
				const session = "0f5a7c1e-2b3d-4e5f-8a9b-0c1d2e3f4a5b";
				const { model, pi } = await setUp(
					[progress(0, 3), say("Should I start with item A or B? Which do you prefer?")],
					{ sessionId: session, withExtension: false, approve: true },
				);
				const installed = await boulderOk("install", "pi", "--project");
				expect(installed).toContain(
					`Installed boulder's pi extension in ${join(pi.projectDir, ".pi", "settings.json")}`,
				);
				expect(installed).toMatch(/only in a project it trusts/);
				await pi.restart();
				await pi.promptAndSettle("Do the three items.");
				expect(nudges(model)).toHaveLength(0);

				const before = model.requests.length;
				const answered = await pi.prompt("/boulder stop");
				expect(answered.data).toMatchObject({ disposition: "handled" });
				await pi.waitFor(
					(record) => record.method === "notify" && String(record.message).includes("stopped for this session"),
				);
				expect(model.requests).toHaveLength(before);

				await pi.restart();
				model.setScenario([progress(1, 3), say("Item A is done.")]);
				await pi.promptAndSettle("Start with A, then do the rest.");
				expect(nudges(model)).toHaveLength(0);
				expect(await boulderOk("why", "--session", session)).toMatch(/\/boulder stop/);

				model.setScenario([progress(3, 3), say("All three are done.")]);
				const from = pi.records.length;
				await pi.prompt("/boulder go");
				await pi.waitFor((record) => record.type === "agent_settled", 60_000, from);
				expect(nudges(model)).toHaveLength(1);

				await boulderOk("stop");
				model.setScenario([progress(0, 2), say("Started on a new list.")]);
				await pi.promptAndSettle("Now two more items.");
				expect(nudges(model)).toHaveLength(1);
				expect(await boulderOk("why")).toMatch(/boulder stop/);
			},
			TEST_TIMEOUT_MS,
		);
	},
);
