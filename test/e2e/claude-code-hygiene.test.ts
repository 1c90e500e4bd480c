/**
 * Todo hygiene with the real Claude Code: an agent that writes its list, then
 * changes files again and again without touching it, reads one reminder to
 * update the list, on the result of the edit that reached the threshold
 * (`PreToolUse` context), and never again in that stretch; no turn of its
 * own, no nudge. Subagents are never reminded.
 *
 * Needs `npm run build`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	isTaskNotificationTurn,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	startAnthropicServer,
	stringsIn,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { CLAUDE_HOOK, NUDGE, readWorks, requireBuilt } from "./support/suite.js";
import { claudeTodoWrite as todoWrite } from "./support/todo-steps.js";

const TEST_TIMEOUT_MS = 180_000;
const REMINDER = "[boulder · todo list]";
const PLAN_REMINDER = "[boulder · plan]";
const TODO_TOOLS_OFF = { CLAUDE_CODE_ENABLE_TASKS: "0" };
const THRESHOLD = 3;

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
	await writeFile(
		join(sandbox.project, "boulder.config.json"),
		JSON.stringify({ hygiene: { editsBeforeReminder: THRESHOLD } }),
	);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

const write = (file: string): ReplyStep => ({
	toolUses: [{ name: "Write", input: { file_path: join(sandbox.project, file), content: `${file}\n` } }],
});

/** How often a reminder (of a todo list or a plan) appears in a request: each turn resends the whole conversation. */
function reminders(request: RecordedRequest | undefined): number {
	return stringsIn(request?.body).filter((text) => text.includes(REMINDER) || text.includes(PLAN_REMINDER)).length;
}

describe("todo hygiene with the real Claude Code", () => {
	it(
		"reminds an agent that edits without updating its list once per stretch, on a tool result, with no nudge",
		async () => {
			const steps: ReplyStep[] = [
				todoWrite(["in_progress", "pending"]),
				write("a1.txt"),
				write("a2.txt"),
				write("a3.txt"),
				write("a4.txt"),
				write("a5.txt"),
				todoWrite(["completed", "completed"]),
				{ text: "Both items are done." },
			];
			let turn = 0;
			const server = await startAnthropicServer(({ request }) =>
				isSubagentRequest(request) ? { text: "Subagent: done." } : (steps[turn++] ?? { text: "Done." }),
			);
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "Do items A and B.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: TODO_TOOLS_OFF,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			expect(turn).toBe(steps.length);
			const requests = server.mainRequests().filter((request) => !isSubagentRequest(request));
			// Request i answers step i-1: requests 1-3 follow the list and the first two edits.
			expect(requests.slice(0, THRESHOLD).map(reminders)).toEqual([0, 0, 0]);
			// The third edit's result carries it, once, and it stays once: edits 4 and 5 add none.
			expect(requests.slice(THRESHOLD + 1, 7).map(reminders)).toEqual([1, 1, 1]);
			const reminded = stringsIn(requests[THRESHOLD + 1]?.body).find((text) => text.includes(REMINDER)) ?? "";
			expect(reminded).toContain("changed files 3 times since your todo list last changed");
			expect(reminded).toContain("2 open items");
			// Not a turn of its own: one request per scripted step, and nothing was nudged.
			expect(requests).toHaveLength(steps.length);
			expect(requests.filter((request) => lastUserText(request).includes(NUDGE))).toEqual([]);
			expect(await readFile(join(sandbox.project, "a5.txt"), "utf8")).toBe("a5.txt\n");
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/reminded.*changed files 3 times since its todo list last changed/);
			const log = await readFile(join(sandbox.project, ".boulder", "decisions.jsonl"), "utf8");
			expect(log.split("\n").filter((line) => line.includes('"todo-reminder"'))).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"counts against the bound plan: a tick starts a new stretch, a subagent's edits never count, the plan reminder comes once",
		async () => {
			await writeFile(join(sandbox.project, "PLAN.md"), "# Ship\n\n- [ ] Item A\n- [ ] Item B\n");
			await boulderOk("start", "PLAN.md");
			const bash = (command: string): ReplyStep => ({
				toolUses: [{ name: "Bash", input: { command, description: "run" } }],
			});
			const tick = (item: string) => bash(`sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`);
			const steps: ReplyStep[] = [
				write("a1.txt"),
				{
					toolUses: [
						{
							name: "Agent",
							input: { description: "Item A", prompt: "Write s1 to s3.", subagent_type: "general-purpose" },
						},
					],
				},
				write("a2.txt"),
				tick("A"),
				write("a3.txt"),
				write("a4.txt"),
				write("a5.txt"),
				tick("B"),
				{ text: "Both items are done." },
			];
			let turn = 0;
			const server = await startAnthropicServer(({ request }) => {
				// The subagent runs in the background: should it end after the agent's last turn, Claude Code brings
				// its end in a turn of its own, the harness's, which takes no step.
				if (isTaskNotificationTurn(request)) return { text: "The subagent is done." };
				if (!isSubagentRequest(request)) return steps[turn++] ?? { text: "Done." };
				if (stringsIn(request.body).some((text) => text.includes("s3.txt"))) return { text: "Subagent: done." };
				return {
					toolUses: ["s1.txt", "s2.txt", "s3.txt"]
						.map((file) => write(file).toolUses?.[0])
						.filter((use) => use !== undefined),
				};
			});
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "Work through the plan.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: TODO_TOOLS_OFF,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			expect(turn).toBe(steps.length);
			const requests = server
				.mainRequests()
				.filter((request) => !isSubagentRequest(request) && !isTaskNotificationTurn(request));
			expect(requests).toHaveLength(steps.length);
			// Only the fifth main edit (the third since the tick) carries it: request 7 answers step 7.
			expect(requests.map(reminders)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1]);
			const reminded = stringsIn(requests[7]?.body).find((text) => text.includes("[boulder · plan]")) ?? "";
			expect(reminded).toContain('changed files 3 times since the plan "Ship" (`PLAN.md`) last changed');
			expect(reminded).toContain("1 open item.");
			const subagentRequests = server.mainRequests().filter(isSubagentRequest);
			expect(subagentRequests.length).toBeGreaterThan(0);
			expect(subagentRequests.map(reminders).every((count) => count === 0)).toBe(true);
			expect(await readFile(join(sandbox.project, "s3.txt"), "utf8")).toBe("s3.txt\n");
			expect((await readWorks(sandbox.project))[0]?.status).toBe("completed");
		},
		TEST_TIMEOUT_MS,
	);
});
