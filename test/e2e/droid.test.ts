/**
 * The Factory Droid adapter end to end: the real `droid` binary (the pinned
 * `@factory/cli`), in the JSON-RPC session mode Factory's SDK drives, against
 * the scripted OpenAI-compatible model server (a BYOK custom model, no
 * login), with boulder installed the way a user installs it (`boulder install
 * droid --project`, the real CLI; the portable hooks find the project's
 * boulder-agent) and explained the way a user asks (`boulder why`).
 * Assertions are on what the model received and on what boulder says; never
 * on timings.
 *
 * Droid has no cap on Stop-hook continuations: boulder's guards are the only
 * bound. Droid adds its own end-of-turn reminder while its TodoWrite list has
 * open items (once per user message); the scenarios answer it as the agent
 * would (`droidScenario`), and count only boulder's nudges.
 *
 * Not covered here: a Droid subagent (the Task tool) cannot run offline — it
 * goes through Factory's daemon, which wants a logged-in user — so SubagentStop
 * is covered by the adapter's hook tests with its documented input instead.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import {
	cliPlace,
	createDroidSandbox,
	type DroidRunResult,
	type DroidSandbox,
	droidExecute,
	droidScenario,
	droidTodoWrite,
	endsInDroidReminder,
	runDroid,
} from "./support/droid-run.js";
import { endsInNudge } from "./support/nudges.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { COMMAND_HOOK, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 420_000;

const servers: ScriptedModelServer[] = [];
let sandbox: DroidSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(COMMAND_HOOK));

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox?.dispose();
});

/** A sandbox with boulder installed at `scope`. */
async function setUp(scope: "--project" | "--user" = "--project", git = true): Promise<void> {
	sandbox = await createDroidSandbox({ git });
	await boulderOk("install", "droid", scope);
}

async function serve(steps: readonly ModelStep[]): Promise<ScriptedModelServer> {
	const server = await startModelServer({ scenario: droidScenario(steps) });
	servers.push(server);
	return server;
}

async function droid(server: ScriptedModelServer, prompt: string, sessionId?: string): Promise<DroidRunResult> {
	const run = await runDroid(sandbox, { prompt, baseUrl: server.baseUrl, sessionId, timeoutMs: RUN_TIMEOUT_MS });
	expect(run.timedOut, `${run.stderr}\n${server.describe()}`).toBe(false);
	expect(run.permissionRequests).toEqual([]);
	return run;
}

/** Requests a boulder nudge started: the nudge is their last message. */
function nudges(server: ScriptedModelServer): number {
	return server.mainRequests().filter(endsInNudge).length;
}

/** The agent's requests that were not Droid's own open-todo reminder. */
function stepsUsed(server: ScriptedModelServer): number {
	return server.mainRequests().filter((request) => !endsInDroidReminder(request)).length;
}

function progress(done: number, total: number): ModelStep {
	return droidTodoWrite(statusesAt(done, total));
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

describe("Factory Droid, real binary", () => {
	it(
		"carries a lazy agent through its TodoWrite list to the end",
		async () => {
			await setUp();
			const steps = onePerNudge(3);
			const server = await serve(steps);

			const run = await droid(server, "Work through the list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server)).toBe(steps.length);
			expect(nudges(server)).toBe(3);
			const first = server.mainRequests().find(endsInNudge);
			expect(server.lastUserText(first)).toMatch(/0 of 3 done[\s\S]*Item 1/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"finishes a list of twelve, one item per nudge (Droid has no continuation cap to lift)",
		async () => {
			await setUp();
			const steps = onePerNudge(12);
			const server = await serve(steps);

			const run = await droid(server, "Work through the long list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server)).toBe(steps.length);
			expect(nudges(server)).toBe(12);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			await setUp();
			const server = await serve([
				progress(0, 2),
				say("I will look into it."),
				say("Still thinking about it."),
				say("Still thinking."),
				say("Thinking some more."),
			]);

			const run = await droid(server, "Fix both items.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server)).toBe(5);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops an agent that churns its list without finishing anything",
		async () => {
			await setUp();
			const churn = (word: string): ModelStep => ({
				toolCalls: [{ name: "TodoWrite", args: { todos: `1. [in_progress] Item 1 (${word})\n2. [pending] Item 2` } }],
			});
			const server = await serve([
				churn("first look"),
				say("Reorganised the list."),
				churn("second look"),
				say("Reworded it."),
				churn("third look"),
				say("Reworded again."),
				churn("fourth look"),
				say("And again."),
			]);

			const run = await droid(server, "Do both items.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge an agent that asked the user to choose",
		async () => {
			await setUp();
			const server = await serve([
				progress(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			const run = await droid(server, "Build the store.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server)).toBe(2);
			expect(nudges(server)).toBe(0);
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			await setUp();
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			await boulderOk("start", "plan.md");
			const server = await serve([
				droidExecute("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				droidExecute("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			const run = await droid(server, "Roll the plan.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server), JSON.stringify(server.requests.map((r) => server.toolResults(r)))).toBe(4);
			expect(nudges(server)).toBe(1);
			const nudge = server.lastUserText(server.mainRequests().find(endsInNudge)) ?? "";
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"`boulder stop` between turns holds when the session is continued; `boulder go` turns it back on",
		async () => {
			await setUp();
			const first = await serve([progress(0, 3), say("Should I start with item 1 or item 2? Which do you prefer?")]);
			const run = await droid(first, "Do the three items.");
			expect(nudges(first)).toBe(0);
			expect(run.sessionId).toBeDefined();

			expect(await boulderOk("stop")).toMatch(/Stopped/);
			const second = await serve([progress(1, 3), say("Item 1 is done.")]);
			await droid(second, "Start with 1, then do the rest.", run.sessionId);
			expect(stepsUsed(second)).toBe(2);
			expect(nudges(second)).toBe(0);
			expect(await boulderOk("why")).toMatch(/boulder stop/);

			await boulderOk("go");
			const third = await serve([say("Going on."), progress(2, 3), say("Item 2 is done.")]);
			await droid(third, "Go on.", run.sessionId);
			expect(nudges(third)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries a lazy agent to the end in a folder that is no git repository, with boulder installed for the user",
		async () => {
			await setUp("--user", false);
			const steps = onePerNudge(2);
			const server = await serve(steps);

			const run = await droid(server, "Work through the list.");

			expect(run.exitCode, run.stderr).toBe(0);
			expect(stepsUsed(server)).toBe(steps.length);
			expect(nudges(server)).toBe(2);
			expect(await boulderOk("why")).toMatch(/complete/i);
			expect(await readDecisionLog(sandbox.project, { missingIsEmpty: true })).toEqual([]);
		},
		TEST_TIMEOUT_MS,
	);
});
