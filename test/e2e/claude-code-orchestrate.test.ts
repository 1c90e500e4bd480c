/**
 * Orchestrate mode with the real Claude Code: a plan whose session delegates
 * its items to subagents (the Agent tool). The orchestrator's own file change
 * is warned about (context) or refused (a deny whose reason the model reads);
 * each subagent's result carries the note naming the item and its acceptance
 * criteria; the nudge asks to delegate; the works file remembers which
 * subagent worked which item, and `boulder status` shows it.
 *
 * Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	startAnthropicServer,
	stringsIn,
	toolResults,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { ORCHESTRATE_PLAN } from "./support/orchestrate.js";
import { CLAUDE_HOOK, NUDGE, readWorks, requireBuilt } from "./support/suite.js";

const TEST_TIMEOUT_MS = 180_000;
const WARNED = "Delegate the item instead";
const NOTE = "A subagent returned";
const TODO_TOOLS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
	await writeFile(join(sandbox.project, "PLAN.md"), ORCHESTRATE_PLAN);
	await mkdir(join(sandbox.project, "src"), { recursive: true });
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

const bash = (command: string): ReplyStep => ({ toolUses: [{ name: "Bash", input: { command, description: "run" } }] });
const say = (text: string): ReplyStep => ({ text });
/**
 * In the foreground: since 2.1.332 a subagent runs in the background unless the
 * model says otherwise, and this orchestrator's very next step (ticking the
 * plan) depends on the result, which is when the tool asks for `false`.
 */
const delegate = (description: string): ReplyStep => ({
	toolUses: [
		{
			name: "Agent",
			input: { description, prompt: `${description}.`, subagent_type: "general-purpose", run_in_background: false },
		},
	],
});
const tick = (item: string) => bash(`sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`);

/** Subagents write their file (never restricted), then claim it done. */
function subagentStep(request: RecordedRequest): ReplyStep {
	if (toolResults(request).length > 0) return say("Subagent: done.");
	const farewell = stringsIn(request.body).some((text) => text.includes("farewell"));
	const file = farewell ? "farewell.txt" : "greeting.txt";
	return {
		toolUses: [
			{ name: "Write", input: { file_path: join(sandbox.project, file), content: farewell ? "goodbye\n" : "hello\n" } },
		],
	};
}

function orchestratorScenario(steps: ReplyStep[]): { scenario: Scenario; used: () => number } {
	let turn = 0;
	return {
		scenario: ({ request }) => (isSubagentRequest(request) ? subagentStep(request) : (steps[turn++] ?? say("Done."))),
		used: () => turn,
	};
}

function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

const directEdit: ReplyStep = {
	toolUses: [{ name: "Write", input: { file_path: "src/direct.txt", content: "written by the orchestrator\n" } }],
};

describe("orchestrate mode with the real Claude Code", () => {
	it(
		"warns the orchestrator about its own edit, puts the note on each subagent's result, nudges it to delegate, and completes",
		async () => {
			await boulderOk("start", "PLAN.md");
			const { scenario, used } = orchestratorScenario([
				directEdit,
				delegate("Item A: write the greeting"),
				tick("A"),
				say("Item A is done."),
				delegate("Item B: write the farewell"),
				tick("B"),
				say("Both items are done."),
			]);
			const server = await startAnthropicServer(scenario);
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "Orchestrate the plan.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: TODO_TOOLS_OFF,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			expect(used()).toBe(7);
			const requests = agentRequests(server);
			// The warning rode on the direct edit's tool call: the model read it, and the edit went through.
			expect(stringsIn(requests[1]?.body).some((text) => text.includes(WARNED))).toBe(true);
			expect(existsSync(join(sandbox.project, "src", "direct.txt"))).toBe(true);
			// Each subagent's result carried the note with its item and criteria, as context, not a new prompt.
			const afterA = stringsIn(requests[2]?.body).join("\n");
			expect(afterA).toContain(NOTE);
			expect(afterA).toContain('"Item A: write the greeting"');
			expect(afterA).toContain("greeting.txt says hello");
			const afterB = stringsIn(requests[5]?.body).join("\n");
			expect(afterB).toContain('"Item B: write the farewell"');
			expect(afterB).toContain("farewell.txt says goodbye");
			// Subagents were never restricted: their writes landed and no warning rode on them.
			expect(await readFile(join(sandbox.project, "greeting.txt"), "utf8")).toBe("hello\n");
			expect(await readFile(join(sandbox.project, "farewell.txt"), "utf8")).toBe("goodbye\n");
			const subagentRequests = server.mainRequests().filter(isSubagentRequest);
			expect(subagentRequests.some((request) => stringsIn(request.body).some((t) => t.includes(WARNED)))).toBe(false);
			// One nudge, in orchestrate words.
			const nudged = requests.filter((request) => lastUserText(request).includes(NUDGE));
			expect(nudged).toHaveLength(1);
			expect(lastUserText(nudged[0] as RecordedRequest)).toMatch(/delegate these items to subagents/);
			expect(lastUserText(nudged[0] as RecordedRequest)).toContain("Item B");
			// The works file remembers each item's subagent; status shows it; the work completed.
			const [work] = await readWorks(sandbox.project);
			expect(work?.status).toBe("completed");
			const subagents = work?.subagentSessions as Record<string, string>;
			expect(Object.keys(subagents).sort()).toEqual(["Item A: write the greeting", "Item B: write the farewell"]);
			expect(Object.values(subagents).every((id) => id.length > 0)).toBe(true);
			const status = JSON.parse(await boulderOk("status", "--json"));
			expect(status.worktrees[0].works[0]).toMatchObject({
				orchestrate: true,
				subagents: [
					{ item: "Item A: write the greeting", session: subagents["Item A: write the greeting"] },
					{ item: "Item B: write the farewell", session: subagents["Item B: write the farewell"] },
				],
			});
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/warned.*src\/direct\.txt.*delegate/);
			expect(why).toMatch(/a subagent \(session \w+\) returned from "Item A: write the greeting"/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"refuses the orchestrator's own edit when so configured; the model reads why, and a subagent does the item",
		async () => {
			await writeFile(join(sandbox.project, "boulder.config.json"), JSON.stringify({ orchestrate: { edits: "deny" } }));
			await boulderOk("start", "PLAN.md");
			const { scenario } = orchestratorScenario([
				directEdit,
				delegate("Item A: write the greeting"),
				tick("A"),
				delegate("Item B: write the farewell"),
				tick("B"),
				say("Both items are done."),
			]);
			const server = await startAnthropicServer(scenario);
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "Orchestrate the plan.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: TODO_TOOLS_OFF,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			const refused = toolResults(agentRequests(server)[1] as RecordedRequest).at(-1);
			expect(refused?.text).toContain(WARNED);
			expect(refused?.text).toContain("refused your change to `src/direct.txt`");
			expect(existsSync(join(sandbox.project, "src", "direct.txt"))).toBe(false);
			expect(await readFile(join(sandbox.project, "greeting.txt"), "utf8")).toBe("hello\n");
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/complete/i);
			expect(why).toMatch(/refused an edit.*src\/direct\.txt/);
		},
		TEST_TIMEOUT_MS,
	);
});
