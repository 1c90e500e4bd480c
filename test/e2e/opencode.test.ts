import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import {
	type OpencodeServer,
	type PluginEntry,
	requireBuild,
	sharedOpencode,
	startOpencode,
} from "./support/opencode-run.js";
import { NUDGE, REPO, readDecisionLog, waitOutSilence, waitUntil } from "./support/suite.js";
import { statusesAt, opencodeTodoWrite as todoWrite } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const PLUGIN = join(REPO, "dist", "adapters", "opencode", "plugin.js");
const TEST_TIMEOUT_MS = 120_000;

// One server for the file; each test has its own project (and model server) in it.
const shared = sharedOpencode();
let model: ScriptedModelServer | undefined;
let oc: OpencodeServer | undefined;
const { boulderOk } = boulderIn(() => (oc as OpencodeServer).cliPlace);
const decisions = () => readDecisionLog((oc as OpencodeServer).projectDir, { missingIsEmpty: true });

beforeAll(requireBuild);

afterEach(async () => {
	const errors = oc ? (await decisions()).filter((record) => record.reason === "error") : [];
	await oc?.dispose();
	oc = undefined;
	await model?.close();
	model = undefined;
	// boulder records every internal error in the decision log: none is expected in these runs.
	expect(errors.map((record) => record.detail)).toEqual([]);
});

interface Setup {
	config?: Record<string, unknown>;
	plugins?: PluginEntry[];
	files?: Record<string, string>;
	opencode?: Record<string, unknown>;
	/** A server of its own: for a test that changes what the whole server sees (its HOME's global config). */
	ownServer?: boolean;
}

async function setUp(scenario: ModelStep[] | Parameters<ScriptedModelServer["setScenario"]>[0], setup: Setup = {}) {
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	model.setScenario(scenario);
	const project = {
		modelServerUrl: model.baseUrl,
		npmPackages: { "boulder-agent": REPO },
		plugins: setup.plugins ?? ["boulder-agent"],
		files: {
			"boulder.config.json": JSON.stringify({ countdownMs: 300, ...setup.config }),
			...setup.files,
		},
		...(setup.opencode ? { config: setup.opencode } : {}),
	};
	oc = await (setup.ownServer ? startOpencode(project) : shared.open(project));
	return { model, oc };
}

/** The requests that a boulder nudge started: their very last message is the nudge. */
function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter(endsInNudge);
}

/** `done` items completed, the next one in progress, the rest pending. */
function progress(done: number, total: number): ModelStep {
	return todoWrite(statusesAt(done, total));
}

function say(text: string): ModelStep {
	return { text };
}

