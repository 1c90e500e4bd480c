/**
 * The Codex adapter end to end: the real `codex` binary (`codex exec`,
 * headless), against the scripted Responses-API server, with boulder
 * installed the way a user installs it (`boulder install codex`) and its
 * hooks trusted the way Codex's /hooks review trusts them (no
 * `--dangerously-bypass-hook-trust`). Codex has no cap of its own on
 * continuations: every stop here is boulder's. Assertions are on what the
 * model received and on what boulder says; never on timings.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import {
	type CodexRunResult,
	type CodexSandbox,
	createCodexSandbox,
	runCodex,
	spawnCodex,
	trustHooks,
} from "./support/codex-run.js";
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
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const TEST_TIMEOUT_MS = 200_000;

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

async function codex(
	server: ResponsesServer,
	prompt: string,
	resume?: string,
	args: string[] = [],
): Promise<CodexRunResult> {
	const run = await runCodex(sandbox, { prompt, modelUrl: server.url, args, ...(resume ? { resume } : {}) });
	expect(run.timedOut, run.stderr).toBe(false);
	return run;
}

/** How many requests answered a boulder nudge: the nudge is their last input item (later requests of the turn add tool results). */
function nudges(server: ResponsesServer): number {
	return server
		.mainRequests()
		.filter((request) => lastUserText(request).includes(NUDGE) && tailAfterLastUser(request).length === 0).length;
}

/** `done` items completed, the next one in progress, the rest pending, through `update_plan`. */
function plan(done: number, total: number, name = (index: number) => `Item ${index + 1}`): ReplyStep {
	const steps = statusesAt(done, total).map((status, index) => ({ step: name(index), status }));
	return { calls: [{ name: "update_plan", args: { plan: steps } }] };
}

function say(text: string): ReplyStep {
	return { text };
}

function shell(cmd: string): ReplyStep {
	return { calls: [{ name: "exec_command", args: { cmd } }] };
}

/** A request a subagent made: Codex names the agent in its turn metadata header (`/root` is the session's own). */
function isSubagentRequest(request: RecordedRequest): boolean {
	const header = request.headers["x-codex-turn-metadata"];
	try {
		const metadata = JSON.parse(typeof header === "string" ? header : "{}") as { agent_name?: unknown };
		return typeof metadata.agent_name === "string" && metadata.agent_name !== "/root";
	} catch {
		return false;
	}
}

