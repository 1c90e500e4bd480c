/**
 * A user's first day with the real OpenCode, off the scripted path: a folder
 * that is no git repository, where the user ran `boulder install opencode
 * --project`, is a project, and a lazy agent is carried to the end of its
 * list; then a plan rolled by a first session is not taken by a second,
 * unrelated one (`boulder why` names the command that hands it over), and
 * after `boulder start PLAN.md` a fresh third session finishes it.
 *
 * Needs `npm run build`.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { type OpencodeServer, requireBuild, startOpencode } from "./support/opencode-run.js";
import { ONE_AUTO_TURN, RESUME_PLAN } from "./support/resume.js";
import { REPO, readDecisionLog, readWorks } from "./support/suite.js";
import { opencodeTodoWrite, statusesAt } from "./support/todo-steps.js";

const TEST_TIMEOUT_MS = 240_000;

let model: ScriptedModelServer;
let oc: OpencodeServer;
const { boulderOk } = boulderIn(() => oc.cliPlace);

beforeAll(async () => {
	requireBuild();
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	// No git repository and no plugin yet: the user's folder before `boulder install`.
	oc = await startOpencode({
		modelServerUrl: model.baseUrl,
		git: false,
		npmPackages: { "boulder-agent": REPO },
		files: { "boulder.config.json": JSON.stringify({ countdownMs: 300 }) },
	});
}, TEST_TIMEOUT_MS);

afterAll(async () => {
	await oc?.dispose();
	await model?.close();
});

const nudges = () => model.mainRequests().filter(endsInNudge).length;
const say = (text: string): ModelStep => ({ text });
const tick = (item: string): ModelStep => ({
	toolCalls: [
		{
			name: "bash",
			args: { command: `sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`, description: "tick" },
		},
	],
});

/** One prompt in a new session, until boulder has taken the decision that ends it. */
async function turn(prompt: string): Promise<string> {
	const from = await oc.decisionMark();
	const { sessionID } = await oc.startTurn(prompt);
	await oc.waitForSettled(sessionID, { from, timeoutMs: 90_000 });
	return sessionID;
}

function show(title: string, text: string): void {
	process.stdout.write(`\n--- ${title}\n${text}`);
}

describe("a first day with OpenCode", () => {
	it(
		"carries a lazy agent to the end in a folder that is no git repository, once boulder is installed there",
		async () => {
			const installed = await boulderOk("install", "opencode", "--project");
			expect(installed).toContain("it is a project now");
			await oc.restart();
			model.setScenario([
				opencodeTodoWrite(statusesAt(0, 3)),
				say("Item A is under way; stopping here."),
				opencodeTodoWrite(statusesAt(1, 3)),
				say("Finished item A."),
				opencodeTodoWrite(statusesAt(2, 3)),
				say("Finished item B."),
				opencodeTodoWrite(statusesAt(3, 3)),
				say("All three items are done."),
			]);

			await turn("Work through the list.");

			expect(model.overruns).toBe(0);
			expect(nudges()).toBe(3);
			expect(await readdir(join(oc.projectDir, ".boulder", "scopes"))).toHaveLength(1);
			const why = await boulderOk("why");
			show("why, in a folder with a project install", why);
			expect(why).toMatch(/continued/);
			expect(why).toMatch(/complete/i);
			expect(await boulderOk("status")).toMatch(/opencode:.*its own list {2}nothing open, 3\/3 done/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"hands a plan from a first session to a fresh one with `boulder start`, and never to one that did not ask",
		async () => {
			await writeFile(join(oc.projectDir, "PLAN.md"), RESUME_PLAN);
			await writeFile(
				join(oc.projectDir, "boulder.config.json"),
				JSON.stringify({ countdownMs: 300, ...ONE_AUTO_TURN }),
			);
			await boulderOk("start", "PLAN.md");
			model.clearRequests();
			model.setScenario([tick("A"), say("Item A is done."), say("Pausing here.")]);
			const a = await turn("Work through the plan.");
			expect(nudges()).toBe(1);

			model.setScenario([say("It holds a plan and a config.")]);
			const b = await turn("What is in this folder?");
			expect(nudges()).toBe(1);
			const refused = await boulderOk("why", "--session", b);
			show("why, for the session that shares the worktree", refused);
			expect(refused).toContain(`belongs to opencode session ${a}`);
			expect(refused).toContain("`boulder start PLAN.md` hands it to the next session that goes idle in this worktree");

			const handed = await boulderOk("start", "PLAN.md");
			expect(handed).toContain("Handed over: the next other session that goes idle in this worktree joins it");

			model.setScenario([tick("B"), say("Item B is done."), tick("C"), say("All three are done.")]);
			const c = await turn("Pick up the plan.");
			expect(nudges()).toBe(2);
			expect(await readFile(join(oc.projectDir, "PLAN.md"), "utf8")).not.toContain("- [ ]");
			const [work] = await readWorks(oc.projectDir);
			expect(work).toMatchObject({ status: "completed" });
			expect(((work?.sessions ?? []) as { sessionId: string }[]).map((s) => s.sessionId)).toEqual([a, c]);
			const finished = await boulderOk("why", "--session", c);
			show("why, for the session the plan was handed to", finished);
			expect(finished).toMatch(/completed/);
			const decisions = await readDecisionLog(oc.projectDir);
			expect(decisions.filter((record) => record.session === b && record.kind === "inject")).toEqual([]);
		},
		TEST_TIMEOUT_MS,
	);
});
