/**
 * `boulder-agent/sdk/opencode` end to end: docs/sdk.md's example program
 * (`examples/sdk/opencode.ts`, run unchanged under Node 22) drives OpenCode's
 * SDK (`@opencode-ai/sdk`, the root devDependency), which starts the pinned
 * `opencode serve` with boulder's plugin in its config, against the scripted
 * OpenAI-compatible model server. The project's `opencode.json` names the
 * model server; OpenCode's startup install is pre-seeded, so nothing reaches
 * a registry. Assertions are on what the model received and on what
 * `boulder why` says; never on timings.
 *
 * Needs `npm run build` (the example imports the built package).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { HARNESS_MODULES } from "./support/harnesses.js";
import { homeFolders, isolatedEnv } from "./support/isolated-env.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { MODEL_ID, PROVIDER_ID, SMALL_MODEL_ID, seedPluginInstall } from "./support/opencode-run.js";
import { type ExampleRun, exampleApp, spawnExample } from "./support/sdk-example.js";
import { REPO, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { opencodeTodoWrite, statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 150_000;
const TEST_TIMEOUT_MS = 240_000;

let root: string;
let project: string;
let env: Record<string, string>;
let example: string;
let model: ScriptedModelServer;
const { boulderOk } = boulderIn(() => ({ cwd: project, env }));
const decisions = () => readDecisionLog(project, { missingIsEmpty: true });

beforeAll(() => requireBuilt(join(REPO, "dist", "sdk", "opencode.js")));

beforeEach(async () => {
	root = await realpath(await mkdtemp(join(tmpdir(), "boulder-sdk-opencode-")));
	project = join(root, "project");
	const home = join(root, "home");
	await mkdir(project, { recursive: true });
	for (const dir of [".config/opencode", ".local/share", ".cache/opencode", ".local/state"]) {
		await mkdir(join(home, dir), { recursive: true });
	}
	const git = (...args: string[]) => execFileSync("git", args, { cwd: project, stdio: "ignore" });
	git("init", "-q");
	git(
		"-c",
		"user.name=e2e",
		"-c",
		"user.email=e2e@example.invalid",
		"-c",
		"commit.gpgsign=false",
		"commit",
		"-q",
		"--allow-empty",
		"-m",
		"init",
	);
	await seedPluginInstall(join(home, ".config", "opencode"));
	await seedPluginInstall(join(project, ".opencode"));
	example = await exampleApp(root, "opencode", [
		["@opencode-ai/sdk", join(REPO, "node_modules", "@opencode-ai", "sdk")],
	]);
	env = {
		...(isolatedEnv(home, /^(OPENCODE|ANTHROPIC|OPENAI|CLAUDE|XDG)_|^OPENCODE$/) as Record<string, string>),
		...homeFolders(home),
		// `createOpencode` starts the `opencode` on the PATH: the pinned one.
		PATH: `${join(HARNESS_MODULES, ".bin")}:${process.env.PATH ?? ""}`,
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
		NO_COLOR: "1",
	};
});

afterEach(async () => {
	const errors = (await decisions()).filter((record) => record.reason === "error");
	await model?.close();
	await rm(root, { recursive: true, force: true });
	expect(errors.map((record) => record.detail)).toEqual([]);
});

async function setUp(steps: ModelStep[]): Promise<void> {
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	model.setScenario(steps);
	const config = {
		$schema: "https://opencode.ai/config.json",
		provider: {
			[PROVIDER_ID]: {
				npm: "@ai-sdk/openai-compatible",
				name: "Scripted model server",
				options: { baseURL: model.baseUrl, apiKey: "test-key" },
				models: {
					[MODEL_ID]: { name: "Scripted main model", tool_call: true, limit: { context: 200_000, output: 32_000 } },
					[SMALL_MODEL_ID]: { name: "Scripted small model", limit: { context: 200_000, output: 8_000 } },
				},
			},
		},
		model: `${PROVIDER_ID}/${MODEL_ID}`,
		small_model: `${PROVIDER_ID}/${SMALL_MODEL_ID}`,
		autoupdate: false,
		share: "disabled",
	};
	await writeProjectFiles(project, {
		"opencode.json": `${JSON.stringify(config, null, 2)}\n`,
		"boulder.config.json": JSON.stringify({ countdownMs: 300 }),
	});
}

function start(prompt: string) {
	return spawnExample(example, [prompt], { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS });
}

async function run(prompt: string): Promise<{ done: ExampleRun; settled: Record<string, unknown> }> {
	const done = await start(prompt).done;
	expect(done.timedOut, done.stderr).toBe(false);
	expect(done.exitCode, done.stderr).toBe(0);
	return { done, settled: (done.lines.at(-1)?.settled ?? {}) as Record<string, unknown> };
}

function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter(endsInNudge);
}

const progress = (done: number, total: number): ModelStep => opencodeTodoWrite(statusesAt(done, total));
const say = (text: string): ModelStep => ({ text });

describe("boulder in an OpenCode SDK program (the real SDK and opencode)", () => {
	it(
		"carries a lazy agent through all four todos, then lets it stop",
		async () => {
			await setUp([
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

			const { settled } = await run("Work through the list.");

			expect(settled).toMatchObject({ kind: "decided", decision: { kind: "complete" } });
			expect(model.overruns).toBe(0);
			expect(nudges(model)).toHaveLength(3);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not answer the agent's question for the user",
		async () => {
			await setUp([progress(0, 3), say("Should I store the data in Postgres or SQLite? Which do you prefer?")]);

			const { settled } = await run("Build the store.");

			expect(settled).toMatchObject({ kind: "decided", decision: { reason: "awaiting-user" } });
			expect(model.mainRequests()).toHaveLength(2);
			expect(nudges(model)).toHaveLength(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			await setUp([
				progress(0, 2),
				say("I will look into it."),
				say("Still thinking about it."),
				say("Still thinking."),
				say("Thinking some more."),
			]);

			const { settled } = await run("Fix both items.");

			expect(settled).toMatchObject({ kind: "decided", decision: { reason: "stagnation" } });
			expect(model.mainRequests()).toHaveLength(5);
			expect(nudges(model)).toHaveLength(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			const bash = (command: string): ModelStep => ({
				toolCalls: [{ name: "bash", args: { command, description: "edit" } }],
			});
			await setUp([
				bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				bash("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);
			await writeProjectFiles(project, VERIFY_FILES);
			await boulderOk("start", "plan.md");

			const { settled } = await run("Roll the plan.");

			expect(settled).toMatchObject({ kind: "decided", decision: { kind: "complete" } });

			expect(model.overruns).toBe(0);
			expect(nudges(model)).toHaveLength(1);
			expect(model.lastUserText(nudges(model)[0]) ?? "").toContain(VERIFY_FAILURE);
			await expectVerifiedWork(project);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops at once on the program's AbortSignal, and remembers the abort",
		async () => {
			await setUp([progress(0, 2), { text: "Working on it...", delayMs: 60_000 }]);
			const running = start("Do both items.");
			await model.waitForMainRequests(2, 90_000);

			running.signal("SIGINT");
			const done = await running.done;

			expect(done.timedOut, done.stderr).toBe(false);
			expect(done.lines.at(-1)?.settled).toMatchObject({ kind: "decided", decision: { reason: "user-aborted" } });
			expect(model.mainRequests()).toHaveLength(2);
			expect(nudges(model)).toHaveLength(0);
			expect((await decisions()).map((record) => `${record.kind}:${record.reason}`)).toContain("event:user-aborted");
			expect(await boulderOk("why")).toMatch(/the run was interrupted/);
		},
		TEST_TIMEOUT_MS,
	);
});
