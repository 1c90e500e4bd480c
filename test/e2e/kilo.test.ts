/**
 * boulder in the real Kilo Code (the pinned @kilocode/cli, `kilo serve`), the
 * OpenCode adapter hosted by OpenCode's fork, against the scripted
 * OpenAI-compatible model server on loopback. boulder is installed the way a
 * user does it (`boulder install kilo`, by package name, in the project's
 * kilo.json); the sessions are filed under the harness `kilo`.
 *
 * Kilo starts slowly offline, so the file shares ONE server: every test runs
 * in its own session, with the model's script and its recorded requests reset.
 * The plan test binds the worktree's work, so it runs last.
 *
 * Needs `npm run build`. Assertions are on what the model received and on
 * what boulder says; never on timings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type KiloServer, requireKiloBuild, startKilo } from "./support/kilo-run.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { NUDGE, readDecisionLog, waitOutSilence, writeProjectFiles } from "./support/suite.js";
import { statusesAt, opencodeTodoWrite as todoWrite } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const START_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = 240_000;
const WAIT_MS = 150_000;

let model: ScriptedModelServer;
let kilo: KiloServer;
/** Decision records before the running test: each test reads only its own. */
let logMark = 0;
const { boulderOk } = boulderIn(() => kilo.cliPlace);
const decisions = async () => (await readDecisionLog(kilo.projectDir, { missingIsEmpty: true })).slice(logMark);

beforeAll(async () => {
	requireKiloBuild();
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	kilo = await startKilo({
		modelServerUrl: model.baseUrl,
		files: { "boulder.config.json": JSON.stringify({ countdownMs: 300 }) },
	});
	console.log(`kilo serve answered after ${kilo.startMs} ms`);
}, START_TIMEOUT_MS);

afterAll(async () => {
	await kilo?.dispose();
	await model?.close();
});

beforeEach(async () => {
	logMark = (await readDecisionLog(kilo.projectDir, { missingIsEmpty: true })).length;
	model.clearRequests();
	return async () => {
		// boulder records every internal error in the decision log: none is expected in these runs.
		const errors = (await decisions()).filter((record) => record.reason === "error");
		expect(errors.map((record) => record.detail)).toEqual([]);
	};
});

/** The requests that a boulder nudge started: their very last message is the nudge. */
function nudges(): RecordedRequest[] {
	return model.mainRequests().filter(endsInNudge);
}

function progress(done: number, total: number): ModelStep {
	return todoWrite(statusesAt(done, total));
}

function say(text: string): ModelStep {
	return { text };
}

/** A list of `total` items worked through one per nudge, the agent stopping lazily after each. */
function onePerNudge(total: number): ModelStep[] {
	const steps: ModelStep[] = [progress(0, total), say("Started on the list.")];
	for (let done = 1; done <= total; done++) steps.push(progress(done, total), say(`Finished item ${done}.`));
	return steps;
}

/** Runs a scenario in a new session until the model has answered `requests` times and the session is quiet. */
async function run(
	steps: ModelStep[] | Parameters<ScriptedModelServer["setScenario"]>[0],
	prompt: string,
	requests: number,
) {
	model.setScenario(steps);
	const { sessionID } = await kilo.startTurn(prompt);
	await model.waitForMainRequests(requests, WAIT_MS);
	await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });
	return sessionID;
}