describe("boulder with the real OpenCode", () => {
	it(
		"carries a lazy agent through all four todos (todowrite), then lets it stop",
		async () => {
			const { model, oc } = await setUp([
				progress(0, 4),
				progress(1, 4),
				say("Finished item A."),
				progress(2, 4),
				say("Finished item B."),
				progress(3, 4),
				say("Finished item C."),
				progress(4, 4),
				say("All four items are done."),
			]);

			const { sessionID } = await oc.startTurn("Work through the list.");
			await model.waitForMainRequests(9, 60_000);
			await oc.waitForSettled(sessionID);

			expect(model.overruns).toBe(0);
			expect(nudges(model)).toHaveLength(3);
			expect(model.lastUserText(nudges(model)[0])).toMatch(/1 of 4 done[\s\S]*Item B/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why (installed with `boulder install opencode`)",
		async () => {
			const { model, oc } = await setUp(
				[
					progress(0, 2),
					say("I will look into it."),
					say("Still thinking about it."),
					say("Still thinking."),
					say("Thinking some more."),
				],
				{ plugins: [], ownServer: true },
			);
			const installed = await boulderOk("install", "opencode", "--user");
			const file = /Installed boulder's OpenCode plugin in (.+)\.\n/.exec(installed)?.[1] ?? "";
			expect(file.startsWith(join(oc.homeDir, ".config", "opencode", "opencode.json"))).toBe(true);
			expect(await readFile(file, "utf8")).toContain(JSON.stringify(pathToFileURL(PLUGIN).href));
			await oc.restart();

			const { sessionID } = await oc.startTurn("Fix both items.");
			await model.waitForMainRequests(5, 60_000);
			await oc.waitForSettled(sessionID);

			expect(model.mainRequests()).toHaveLength(5);
			expect(nudges(model)).toHaveLength(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge while the question tool waits for the user; nudges once it is answered",
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
			const { model, oc } = await setUp([
				progress(0, 2),
				ask,
				say("Going with Postgres."),
				progress(2, 2),
				say("Done."),
			]);

			const { sessionID } = await oc.startTurn("Build the store.");
			const asked = await oc.events.waitFor((e) => e.type === "question.asked", { timeoutMs: 30_000 });
			const requestsWhileAsking = model.mainRequests().length;
			// While the question waits, boulder decides nothing and logs nothing: silence is all there is to see.
			await waitOutSilence();
			expect(model.mainRequests()).toHaveLength(requestsWhileAsking);
			expect(nudges(model)).toHaveLength(0);

			await oc.client.replyQuestion(String(asked.properties.id), [["Postgres"]]);
			await model.waitForMainRequests(5, 60_000);
			await oc.waitForSettled(sessionID);

			const all = model.mainRequests();
			const first = nudges(model)[0] as RecordedRequest;
			expect(nudges(model)).toHaveLength(1);
			expect(first.mainIndex).toBeGreaterThan(requestsWhileAsking - 1);
			expect(model.toolResults(all[2]).some((result) => result.content.includes("Postgres"))).toBe(true);
			expect(model.overruns).toBe(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"honours an abort mid-turn until the user writes again",
		async () => {
			const { model, oc } = await setUp([progress(0, 2), { text: "Working on it...", delayMs: 20_000 }]);

			const { sessionID } = await oc.startTurn("Do both items.");
			await model.waitForMainRequests(2, 30_000);
			await oc.client.abort(sessionID);
			await oc.waitForSettled(sessionID);

			expect(nudges(model)).toHaveLength(0);
			expect(await boulderOk("why")).toMatch(/the run was interrupted/);

			model.setScenario([say("Carrying on with item A."), progress(2, 2), say("Both done.")]);
			const mark = await oc.decisionMark();
			const next = await oc.startTurn("Carry on, please.", { sessionID });
			await model.waitFor((server) => nudges(server).length > 0, 30_000);
			await oc.waitForSettled(next.sessionID, { from: mark });

			const reasons = (await decisions()).map((record) => `${record.kind}:${record.reason}`);
			const aborted = reasons.indexOf("event:user-aborted");
			expect(aborted).toBeGreaterThan(-1);
			expect(reasons.slice(aborted)).toContain("skip:user-aborted");
			expect(reasons.indexOf("event:user-turn", aborted)).toBeGreaterThan(aborted);
			expect(nudges(model)).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"sends exactly one nudge for a turn that ends with two idle events, with the plugin loaded twice",
		async () => {
			// The second instance is boulder's plugin again, wrapped only to show that it loaded and saw the idles.
			const wrapper = [
				'import { appendFileSync } from "node:fs";',
				`import { BoulderPlugin } from ${JSON.stringify(pathToFileURL(PLUGIN).href)};`,
				"export const BoulderAgain = async (input, options) => {",
				'\tconst note = (line) => appendFileSync(input.directory + "/second-instance.log", line + "\\n");',
				'\tnote("loaded");',
				"\tconst hooks = await BoulderPlugin(input, options);",
				"\treturn { ...hooks, event: async (arg) => {",
				'\t\tif (arg.event.type === "session.idle" || arg.event.properties?.status?.type === "idle") note("idle");',
				"\t\treturn hooks.event(arg);",
				"\t} };",
				"};",
			].join("\n");
			const { model, oc } = await setUp([progress(0, 2), say("Started on item A."), progress(2, 2), say("All done.")], {
				plugins: ["boulder-agent", "./plugins/boulder-again.js"],
				files: { "plugins/boulder-again.js": wrapper },
			});

			const { sessionID, from } = await oc.startTurn("Do both items.");
			await model.waitForMainRequests(4, 60_000);
			await oc.waitForSettled(sessionID);
			// The second instance notes each idle as OpenCode hands it the event, maybe after boulder decided.
			const secondLog = join(oc.projectDir, "second-instance.log");
			const idleNotes = async () =>
				(await readFile(secondLog, "utf8").catch(() => "")).split("\n").filter((line) => line === "idle").length;
			await waitUntil(async () => (await idleNotes()) >= 4, "the second instance saw both turns' idles");

			const firstIdle = oc.events.events.slice(from).findIndex((e) => e.type === "session.idle");
			const idles = oc.events.events
				.slice(from, from + firstIdle + 1)
				.filter((e) => e.type === "session.idle" || (e.type === "session.status" && statusOf(e) === "idle"));
			expect(idles.map((e) => e.type)).toEqual(["session.status", "session.idle"]);
			const second = (await readFile(secondLog, "utf8")).split("\n");
			expect(second.filter((line) => line === "loaded")).toHaveLength(1);
			expect(second.filter((line) => line === "idle").length).toBeGreaterThanOrEqual(4);
			expect(nudges(model)).toHaveLength(1);
			expect(model.overruns).toBe(0);
			const injects = (await decisions()).filter((record) => record.kind === "inject");
			expect(injects).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"never nudges a child session, and defers its parent while the child runs",
		async () => {
			const CHILD = "CHILD TASK: summarise the notes.";
			let parentStep = 0;
			let parentID = "";
			const parentSteps = [progress(0, 2), say("Waiting for the helper."), progress(2, 2), say("Both items are done.")];
			const { model, oc } = await setUp(({ request, server }) => {
				if (server.userTexts(request).some((text) => text.includes(CHILD))) {
					// The child answers once boulder has deferred its parent: that, not a time, is what it waits for.
					return waitUntil(
						async () => (await decisions()).some((r) => r.session === parentID && r.reason === "background-busy"),
						"boulder defers the parent while its child runs",
					).then(() => ({ text: "Child: the notes are summarised." }));
				}
				return parentSteps[parentStep++] ?? say("Nothing more.");
			});

			const parent = await oc.client.createSession();
			parentID = parent.id;
			const child = await oc.client.createSession({ parentID: parent.id });
			await oc.client.promptAsync(child.id, CHILD);
			// Polled: the model server tells its waiters of a request once its answer is chosen, and the child's
			// answer waits for the parent's deferral.
			await waitUntil(() => model.reached(CHILD, { role: "user", mainOnly: true }), "the child's request");
			await oc.startTurn("Do both items.", { sessionID: parent.id });
			await model.waitFor(() => parentStep >= 4, 60_000);
			await oc.waitForSettled(parent.id);
			await oc.waitForSettled(child.id);

			const childRequests = model
				.mainRequests()
				.filter((request) => model.userTexts(request).some((text) => text.includes(CHILD)));
			expect(childRequests).toHaveLength(1);
			expect(childRequests.some((request) => model.userTexts(request).some((t) => t.includes(NUDGE)))).toBe(false);
			expect(nudges(model)).toHaveLength(1);
			const records = await decisions();
			const decided = records.filter((record) => record.kind !== "event").map((r) => `${r.session}:${r.reason}`);
			expect(decided).toContain(`${child.id}:not-eligible`);
			const deferred = decided.indexOf(`${parent.id}:background-busy`);
			expect(deferred).toBeGreaterThan(-1);
			expect(decided.indexOf(`${parent.id}:continue`)).toBeGreaterThan(deferred);
			expect(decided.indexOf(`${child.id}:not-eligible`)).toBeGreaterThan(deferred);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			const bash = (command: string): ModelStep => ({
				toolCalls: [{ name: "bash", args: { command, description: "edit" } }],
			});
			const { model, oc } = await setUp(
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

			const { sessionID } = await oc.startTurn("Roll the plan.");
			await model.waitForMainRequests(4, 60_000);
			await oc.waitForSettled(sessionID);

			expect(model.overruns).toBe(0);
			expect(nudges(model)).toHaveLength(1);
			const nudge = model.lastUserText(nudges(model)[0]) ?? "";
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(oc.projectDir);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"/boulder stop holds, also after OpenCode restarts, and is answered without a model turn; /boulder go resumes",
		async () => {
			const { model, oc } = await setUp([
				progress(0, 3),
				say("Should I start with item A or item B? Which do you prefer?"),
			]);

			const { sessionID } = await oc.startTurn("Do the three items.");
			await model.waitForMainRequests(2, 30_000);
			await oc.waitForSettled(sessionID);
			expect(nudges(model)).toHaveLength(0);

			const before = model.requests.length;
			await expect(oc.client.command(sessionID, "boulder", "stop")).rejects.toThrow(/500/);
			expect(model.requests).toHaveLength(before);
			const answers = (await oc.client.messages(sessionID))
				.flatMap((message) => message.parts)
				.filter((part) => part.type === "text" && part.text.includes("stopped for this session"));
			expect(answers).toEqual([expect.objectContaining({ ignored: true })]);

			model.setScenario([progress(1, 3), say("Item A is done.")]);
			let mark = await oc.decisionMark();
			let turn = await oc.startTurn("Start with A, then do the rest.", { sessionID });
			await model.waitForMainRequests(4, 30_000);
			await oc.waitForSettled(turn.sessionID, { from: mark });

			await oc.restart();
			model.setScenario([say("I will carry on later.")]);
			mark = await oc.decisionMark();
			turn = await oc.startTurn("Carry on.", { sessionID });
			await model.waitForMainRequests(5, 30_000);
			await oc.waitForSettled(turn.sessionID, { from: mark });

			expect(nudges(model)).toHaveLength(0);
			expect(await boulderOk("why", "--session", sessionID)).toMatch(/\/boulder stop/);
			expect(model.userTexts().join("\n")).not.toContain("stopped for this session");

			model.setScenario([progress(3, 3), say("All three are done.")]);
			mark = await oc.decisionMark();
			await expect(oc.client.command(sessionID, "boulder", "go")).rejects.toThrow(/500/);
			await model.waitFor((server) => nudges(server).length > 0, 30_000);
			await oc.waitForSettled(sessionID, { from: mark });
			expect(nudges(model)).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);
});

function statusOf(event: { properties: Record<string, unknown> }): string | undefined {
	return (event.properties.status as { type?: string } | undefined)?.type;
}