describe("boulder with the real Codex CLI", () => {
	it(
		"carries a lazy agent through its three-step plan (update_plan), then lets it stop",
		async () => {
			const server = await serve([
				plan(0, 3),
				say("Starting."),
				plan(1, 3),
				say("Item 1 is done."),
				plan(2, 3),
				say("Item 2 is done."),
				plan(3, 3),
				say("All three are done."),
			]);

			const run = await codex(server, "Work through the plan.");

			expect(run.exitCode).toBe(0);
			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(3);
			const first = server.mainRequests().find((request) => lastUserText(request).includes(NUDGE));
			expect(lastUserText(first as RecordedRequest)).toMatch(/0 of 3 done[\s\S]*Item 1/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"finishes a list of ten, one item per nudge",
		async () => {
			const steps: ReplyStep[] = [plan(0, 10), say("Starting.")];
			for (let done = 1; done <= 10; done++) steps.push(plan(done, 10), say(`${done} done.`));
			const server = await serve(steps);

			const run = await codex(server, "Do all ten.");

			expect(run.exitCode).toBe(0);
			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(10);
			expect((await decisions()).at(-1)).toMatchObject({ kind: "complete" });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress (Codex itself would loop on)",
		async () => {
			const server = await serve([plan(0, 2), say("I will look into it.")], {
				whenExhausted: say("Still thinking about it."),
			});

			const run = await codex(server, "Fix both items.");

			expect(run.exitCode).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(server.mainRequests()).toHaveLength(5);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops an agent that only churns its plan (rewording, reordering, status flips)",
		async () => {
			const words = ["Fix the parser", "Repair the parser", "Mend the parser", "Patch the parser", "Redo the parser"];
			let turn = 0;
			const server = await serve(({ index }) => {
				if (index % 2 === 1) return say("Reworked the plan.");
				const name = (item: number) => (item === 0 ? (words[turn % words.length] as string) : `Write tests ${turn}`);
				turn++;
				return plan(turn % 2, 2, name);
			});

			const run = await codex(server, "Fix the parser and test it.");

			expect(run.exitCode).toBe(0);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not answer for the user: a request_user_input question leaves the agent waiting",
		async () => {
			const question = {
				questions: [
					{
						id: "store",
						header: "Store",
						question: "Postgres or SQLite?",
						options: [
							{ label: "Postgres", description: "a server" },
							{ label: "SQLite", description: "a file" },
						],
					},
				],
			};
			const server = await serve([
				plan(0, 3),
				{ calls: [{ name: "request_user_input", args: question }] },
				say("I have asked which store to use."),
			]);

			const run = await codex(server, "Build the store.");

			expect(run.exitCode).toBe(0);
			expect(server.mainRequests()).toHaveLength(3);
			expect(nudges(server)).toBe(0);
			expect((await decisions()).at(-1)).toMatchObject({ kind: "skip", reason: "awaiting-user" });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"lets a subagent (spawn_agent) stop without a nudge, and does not count it as the agent's turn",
		async () => {
			let agentTurn = 0;
			const steps: ReplyStep[] = [
				plan(0, 2),
				{
					calls: [
						{
							name: "spawn_agent",
							namespace: "collaboration",
							args: { message: "Do item 1.", task_name: "item_one" },
						},
					],
				},
				{ calls: [{ name: "wait_agent", namespace: "collaboration", args: { timeout_ms: 60_000 } }] },
				plan(2, 2),
				say("Both items are done."),
			];
			const server = await serve(({ request }) => {
				if (isSubagentRequest(request)) return say("Subagent: item 1 is done.");
				return steps[agentTurn++] ?? say("Nothing more.");
			});

			const run = await codex(server, "Do both items; hand item 1 to a subagent.", undefined, [
				"--enable",
				"multi_agent_v2",
			]);

			expect(run.exitCode).toBe(0);
			const subagent = server.mainRequests().filter(isSubagentRequest);
			expect(subagent.length).toBeGreaterThan(0);
			expect(subagent.some((request) => JSON.stringify(request.body).includes(NUDGE))).toBe(false);
			expect(agentTurn).toBe(steps.length);
			expect(nudges(server)).toBe(0);
			expect(await decisions()).toContainEqual(
				expect.objectContaining({ kind: "skip", reason: "not-eligible", scope: null, harness: "codex" }),
			);
			expect((await decisions()).at(-1)).toMatchObject({ kind: "complete" });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan without update_plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			await boulderOk("start", "plan.md");
			const server = await serve([
				shell("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				shell("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			const run = await codex(server, "Roll the plan.");

			expect(run.exitCode).toBe(0);
			expect(server.exhaustedCount()).toBe(0);
			const requests = server.mainRequests();
			expect(requests).toHaveLength(4);
			expect(nudges(server)).toBe(1);
			const nudge = lastUserText(requests[2] as RecordedRequest);
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(sandbox.project);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"`boulder stop` between turns holds across `codex exec resume`; `boulder go` turns it back on",
		async () => {
			const first = await serve([plan(0, 3), say("Should I start with item 1 or item 2? Which do you prefer?")]);
			const run = await codex(first, "Do the three items.");
			expect(nudges(first)).toBe(0);
			expect(run.sessionId).toBeDefined();

			expect(await boulderOk("stop")).toMatch(/Stopped/);
			const second = await serve([plan(1, 3), say("Item 1 is done.")]);
			const resumed = await codex(second, "Start with 1, then do the rest.", run.sessionId);
			expect(resumed.sessionId ?? run.sessionId).toBe(run.sessionId);
			expect(nudges(second)).toBe(0);
			expect(await boulderOk("why")).toMatch(/boulder stop/);

			await boulderOk("go");
			const third = await serve([say("Going on.")], { whenExhausted: say("Still here.") });
			await codex(third, "Go on.", run.sessionId);
			expect(nudges(third)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"tells a session resumed with `codex exec resume` where its plan stands, without a nudge or spending its budget",
		async () => {
			await writeProjectFiles(sandbox.project, { "boulder.config.json": JSON.stringify(ONE_AUTO_TURN) });
			const carries = (request: RecordedRequest | undefined) => JSON.stringify(request?.body ?? null).includes(CONTEXT);
			const first = await serve([plan(1, 3), say("Item 1 is done."), say("Pausing here.")]);
			const run = await codex(first, "Do the three items.");
			expect(nudges(first)).toBe(1);
			expect(first.mainRequests().some(carries)).toBe(false);

			const second = await serve([say("Picking up at item 2."), say("Resting.")], {
				whenExhausted: say("Still resting."),
			});
			await codex(second, "Where were we?", run.sessionId);
			const [resumed] = second.mainRequests();
			expect(carries(resumed)).toBe(true);
			expect(JSON.stringify(resumed?.body)).toContain("1 of 3 done, 2 open in your todo list");
			expect(lastUserText(resumed as RecordedRequest)).toContain("Where were we?");
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(nudges(second)).toBe(1);
			expect((await decisions()).filter((record) => record.reason === "resume-context")).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"honours the user's interrupt (Ctrl-C fires Codex's Interrupt hook) until the user writes again",
		async () => {
			const first = await serve([plan(0, 2), shell("sleep 30")], { whenExhausted: say("After the sleep.") });
			const running = spawnCodex(sandbox, { prompt: "Do both items.", modelUrl: first.url, timeoutMs: 90_000 });
			await waitUntil(async () => first.mainRequests().length >= 2 && (await sleepRunning()));
			// Codex itself, as a terminal's Ctrl-C reaches it: the tool's `sleep` keeps running.
			process.kill(running.pid as number, "SIGINT");
			const interrupted = await running.done;
			expect(interrupted.timedOut).toBe(false);
			await waitUntil(async () =>
				(await decisions()).some((record) => record.reason === "user-aborted" && record.harness === "codex"),
			);
			expect(nudges(first)).toBe(0);

			const second = await serve([say("Where was I?")], { whenExhausted: say("Carrying on.") });
			await codex(second, "Carry on.", interrupted.sessionId);
			const reasons = (await decisions()).map((record) => `${record.kind}:${record.reason}`);
			const aborted = reasons.indexOf("event:user-aborted");
			expect(reasons.indexOf("event:user-turn", aborted)).toBeGreaterThan(aborted);
			expect(nudges(second)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);
});

async function sleepRunning(): Promise<boolean> {
	const { stdout } = await promisify(execFile)("ps", ["-eo", "args"]);
	return stdout.split("\n").some((line) => line.includes("sleep 30") && !line.includes("ps -eo"));
}

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await probe().catch(() => false))) {
		if (Date.now() >= deadline) throw new Error(`nothing after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
