/**
 * `boulder-agent/sdk/pi` end to end: docs/sdk.md's example program
 * (`examples/sdk/pi.ts`, run unchanged under Node 22) drives the pinned pi's
 * SDK (`createAgentSession` with boulder's inline extension factory)
 * against the scripted OpenAI-compatible model server, in a throwaway
 * project, HOME and pi agent folder. pi has no subagents of its own, so
 * there is no subagent case here. Assertions are on what the model received
 * and on what `boulder why` says; never on timings.
 *
 * Needs `npm run build` (the example imports the built package).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { MODEL, PROVIDER, piUnavailable } from "./support/pi-run.js";
import { type ExampleRun, exampleApp, spawnExample } from "./support/sdk-example.js";
import { REPO, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 150_000;
const unavailable = piUnavailable();

let root: string;
let project: string;
let env: Record<string, string>;
let example: string;
let model: ScriptedModelServer;
const { boulderOk } = boulderIn(() => ({ cwd: project, env }));
const decisions = () => readDecisionLog(project, { missingIsEmpty: true });

async function setUp(steps: ModelStep[]): Promise<void> {
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	model.setScenario(steps);
	const agentDir = join(root, "home", ".pi", "agent");
	const provider = { baseUrl: model.baseUrl, api: "openai-completions", apiKey: "dummy", models: [{ id: MODEL }] };
	await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers: { [PROVIDER]: provider } }));
}

function start(prompt: string) {
	return spawnExample(example, [prompt], { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS });
}

async function run(prompt: string): Promise<ExampleRun> {
	const done = await start(prompt).done;
	expect(done.timedOut, done.stderr).toBe(false);
	expect(done.exitCode, done.stderr).toBe(0);
	return done;
}

function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter(endsInNudge);
}

function progress(done: number, total: number): ModelStep {
	const todos = statusesAt(done, total).map((status, index) => ({
		content: `Item ${String.fromCharCode(65 + index)}`,
		status,
	}));
	return { toolCalls: [{ name: "todo_write", args: { todos } }] };
}

const say = (text: string): ModelStep => ({ text });

describe.skipIf(unavailable !== null)(
	unavailable ? `boulder in a pi SDK program (skipped: ${unavailable})` : "boulder in a pi SDK program (the real SDK)",
	() => {
		beforeAll(() => requireBuilt(join(REPO, "dist", "sdk", "pi.js")));

		beforeEach(async () => {
			root = await realpath(await mkdtemp(join(tmpdir(), "boulder-sdk-pi-")));
			project = join(root, "project");
			const home = join(root, "home");
			const agentDir = join(home, ".pi", "agent");
			await mkdir(project, { recursive: true });
			await mkdir(agentDir, { recursive: true });
			execFileSync("git", ["init", "-q", "."], { cwd: project });
			example = await exampleApp(root, "pi", ["@earendil-works/pi-coding-agent"]);
			env = {
				PATH: process.env.PATH ?? "",
				HOME: home,
				XDG_CONFIG_HOME: join(home, ".config"),
				XDG_DATA_HOME: join(home, ".local", "share"),
				XDG_STATE_HOME: join(home, ".local", "state"),
				XDG_CACHE_HOME: join(home, ".cache"),
				PI_CODING_AGENT_DIR: agentDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
				PI_TELEMETRY: "0",
				NO_COLOR: "1",
				PI_MODEL: `${PROVIDER}/${MODEL}`,
			};
		});

		afterEach(async () => {
			const errors = (await decisions()).filter((record) => record.reason === "error");
			await model?.close();
			await rm(root, { recursive: true, force: true });
			expect(errors.map((record) => record.detail)).toEqual([]);
		});

		it(
			"carries a lazy agent through its todo list, then lets it stop",
			async () => {
				await setUp([
					progress(0, 3),
					say("Started on item A."),
					progress(1, 3),
					say("Finished item A."),
					progress(3, 3),
					say("All three items are done."),
				]);

				const done = await run("Work through the list.");

				expect(done.lines.at(-1)).toMatchObject({ settled: true });
				expect(model.overruns).toBe(0);
				expect(nudges(model)).toHaveLength(2);
				expect(await boulderOk("why")).toMatch(/complete/i);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"does not answer the agent's question for the user",
			async () => {
				await setUp([progress(0, 2), say("Should I store the data in Postgres or SQLite? Which do you prefer?")]);

				await run("Build the store.");

				expect(model.mainRequests()).toHaveLength(2);
				expect(nudges(model)).toHaveLength(0);
				expect((await decisions()).at(-1)).toMatchObject({ reason: "awaiting-user" });
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"stops a stalled agent within the stagnation limit, and says why",
			async () => {
				await setUp([
					progress(0, 2),
					say("I will look into it."),
					say("Still thinking."),
					say("Thinking more."),
					say("Hmm."),
				]);

				await run("Fix both items.");

				expect(nudges(model)).toHaveLength(3);
				expect(model.mainRequests()).toHaveLength(5);
				expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
			async () => {
				const bash = (command: string): ModelStep => ({ toolCalls: [{ name: "bash", args: { command } }] });
				await setUp([
					bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
					say("Ticked the item."),
					bash("echo hello > greeting.txt"),
					say("Wrote the greeting; the check passes now."),
				]);
				await writeProjectFiles(project, VERIFY_FILES);
				await boulderOk("start", "plan.md");

				await run("Roll the plan.");

				expect(model.overruns).toBe(0);
				expect(nudges(model)).toHaveLength(1);
				expect(model.lastUserText(nudges(model)[0]) ?? "").toContain(VERIFY_FAILURE);
				await expectVerifiedWork(project);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"stops at once on the program's abort, and remembers it",
			async () => {
				await setUp([progress(0, 2), { text: "Working on it...", delayMs: 60_000 }]);
				const running = start("Do both items.");
				await model.waitForMainRequests(2, 60_000);

				running.signal("SIGINT");
				const done = await running.done;

				expect(done.timedOut, done.stderr).toBe(false);
				expect(model.mainRequests()).toHaveLength(2);
				expect(nudges(model)).toHaveLength(0);
				expect((await decisions()).map((record) => `${record.kind}:${record.reason}`)).toContain("event:user-aborted");
				expect(await boulderOk("why")).toMatch(/the run was interrupted/);
			},
			TEST_TIMEOUT_MS,
		);
	},
);
