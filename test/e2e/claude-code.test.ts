/**
 * The Claude Code adapter end to end: the real `claude` binary, headless,
 * against the scripted model server, with boulder installed the way a user
 * installs it (`boulder install claude-code --project`, the real CLI) and
 * explained the way a user asks (`boulder why`). Assertions are on what the
 * model received and on what boulder says; never on timings.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { execFile } from "node:child_process";
import { cp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	isTaskNotificationTurn,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	type ServerOptions,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import {
	type ClaudeRunResult,
	type ClaudeSandbox,
	cliPlace,
	createSandbox,
	runClaude,
	spawnClaude,
	waitFor,
} from "./support/claude-run.js";
import {
	carriesNudge,
	expectSubagentRanUnnudged,
	SUBAGENT_PROMPT,
	serveSubagentScenario,
} from "./support/subagent-scenario.js";
import {
	CLAUDE_HOOK,
	type DecisionRecord,
	NUDGE,
	REPO,
	readDecisionLog,
	requireBuilt,
	waitUntil,
	writeProjectFiles,
} from "./support/suite.js";
import { statusesAt, claudeTodoWrite as todoWrite } from "./support/todo-steps.js";
import { expectVerifiedWork, VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 150_000;
const TODO_TOOLS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulder, boulderOk } = boulderIn(() => cliPlace(sandbox));
const decisions = () => readDecisionLog(sandbox.project);

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario, options: ServerOptions = {}): Promise<AnthropicServer> {
	const server = await startAnthropicServer(scenario, options);
	servers.push(server);
	return server;
}

async function claude(
	server: AnthropicServer,
	prompt: string,
	options: { resume?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<ClaudeRunResult> {
	const run = await runClaude(sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		...(options.resume ? { resume: options.resume } : {}),
		...(options.env ? { env: options.env } : {}),
		...(options.args ? { args: options.args } : {}),
	});
	expect(run.timedOut, run.stderr).toBe(false);
	return run;
}

/** Main requests of the agent itself (not of a subagent). */
function agentRequests(server: AnthropicServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => !isSubagentRequest(request));
}

/** How many requests arrived right after a boulder nudge (the nudge is their last user message). */
function nudges(server: AnthropicServer): number {
	return agentRequests(server).filter((request) => lastUserText(request).includes(NUDGE)).length;
}

/**
 * The subagent scenario's shared checks (`expectSubagentRanUnnudged`), and
 * this suite's: no request of the agent's session carried a nudge, the
 * parent's Stop found the work complete once, and the subagent's notification
 * opened no episode of its own.
 */
async function expectNoNudgeAroundTheSubagent(server: AnthropicServer, turns: number): Promise<void> {
	const log = await decisions();
	expectSubagentRanUnnudged(server, turns, log);
	expect(agentRequests(server).some(carriesNudge)).toBe(false);
	expect(log.filter(isParentComplete)).toHaveLength(1);
	// The notification is not the user writing: one episode, the prompt's.
	expect(log.filter((record) => record.reason === "user-turn")).toHaveLength(1);
}

/** A decision on the parent session (a subagent's has no scope), not an event such as the user's turn. */
function isParentDecision(record: DecisionRecord): boolean {
	return record.kind !== "event" && typeof record.scope === "string";
}

/** The parent session's Stop found every item done and let it stop. */
function isParentComplete(record: DecisionRecord): boolean {
	return record.kind === "complete" && isParentDecision(record);
}

/** `done` items completed, the next one in progress, the rest pending. */
function progress(done: number, total: number): ReplyStep {
	return todoWrite(statusesAt(done, total));
}

function say(text: string): ReplyStep {
	return { text };
}