describe("boulder in the real Kilo Code", () => {
	it(
		"carries a lazy agent through all four todos, then lets it stop; its sessions are Kilo's",
		async () => {
			const session = await run(onePerNudge(4), "Work through the list.", 10);

			expect(model.overruns).toBe(0);
			expect(nudges()).toHaveLength(4);
			expect(model.lastUserText(nudges()[0])).toMatch(/0 of 4 done[\s\S]*Item A/);
			expect(await boulderOk("why", "--session", session)).toMatch(/complete/i);
			const records = await decisions();
			expect(new Set(records.map((record) => record.harness))).toEqual(new Set(["kilo"]));
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries a long list (ten items) to the end",
		async () => {
			const session = await run(onePerNudge(10), "Work through the long list.", 22);

			expect(model.overruns).toBe(0);
			expect(nudges()).toHaveLength(10);
			expect(await boulderOk("why", "--session", session)).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			const session = await run(
				[
					progress(0, 2),
					say("I will look into it."),
					say("Still thinking about it."),
					say("Still thinking."),
					say("Thinking some more."),
				],
				"Fix both items.",
				5,
			);

			expect(model.mainRequests()).toHaveLength(5);
			expect(nudges()).toHaveLength(3);
			expect(await boulderOk("why", "--session", session)).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops an agent that churns its list (rewording, status flips) within the stagnation limit",
		async () => {
			const churn = (word: string, first: string): ModelStep => ({
				toolCalls: [
					{
						name: "todowrite",
						args: {
							todos: [
								{ content: `Item A (${word})`, status: first, priority: "medium" },
								{ content: "Item B", status: "pending", priority: "medium" },
							],
						},
					},
				],
			});
			const session = await run(
				[
					churn("first look", "in_progress"),
					say("Reorganised the list."),
					churn("second look", "pending"),
					say("Reworded it."),
					churn("third look", "in_progress"),
					say("Reworded again."),
					churn("fourth look", "pending"),
					say("And again."),
				],
				"Do both items.",
				8,
			);

			expect(nudges()).toHaveLength(3);
			expect(model.mainRequests()).toHaveLength(8);
			expect(await boulderOk("why", "--session", session)).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge while the question tool waits for the user",
		async () => {
			const ask: ModelStep = {
				toolCalls: [
					{
						name: "question",
						args: {
							questions: [
								{
									question: "Which database should I use?",
									header: "Database",
									options: [
										{ label: "Postgres", description: "a server" },
										{ label: "SQLite", description: "a file" },
									],
								},
							],
						},
					},
				],
			};
			model.setScenario([progress(0, 2), ask]);
			const { sessionID, from } = await kilo.startTurn("Build the store.");
			await kilo.events.waitFor((e) => e.type === "question.asked", { from, timeoutMs: WAIT_MS });
			const requestsWhileAsking = model.mainRequests().length;
			// While the question waits, boulder decides nothing: silence is all there is to see.
			await waitOutSilence();
			await waitOutSilence();
			expect(model.mainRequests()).toHaveLength(requestsWhileAsking);
			expect(nudges()).toHaveLength(0);
			const pending = (await kilo.client.questions()).filter((question) => question.sessionID === sessionID);
			expect(pending).toHaveLength(1);
			// Dismiss it, so the session ends idle and the next test starts clean.
			await kilo.client.rejectQuestion(String(pending[0]?.id));
			await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a child session, and defers its parent while the child runs",
		async () => {
			const CHILD = "CHILD TASK: summarise the notes.";
			let parentStep = 0;
			const parentSteps = [progress(0, 2), say("Waiting for the helper."), progress(2, 2), say("Both items are done.")];
			const parent = await kilo.client.createSession();
			// The child answers only once boulder has deferred its idle parent (Kilo's turns are slow; a fixed delay raced them).
			const parentDeferred = async () => {
				const deadline = Date.now() + WAIT_MS / 2;
				while (Date.now() < deadline) {
					const records = await decisions();
					if (records.some((r) => r.session === parent.id && r.reason === "background-busy")) return;
					await new Promise((resolve) => setTimeout(resolve, 200));
				}
			};
			model.setScenario(async ({ request, server }) => {
				if (server.userTexts(request).some((text) => text.includes(CHILD))) {
					await parentDeferred();
					return { text: "Child: the notes are summarised." };
				}
				return parentSteps[parentStep++] ?? say("Nothing more.");
			});

			const child = await kilo.client.createSession({ parentID: parent.id });
			await kilo.client.promptAsync(child.id, CHILD);
			await kilo.events.waitFor((e) => e.type === "session.status" && e.properties.sessionID === child.id, {
				timeoutMs: WAIT_MS,
			});
			await kilo.startTurn("Do both items.", { sessionID: parent.id });
			await model.waitFor(() => parentStep >= 4, WAIT_MS);
			await kilo.waitForQuiet(parent.id, { quietMs: 2_500 });
			await kilo.waitForQuiet(child.id, { quietMs: 500 });

			const childRequests = model
				.mainRequests()
				.filter((request) => model.userTexts(request).some((text) => text.includes(CHILD)));
			expect(childRequests).toHaveLength(1);
			expect(childRequests.some((request) => model.userTexts(request).some((t) => t.includes(NUDGE)))).toBe(false);
			expect(nudges()).toHaveLength(1);
			const decided = (await decisions()).filter((r) => r.kind !== "event").map((r) => `${r.session}:${r.reason}`);
			expect(decided).toContain(`${child.id}:not-eligible`);
			const deferred = decided.indexOf(`${parent.id}:background-busy`);
			expect(deferred).toBeGreaterThan(-1);
			expect(decided.indexOf(`${parent.id}:continue`)).toBeGreaterThan(deferred);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"`boulder stop` holds for the session through the user's next turn; `/boulder` is answered without a model turn",
		async () => {
			model.setScenario([progress(0, 3), say("Should I start with item A or item B? Which do you prefer?")]);
			const { sessionID } = await kilo.startTurn("Do the three items.");
			await model.waitForMainRequests(2, WAIT_MS);
			await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });
			expect(nudges()).toHaveLength(0);

			expect(await boulderOk("stop", "--session", sessionID, "--harness", "kilo")).toMatch(/stop/i);
			model.setScenario([progress(1, 3), say("Item A is done.")]);
			await kilo.startTurn("Start with A, then do the rest.", { sessionID });
			await model.waitForMainRequests(4, WAIT_MS);
			await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });
			expect(nudges()).toHaveLength(0);
			expect(await boulderOk("why", "--session", sessionID)).toMatch(/boulder stop/);

			const before = model.requests.length;
			await expect(kilo.client.command(sessionID, "boulder", "status")).rejects.toThrow(/500/);
			expect(model.requests).toHaveLength(before);

			model.setScenario([progress(3, 3), say("All three are done.")]);
			await boulderOk("go", "--session", sessionID, "--harness", "kilo");
			await kilo.startTurn("Carry on.", { sessionID });
			await model.waitForMainRequests(6, WAIT_MS);
			await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });
			expect(await boulderOk("why", "--session", sessionID)).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			const bash = (command: string): ModelStep => ({
				toolCalls: [{ name: "bash", args: { command, description: "edit" } }],
			});
			await writeProjectFiles(kilo.projectDir, VERIFY_FILES);
			await boulderOk("start", "plan.md");

			await run(
				[
					bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
					say("Ticked the item."),
					bash("echo hello > greeting.txt"),
					say("Wrote the greeting; the check passes now."),
				],
				"Roll the plan.",
				4,
			);

			expect(model.overruns).toBe(0);
			expect(nudges()).toHaveLength(1);
			const nudge = model.lastUserText(nudges()[0]) ?? "";
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(kilo.projectDir);
		},
		TEST_TIMEOUT_MS,
	);
});
