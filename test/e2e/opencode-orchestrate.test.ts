/**
 * Orchestrate mode with the real OpenCode: a plan whose session delegates its
 * items through the `task` tool. The orchestrator's own file change is warned
 * about (on the tool's result) or refused (`tool.execute.before` throws; the
 * model reads the error); each `task` result carries the note naming the item
 * and its acceptance criteria; the nudge asks to delegate; the works file
 * remembers each item's child session.
 *
 * Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { type OpencodeServer, requireBuild, sharedOpencode } from "./support/opencode-run.js";
import { ORCHESTRATE_PLAN } from "./support/orchestrate.js";
import { NUDGE, REPO, readWorks } from "./support/suite.js";

const WARNED = "Delegate the item instead";
const NOTE = "A subagent returned";
const SUBTASK = "SUBTASK";
const TEST_TIMEOUT_MS = 240_000;

// One server for the file; each test has its own project in it.
const shared = sharedOpencode();
let model: ScriptedModelServer | undefined;
let oc: OpencodeServer | undefined;

beforeAll(requireBuild);

afterEach(async () => {
	await oc?.dispose();
	oc = undefined;
	await model?.close();
	model = undefined;
});

const { boulderOk } = boulderIn(() => (oc as OpencodeServer).cliPlace);

const say = (text: string): ModelStep => ({ text });
const bash = (command: string): ModelStep => ({ toolCalls: [{ name: "bash", args: { command, description: "run" } }] });
const tick = (item: string) => bash(`sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`);
const delegate = (description: string): ModelStep => ({
	toolCalls: [{ name: "task", args: { description, prompt: `${SUBTASK} ${description}.`, subagent_type: "general" } }],
});

async function setUp(steps: ModelStep[], config: Record<string, unknown> = {}) {
	let turn = 0;
	model = await startModelServer({ fallback: say("Nothing more to do.") });
	model.setScenario(({ request, server }) => {
		const texts = server.userTexts(request);
		if (texts.some((text) => text.includes(SUBTASK))) {
			if (server.toolResults(request).length > 0) return say("Subagent: done.");
			const farewell = texts.some((text) => text.includes("farewell"));
			const filePath = join((oc as OpencodeServer).projectDir, farewell ? "farewell.txt" : "greeting.txt");
			return { toolCalls: [{ name: "write", args: { filePath, content: farewell ? "goodbye\n" : "hello\n" } }] };
		}
		return steps[turn++] ?? say("Done.");
	});
	oc = await shared.open({
		modelServerUrl: model.baseUrl,
		npmPackages: { "boulder-agent": REPO },
		plugins: ["boulder-agent"],
		files: { "boulder.config.json": JSON.stringify({ countdownMs: 300, ...config }), "PLAN.md": ORCHESTRATE_PLAN },
	});
	await boulderOk("start", "PLAN.md");
	return { model, oc, used: () => turn };
}

function orchestratorRequests(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !server.userTexts(request).some((text) => text.includes(SUBTASK)));
}

function toolText(server: ScriptedModelServer, request: RecordedRequest | undefined): string {
	return server
		.toolResults(request)
		.map((result) => result.content)
		.join("\n");
}

const directEdit = (dir: string): ModelStep => ({
	toolCalls: [{ name: "write", args: { filePath: join(dir, "src", "direct.txt"), content: "by the orchestrator\n" } }],
});

describe("orchestrate mode with the real OpenCode", () => {
	it(
		"warns on the orchestrator's own edit, puts the note on each task result, nudges it to delegate, and completes",
		async () => {
			const placeholder: ModelStep[] = [];
			const { model, oc, used } = await setUp(placeholder);
			placeholder.push(
				directEdit(oc.projectDir),
				delegate("Item A: write the greeting"),
				tick("A"),
				say("Item A is done."),
				delegate("Item B: write the farewell"),
				tick("B"),
				say("Both items are done."),
			);

			const { sessionID } = await oc.startTurn("Orchestrate the plan.");
			await model.waitFor(() => used() >= 7, 150_000);
			await oc.waitForSettled(sessionID);

			const requests = orchestratorRequests(model);
			expect(toolText(model, requests[1])).toContain(WARNED);
			expect(existsSync(join(oc.projectDir, "src", "direct.txt"))).toBe(true);
			const afterA = toolText(model, requests[2]);
			expect(afterA).toContain(NOTE);
			expect(afterA).toContain('"Item A: write the greeting"');
			expect(afterA).toContain("greeting.txt says hello");
			expect(toolText(model, requests[5])).toContain('"Item B: write the farewell"');
			expect(await readFile(join(oc.projectDir, "greeting.txt"), "utf8")).toBe("hello\n");
			const childRequests = model.mainRequests().filter((r) => !requests.includes(r));
			expect(childRequests.some((request) => toolText(model, request).includes(WARNED))).toBe(false);
			const nudged = requests.filter((request) => contentText(request.body.messages?.at(-1)?.content).includes(NUDGE));
			expect(nudged).toHaveLength(1);
			expect(model.lastUserText(nudged[0])).toMatch(/delegate these items to subagents[\s\S]*|Item B/);
			expect(model.lastUserText(nudged[0])).toContain("Item B");
			const [work] = await readWorks(oc.projectDir);
			expect(work?.status).toBe("completed");
			const subagents = work?.subagentSessions as Record<string, string>;
			expect(Object.keys(subagents).sort()).toEqual(["Item A: write the greeting", "Item B: write the farewell"]);
			expect(Object.values(subagents).every((id) => id.startsWith("ses"))).toBe(true);
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/warned.*src\/direct\.txt/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"refuses the orchestrator's own edit when so configured, and the model reads why",
		async () => {
			const placeholder: ModelStep[] = [];
			const { model, oc, used } = await setUp(placeholder, { orchestrate: { edits: "deny" } });
			placeholder.push(
				directEdit(oc.projectDir),
				delegate("Item A: write the greeting"),
				tick("A"),
				delegate("Item B: write the farewell"),
				tick("B"),
				say("Both items are done."),
			);

			const { sessionID } = await oc.startTurn("Orchestrate the plan.");
			await model.waitFor(() => used() >= 6, 150_000);
			await oc.waitForSettled(sessionID);

			const requests = orchestratorRequests(model);
			expect(toolText(model, requests[1])).toContain("boulder refused your change to `src/direct.txt`");
			expect(existsSync(join(oc.projectDir, "src", "direct.txt"))).toBe(false);
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/refused an edit.*src\/direct\.txt/);
			expect(why).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);
});