describe("boulder with the real Claude Code", () => {
	it(
		"carries a lazy agent through all four todos (TodoWrite), then lets it stop",
		async () => {
			const server = await serve([
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

			const run = await claude(server, "Work through the list.", { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(run.json?.result).toBe("All four items are done.");
			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(3);
			const firstNudge = agentRequests(server).find((request) => lastUserText(request).includes(NUDGE));
			expect(lastUserText(firstNudge as RecordedRequest)).toMatch(/1 of 4 done[\s\S]*Item B/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"carries a lazy agent through four tasks made with the Task tools",
		async () => {
			const create = (subject: string) => ({ name: "TaskCreate", input: { subject, description: `Do ${subject}.` } });
			const complete = (taskId: string): ReplyStep => ({
				toolUses: [{ name: "TaskUpdate", input: { taskId, status: "completed" } }],
			});
			const server = await serve([
				{ toolUses: [create("Item A"), create("Item B"), create("Item C"), create("Item D")] },
				complete("1"),
				say("Finished one task."),
				complete("2"),
				say("Finished another."),
				complete("3"),
				say("And another."),
				complete("4"),
				say("All four tasks are done."),
			]);

			const run = await claude(server, "Work through the tasks.");

			expect(run.exitCode).toBe(0);
			expect(run.json?.result).toBe("All four tasks are done.");
			expect(server.exhaustedCount()).toBe(0);
			expect(nudges(server)).toBe(3);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops a stalled agent after three nudges without progress, and says why",
		async () => {
			const server = await serve([
				progress(0, 2),
				say("I will look into it."),
				say("Still thinking about it."),
				say("Still thinking."),
				say("Thinking some more."),
			]);

			const run = await claude(server, "Fix both items.", { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(agentRequests(server)).toHaveLength(5);
			expect(nudges(server)).toBe(3);
			expect(await boulderOk("why")).toMatch(/last 3 nudges brought no progress/);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"does not nudge an agent that asked the user to choose",
		async () => {
			const server = await serve([
				progress(0, 3),
				say("Before I go on: should I store the data in Postgres or SQLite? Let me know which you prefer."),
			]);

			const run = await claude(server, "Build the store.", { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(agentRequests(server)).toHaveLength(2);
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
			const bash = (command: string): ReplyStep => ({
				toolUses: [{ name: "Bash", input: { command, description: "edit" } }],
			});
			const server = await serve([
				bash("sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md"),
				say("Ticked the item."),
				bash("echo hello > greeting.txt"),
				say("Wrote the greeting; the check passes now."),
			]);

			const run = await claude(server, "Roll the plan.");

			expect(run.exitCode).toBe(0);
			expect(server.exhaustedCount()).toBe(0);
			const requests = agentRequests(server);
			expect(requests).toHaveLength(4);
			const nudge = lastUserText(requests[2] as RecordedRequest);
			expect(nudge).toContain(NUDGE);
			expect(nudge).toContain(VERIFY_FAILURE);
			expect(nudge).toContain("node check.mjs");
			await expectVerifiedWork(sandbox.project);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"lets a subagent stop without a nudge",
		async () => {
			const { server, turns } = await serveSubagentScenario(serve);

			const run = await claude(server, SUBAGENT_PROMPT, { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			await expectNoNudgeAroundTheSubagent(server, turns());
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"lets a subagent that ends after the parent's turn stop without a nudge; its notification turn is the harness's",
		async () => {
			// The subagent's answer waits until the parent's Stop has decided, so its end comes in a turn of its own
			// (or, were the parent nudged, after the nudge, which the checks then see).
			const parentDecided = () =>
				waitUntil(
					async () => (await readDecisionLog(sandbox.project, { missingIsEmpty: true })).some(isParentDecision),
					"the parent's Stop decided",
					RUN_TIMEOUT_MS,
				);
			const { server, turns } = await serveSubagentScenario(serve, parentDecided);

			const run = await claude(server, SUBAGENT_PROMPT, { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(agentRequests(server).filter(isTaskNotificationTurn)).toHaveLength(1);
			await expectNoNudgeAroundTheSubagent(server, turns());
			// The Stop after the notification turn follows the policy: the work is done, nothing to nudge about.
			expect(await decisions()).toContainEqual(
				expect.objectContaining({ kind: "skip", reason: "no-open-work", scope: expect.any(String) }),
			);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"stops at the episode's turn budget; the user's next prompt (--resume) opens a fresh episode",
		async () => {
			await writeFile(
				join(sandbox.project, "boulder.config.json"),
				JSON.stringify({ budgets: { autoTurns: 2, perItem: { autoTurns: 0 } } }),
			);
			const first = await serve([
				progress(0, 5),
				say("Starting."),
				progress(1, 5),
				say("One done."),
				progress(2, 5),
				say("Two done."),
			]);

			const run = await claude(first, "Do all five.", { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(first.exhaustedCount()).toBe(0);
			expect(nudges(first)).toBe(2);
			expect(await boulderOk("why")).toMatch(/the 2 automatic turns it had earned/);

			const second = await serve([say("Picking it up again."), progress(3, 5), say("Three done.")], {
				whenExhausted: say("Resting."),
			});
			const resumed = await claude(second, "Keep going, please.", { resume: run.sessionId, env: TODO_TOOLS_OFF });

			expect(resumed.exitCode).toBe(0);
			expect(resumed.sessionId).toBe(run.sessionId);
			expect(nudges(second)).toBe(2);
			expect(lastUserText(agentRequests(second)[1] as RecordedRequest)).toContain(NUDGE);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"`boulder stop` between turns holds across --resume; `boulder go` turns it back on",
		async () => {
			const first = await serve([progress(0, 3), say("Should I start with item A or item B? Which do you prefer?")]);
			const run = await claude(first, "Do the three items.", { env: TODO_TOOLS_OFF });
			expect(nudges(first)).toBe(0);

			expect(await boulderOk("stop")).toMatch(/Stopped/);

			const second = await serve([progress(1, 3), say("Item A is done.")]);
			await claude(second, "Start with A, then do the rest.", { resume: run.sessionId, env: TODO_TOOLS_OFF });
			const third = await serve([say("I will carry on later.")]);
			await claude(third, "Carry on.", { resume: run.sessionId, env: TODO_TOOLS_OFF });

			expect(nudges(second)).toBe(0);
			expect(nudges(third)).toBe(0);
			expect(await boulderOk("why")).toMatch(/boulder stop/);

			await boulderOk("go");
			const fourth = await serve([say("Going on.")], { whenExhausted: say("Still here.") });
			await claude(fourth, "Go on.", { resume: run.sessionId, env: TODO_TOOLS_OFF });
			expect(nudges(fourth)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"lets the agent stop normally on a corrupt state file, keeps the file aside, and `boulder doctor` reports it",
		async () => {
			const server = await serve([
				progress(0, 2),
				{
					toolUses: [
						{
							name: "Bash",
							input: {
								command: "for f in .boulder/scopes/*.json; do printf '{garbage' > \"$f\"; done",
								description: "x",
							},
						},
					],
				},
				say("Done for now."),
			]);

			const run = await claude(server, "Work on the items.", { env: TODO_TOOLS_OFF });

			expect(run.exitCode).toBe(0);
			expect(run.json?.result).toBe("Done for now.");
			expect(agentRequests(server)).toHaveLength(3);
			expect(nudges(server)).toBe(0);
			const aside = (await readdir(join(sandbox.project, ".boulder", "scopes"))).filter((name) =>
				name.includes("corrupt"),
			);
			expect(aside).toHaveLength(1);
			expect(await readFile(join(sandbox.project, ".boulder", "scopes", aside[0] as string), "utf8")).toBe("{garbage");
			const doctor = await boulder("doctor");
			expect(`${doctor.stdout}${doctor.stderr}`).toContain(aside[0]);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"works as a plugin: its hooks nudge, and /boulder:status shows boulder's status without restarting the episode",
		async () => {
			await boulderOk("uninstall", "claude-code", "--project");
			const plugin = ["--plugin-dir", await pluginCopy(join(sandbox.root, "plugin"))];
			const first = await serve([progress(0, 2), say("Stopping here.")], { whenExhausted: say("Still stopping.") });
			const run = await claude(first, "Do both items.", { env: TODO_TOOLS_OFF, args: plugin });
			expect(nudges(first)).toBe(3);

			const second = await serve([say("Here is boulder's status.")]);
			await claude(second, "/boulder:status", { resume: run.sessionId, env: TODO_TOOLS_OFF, args: plugin });

			const [request] = agentRequests(second);
			// The resumed session was told where its list stands (SessionStart), but status's last line is still
			// the last decision: a note along the way is not where things stand. `why` lists both.
			const status = lastUserText(request as RecordedRequest);
			expect(status).toMatch(/boulder's status:[\s\S]*no progress/);
			expect(status).not.toMatch(/gave context/);
			expect(await boulderOk("why")).toMatch(/no progress[\s\S]*gave context/);
			expect(agentRequests(second)).toHaveLength(1);
			expect((await decisions()).at(-1)).toMatchObject({ kind: "skip", reason: "awaiting-user" });
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"honours the user's interrupt, read from the transcript, until the user writes again",
		async () => {
			const first = await serve([
				progress(0, 2),
				// Not a standalone `sleep`: 2.1.332's Bash tool refuses one (and one followed by other commands).
				{ toolUses: [{ name: "Bash", input: { command: "echo working && sleep 30", description: "wait" } }] },
			]);
			const running = spawnClaude(sandbox, {
				prompt: "Do both items.",
				baseUrl: first.url,
				env: TODO_TOOLS_OFF,
				timeoutMs: RUN_TIMEOUT_MS,
			});
			await waitFor(() => (agentRequests(first).length >= 2 ? true : undefined), 30_000);
			await waitFor(async () => ((await sleepRunning()) ? true : undefined), 15_000);
			// Only claude itself, as a terminal's Ctrl-C would reach it: signalling the whole group would also
			// end the tool's `sleep`, and the tool could finish before claude saw the interrupt.
			process.kill(running.pid as number, "SIGINT");
			const interrupted = await running.done;
			expect(interrupted.timedOut).toBe(false);
			await ensureInterruptLine(interrupted.sessionId ?? (await onlySession()));

			const second = await serve([say("Where was I?")], { whenExhausted: say("Carrying on.") });
			await claude(second, "Carry on.", { resume: await onlySession(), env: TODO_TOOLS_OFF });

			const reasons = (await decisions()).map((record) => `${record.kind}:${record.reason}`);
			const aborted = reasons.indexOf("event:user-aborted");
			expect(aborted).toBeGreaterThan(-1);
			expect(reasons.indexOf("event:user-turn", aborted)).toBeGreaterThan(aborted);
			expect(nudges(second)).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);
});

/** Whether the scripted `sleep 30` has started (so the interrupt lands while the tool runs). */
async function sleepRunning(): Promise<boolean> {
	const { stdout } = await promisify(execFile)("ps", ["-eo", "args"]);
	return stdout.split("\n").some((line) => line.includes("sleep 30") && !line.includes("ps -eo"));
}

async function onlySession(): Promise<string> {
	const projects = join(sandbox.home, ".claude", "projects");
	for (const folder of await readdir(projects)) {
		const files = (await readdir(join(projects, folder))).filter((name) => name.endsWith(".jsonl"));
		if (files[0]) return files[0].replace(/\.jsonl$/, "");
	}
	throw new Error("no session transcript");
}

/**
 * Claude Code writes `[Request interrupted by user for tool use]` when the
 * user interrupts a running tool. Headless, it sometimes exits on SIGINT
 * before that line reaches the file (an interactive Esc does not exit); when
 * it did not, the line is added here in the harness's own shape, so the rest
 * of the scenario — reading it on the next event — is always exercised.
 */
async function ensureInterruptLine(sessionId: string): Promise<void> {
	const projects = join(sandbox.home, ".claude", "projects");
	for (const folder of await readdir(projects)) {
		const file = join(projects, folder, `${sessionId}.jsonl`);
		const text = await readFile(file, "utf8").catch(() => null);
		if (text === null) continue;
		if (text.includes("[Request interrupted by user")) return;
		const last = text
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as Record<string, unknown>)
			.findLast((line) => typeof line.uuid === "string");
		const line = {
			parentUuid: last?.uuid ?? null,
			isSidechain: false,
			type: "user",
			message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user for tool use]" }] },
			uuid: "00000000-0000-4000-8000-00000000e5c0",
			timestamp: new Date().toISOString(),
			sessionId,
			cwd: sandbox.project,
		};
		await writeFile(file, `${text}${JSON.stringify(line)}\n`);
		return;
	}
	throw new Error(`no transcript for ${sessionId}`);
}

/**
 * The plugin as the npm package ships it (its `files`), not the whole
 * repository: Claude Code reads a plugin folder at start-up, and the
 * repository's node_modules and tests are no part of the plugin. The built
 * code and the runtime dependencies are linked, not copied.
 */
async function pluginCopy(dir: string): Promise<string> {
	for (const part of [".claude-plugin", "hooks", "commands", "bin", "package.json"]) {
		await cp(join(REPO, part), join(dir, part), { recursive: true });
	}
	await symlink(join(REPO, "dist"), join(dir, "dist"));
	await symlink(join(REPO, "node_modules"), join(dir, "node_modules"));
	return dir;
}
