/**
 * A user's first day with the real Claude Code, off the scripted path:
 *
 * - a folder that is no git repository, where the user ran `boulder install
 *   claude-code --project`: a project now, its state in its own `.boulder/`,
 *   and a lazy agent is carried to the end of its list;
 * - a folder that is no project at all, under a user-scope install: still
 *   carried to the end, its state kept under the user's state folder and
 *   nothing written into the folder;
 * - a plan rolled by a first session that ended: a second, unrelated session
 *   is not hijacked and `boulder why` names the command that hands the plan
 *   over; after `boulder start PLAN.md` a fresh third session finishes it.
 *
 * Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type ReplyStep,
	type Scenario,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { RESUME_FILES } from "./support/resume.js";
import { CLAUDE_HOOK, NUDGE, readDecisionLog, readWorks, requireBuilt, writeProjectFiles } from "./support/suite.js";
import { claudeTodoWrite, statusesAt } from "./support/todo-steps.js";

const TEST_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 90_000;
const TODO_TOOLS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario, { whenExhausted: { text: "Nothing more to do." } });
	servers.push(server);
	return server;
}

async function claude(server: AnthropicServer, prompt: string, args: string[] = []) {
	const run = await runClaude(sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		env: TODO_TOOLS_OFF,
		args,
	});
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

function nudges(server: AnthropicServer): number {
	return server.mainRequests().filter((request) => !isSubagentRequest(request) && lastUserText(request).includes(NUDGE))
		.length;
}

/** boulder installed in the project and started on the resume plan; a first session ticks item A and pauses. */
async function firstSessionOnPlan() {
	await boulderOk("install", "claude-code", "--project");
	await writeProjectFiles(sandbox.project, RESUME_FILES);
	await boulderOk("start", "PLAN.md");
	const first = await serve([tick("A"), say("Item A is done."), say("Pausing here.")]);
	return { first, a: await claude(first, "Work through the plan.") };
}

const progress = (done: number, total: number): ReplyStep => claudeTodoWrite(statusesAt(done, total));
const LAZY: Scenario = [
	progress(0, 3),
	{ text: "Item A is under way; stopping here." },
	progress(1, 3),
	{ text: "Finished item A." },
	progress(2, 3),
	{ text: "Finished item B." },
	progress(3, 3),
	{ text: "All three items are done." },
];

const say = (text: string): ReplyStep => ({ text });
const tick = (item: string): ReplyStep => ({
	toolUses: [
		{
			name: "Bash",
			input: { command: `sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`, description: "tick" },
		},
	],
});

/** What a person reads in `boulder why`, for the record of this run. */
function show(title: string, text: string): void {
	process.stdout.write(`\n--- ${title}\n${text}`);
}

describe("a first day with Claude Code", () => {
	it(
		"carries a lazy agent to the end in a folder that is no git repository, once boulder is installed there",
		async () => {
			await rm(join(sandbox.project, ".git"), { recursive: true });
			const installed = await boulderOk("install", "claude-code", "--project");
			expect(installed).toContain("it is a project now");

			const server = await serve(LAZY);
			const run = await claude(server, "Work through the list.");

			expect(run.json?.result).toBe("All three items are done.");
			expect(nudges(server)).toBe(3);
			expect(await readdir(join(sandbox.project, ".boulder", "scopes"))).toHaveLength(1);
			const why = await boulderOk("why");
			show("why, in a folder with a project install", why);
			expect(why).toMatch(/continued/);
			expect(why).toMatch(/complete/i);
			expect(why).not.toContain("No decisions yet");
			const status = await boulderOk("status");
			expect(status).not.toContain("no works");
			expect(status).toMatch(/claude-code:.*its own list {2}nothing open, 3\/3 done/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries a lazy agent to the end in a folder that is no project, keeping its state out of the folder",
		async () => {
			await rm(join(sandbox.project, ".git"), { recursive: true });
			await boulderOk("install", "claude-code", "--user");
			const before = await readdir(sandbox.project);

			const server = await serve(LAZY);
			const run = await claude(server, "Work through the list.");

			expect(run.json?.result).toBe("All three items are done.");
			expect(nudges(server)).toBe(3);
			expect(await readdir(sandbox.project)).toEqual(before);
			expect(existsSync(join(sandbox.project, ".boulder"))).toBe(false);
			const why = await boulderOk("why");
			show("why, in a folder that is no project", why);
			expect(why).toMatch(/continued/);
			const doctor = await boulderIn(() => cliPlace(sandbox)).boulder("doctor");
			expect(doctor.stdout).toContain(`${sandbox.project} is in no project`);
			expect(doctor.stdout).toContain("boulder install <harness> --project");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"hands a plan from a session that ended to a fresh one with `boulder start`, and never to one that did not ask",
		async () => {
			const { first, a } = await firstSessionOnPlan();
			expect(nudges(first)).toBe(1);

			const unrelated = await serve([say("It holds a plan and a config.")]);
			const b = await claude(unrelated, "What is in this folder?");
			expect(nudges(unrelated)).toBe(0);
			const refused = await boulderOk("why", "--session", b.sessionId as string);
			show("why, for the session that shares the worktree", refused);
			expect(refused).toContain(`belongs to claude-code session ${a.sessionId}`);
			expect(refused).toContain("`boulder start PLAN.md` hands it to the next session that goes idle in this worktree");

			const handed = await boulderOk("start", "PLAN.md");
			show("boulder start on the active work", handed);
			expect(handed).toContain("Already active");
			expect(handed).toContain(
				`Handed over: the next other session that goes idle in this worktree joins it (bound so far: claude-code session ${a.sessionId}).`,
			);

			const second = await serve([tick("B"), say("Item B is done."), tick("C"), say("All three are done.")]);
			const c = await claude(second, "Pick up the plan.");
			expect(c.json?.result).toBe("All three are done.");
			expect(nudges(second)).toBe(1);
			expect(await readFile(join(sandbox.project, "PLAN.md"), "utf8")).not.toContain("- [ ]");
			const [work] = await readWorks(sandbox.project);
			expect(work).toMatchObject({ status: "completed" });
			expect(((work?.sessions ?? []) as { sessionId: string }[]).map((s) => s.sessionId)).toEqual([
				a.sessionId,
				c.sessionId,
			]);
			const finished = await boulderOk("why", "--session", c.sessionId as string);
			show("why, for the session the plan was handed to", finished);
			expect(finished).toMatch(/completed/);
			const decisions = await readDecisionLog(sandbox.project);
			expect(decisions.filter((record) => record.session === b.sessionId && record.kind === "inject")).toEqual([]);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"keeps a plan with the session that `claude --continue` picks up, and not with a fork (`--fork-session`, a new session id)",
		async () => {
			const { a } = await firstSessionOnPlan();

			const continued = await serve([tick("B"), say("Item B is done."), say("Resting.")]);
			const again = await claude(continued, "Go on.", ["--continue"]);
			expect(again.sessionId).toBe(a.sessionId);
			expect(nudges(continued)).toBe(1);

			const forked = await serve([say("A fork, looking around.")]);
			const fork = await claude(forked, "What now?", ["--resume", a.sessionId as string, "--fork-session"]);
			expect(fork.sessionId).not.toBe(a.sessionId);
			expect(nudges(forked)).toBe(0);
			const why = await boulderOk("why", "--session", fork.sessionId as string);
			show("why, for a fork of the bound session", why);
			expect(why).toContain("`boulder start PLAN.md` hands it to the next session");
		},
		TEST_TIMEOUT_MS,
	);
});
