/**
 * The Gemini CLI adapter end to end: the real pinned `gemini` binary,
 * headless, against the scripted Gemini-API server, with boulder installed
 * the way a user installs it (`boulder install gemini --project`, the real
 * CLI: portable commands that find this boulder through the user's link) and
 * explained the way a user asks (`boulder why`). Assertions are on what the
 * model received and on what boulder says; never on timings.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { cliPlace, createSandbox, type GeminiRunResult, type GeminiSandbox, runGemini } from "./support/gemini-run.js";
import {
	GeminiServer,
	type GeminiServerOptions,
	type GeminiStep,
	lastPromptText,
	type RecordedRequest,
	type Scenario,
} from "./support/gemini-server.js";
import { COMMAND_HOOK, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { statusesAt } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const TEST_TIMEOUT_MS = 400_000;
/** Generous: the machine may be loaded, and a run of ten nudges makes over twenty model calls. */
const RUN_TIMEOUT_MS = 300_000;

const servers: GeminiServer[] = [];
let sandbox: GeminiSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(COMMAND_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "gemini", "--project");
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

async function gemini(server: GeminiServer, prompt: string, resume?: string): Promise<GeminiRunResult> {
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

/** How many model requests arrived right after a boulder nudge (the nudge is their last prompt). */
function nudges(server: GeminiServer): number {
	return server.mainRequests().filter((request) => lastPromptText(request).includes(NUDGE)).length;
}

function writeTodos(items: { description: string; status: string }[]): GeminiStep {
	return { calls: [{ name: "write_todos", args: { todos: items } }] };
}

/** `done` items completed, the next one in progress, the rest pending. */
function progress(done: number, total: number): GeminiStep {
	return writeTodos(statusesAt(done, total).map((status, index) => ({ description: `Item ${index + 1}`, status })));
}

function say(text: string): GeminiStep {
	return { text };
}

describe("boulder with the real Gemini CLI", () => {
	it(
		"carries a lazy agent through its four todos (write_todos), then lets it stop",
		async () => {
			const server = await serve([
				progress(0, 4),
				progress(1, 4),
				say("Finished item 1."),
				progress(2, 4),
				say("Finished item 2."),
				progress(3, 4),
				say("Finished item 3."),
				progress(4, 4),
				say("All four items are done."),
			]);

			const run = await gemini(server, "Work through the list.");

			expect(run.json?.response).toContain("All four items are done.");
			expect(server.exhausted).toBe(0);
			expect(nudges(server)).toBe(3);
			const first = server.mainRequests().find((request) => lastPromptText(request).includes(NUDGE));
			expect(lastPromptText(first as RecordedRequest)).toMatch(/1 of 4 done[\s\S]*Item 2/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries an agent through a list of ten items to the end",
		async () => {
			const steps: GeminiStep[] = [progress(0, 10)];
			for (let done = 1; done <= 10; done++) steps.push(progress(done, 10), say(`Finished item ${done}.`));
			const server = await serve(steps);

			await gemini(server, "Work through all ten items.");

			expect(server.exhausted).toBe(0);
			expect(nudges(server)).toBe(9);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress (as in Claude Code: our continuation, seen by BeforeAgent, opens no new episode)",
		async () => {
			const server = await serve([progress(0, 2), say("I will look into it.")], {
				whenExhausted: say("Still thinking."),
			});

			await gemini(server, "Fix both items.");

			expect(nudges(server)).toBe(3);
			expect(server.mainRequests()).toHaveLength(5);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a churning agent (rewording and reshuffling its list) within the stagnation limit",
		async () => {
			let turn = 0;
			const server = await serve(() => {
				turn++;
				if (turn % 2 === 0) return say(`Reorganised the list (${turn}).`);
				const items = [`Item A, take ${turn}`, `Item B, take ${turn}`];
				if (turn % 4 === 3) items.reverse();
				return writeTodos(
					items.map((description, index) => ({ description, status: index === 0 ? "in_progress" : "pending" })),
				);
			});

			await gemini(server, "Do items A and B.");

			expect(nudges(server)).toBeGreaterThan(0);
			expect(nudges(server)).toBeLessThanOrEqual(3);
			expect(await boulderOk("why")).toMatch(/no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"keeps the episode's turn budget across continuations: progress on every nudge still stops at the budget",
		async () => {
			await writeFile(
				join(sandbox.project, "boulder.config.json"),
				JSON.stringify({ budgets: { autoTurns: 2, perItem: { autoTurns: 0 } } }),
			);
			const steps: GeminiStep[] = [progress(0, 6)];
			for (let done = 1; done <= 6; done++) steps.push(progress(done, 6), say(`Finished item ${done}.`));
			const server = await serve(steps);

			await gemini(server, "Work through the six items.");

			expect(nudges(server)).toBe(2);
			expect(await boulderOk("why")).toMatch(/budget|automatic continuations/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not answer a question the agent asked the user",
		async () => {
			const server = await serve([
				progress(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			await gemini(server, "Build the store.");

			expect(server.mainRequests()).toHaveLength(2);
			expect(nudges(server)).toBe(0);
			expect(await boulderOk("why")).toMatch(/asked the user/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"rolls a plan: a failing verify command's output reaches the model, the fix completes the work",
		async () => {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			await boulderOk("start", "plan.md");
			const shell = (command: string): GeminiStep => ({ calls: [{ name: "run_shell_command", args: { command } }] });
			const server = await serve([
				shell("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				{ calls: [{ name: "write_file", args: { file_path: "greeting.txt", content: "hello\n" } }] },
				say("Wrote the greeting; the check passes now."),
			]);

			await gemini(server, "Roll the plan.");

			expect(server.exhausted).toBe(0);
			const requests = server.mainRequests();
			expect(requests).toHaveLength(4);
			const nudge = lastPromptText(requests[2] as RecordedRequest);
			expect(nudge).toContain(NUDGE);
			expect(nudge).toContain(VERIFY_FAILURE);
			await expectVerifiedWork(sandbox.project);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"`boulder stop` holds across a restart of Gemini CLI (--resume); `boulder go` turns it back on",
		async () => {
			const first = await serve([progress(0, 3), say("Should I start with item 1 or item 2? Which do you prefer?")]);
			const run = await gemini(first, "Do the three items.");
			expect(nudges(first)).toBe(0);
			const session = run.json?.session_id ?? "latest";

			expect(await boulderOk("stop")).toMatch(/Stopped/);

			const second = await serve([progress(1, 3), say("Item 1 is done.")]);
			await gemini(second, "Start with 1, then do the rest.", session);
			expect(nudges(second)).toBe(0);
			expect(await boulderOk("why")).toMatch(/boulder stop/);

			await boulderOk("go");
			const third = await serve([say("Going on.")], { whenExhausted: say("Still here.") });
			await gemini(third, "Go on.", session);
			expect(nudges(third)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"keeps a subagent's todo list apart from the parent's: the parent's open items are still nudged",
		async () => {
			const item = (description: string, status: string) => ({ description, status });
			const server = await serve([
				writeTodos([item("Parent 1", "pending"), item("Parent 2", "pending"), item("Parent 3", "pending")]),
				{ calls: [{ name: "invoke_agent", args: { agent_name: "generalist", prompt: "Check the logs." } }] },
				// The subagent (its tool hooks carry the parent's session_id) keeps a list of its own, all done.
				writeTodos([item("Sub 1", "completed"), item("Sub 2", "completed")]),
				{ calls: [{ name: "complete_task", args: { result: { response: "Checked the logs." } } }] },
				say("The subagent checked the logs."),
				writeTodos([item("Parent 1", "completed"), item("Parent 2", "completed"), item("Parent 3", "completed")]),
				say("All three parent items are done."),
			]);

			await gemini(server, "Work through the list; have a subagent check the logs.");

			const log = await readDecisionLog(sandbox.project);
			expect(log.find((line) => line.kind === "complete")?.figures).toMatchObject({ open: 0, total: 3 });
			expect(nudges(server)).toBe(1);
			expect(server.exhausted).toBe(0);
		},
		TEST_TIMEOUT_MS,
	);
});
