/**
 * Orchestrate mode with a background subagent, the real Claude Code 2.1.332:
 * the Agent tool runs subagents in the background by default, so the tool's
 * result is only the launch ("async_launched"), and the subagent's end reaches
 * the parent as a `<task-notification>` turn. Orchestrate's verification note
 * (check the item's work before ticking it) rides on that turn, as context,
 * naming the item and its criteria.
 *
 * Needs `npm run build`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type RecordedRequest,
	type ReplyStep,
	startAnthropicServer,
	stringsIn,
	toolResults,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { ORCHESTRATE_PLAN } from "./support/orchestrate.js";
import { CLAUDE_HOOK, readDecisionLog, requireBuilt } from "./support/suite.js";

const TEST_TIMEOUT_MS = 180_000;
const NOTE = "A subagent returned";

const servers: AnthropicServer[] = [];
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
	await writeFile(join(sandbox.project, "PLAN.md"), ORCHESTRATE_PLAN.replace(/- \[ \] Item B[\s\S]*$/, ""));
	await mkdir(join(sandbox.project, "src"), { recursive: true });
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

const say = (text: string): ReplyStep => ({ text });

describe("orchestrate mode with a background subagent (Claude Code 2.1.332)", () => {
	it(
		"puts the verification note on the <task-notification> turn that brings the subagent's result",
		async () => {
			await boulderOk("start", "PLAN.md");
			let parentTurn = 0;
			const server = await startAnthropicServer(({ request }: { request: RecordedRequest }) => {
				if (isSubagentRequest(request)) {
					if (toolResults(request).length > 0) return { text: "Subagent: done.", delayMs: 2_000 };
					return {
						toolUses: [
							{ name: "Write", input: { file_path: join(sandbox.project, "greeting.txt"), content: "hello\n" } },
						],
					};
				}
				parentTurn++;
				if (parentTurn === 1) {
					const description = "Item A: write the greeting";
					return {
						toolUses: [
							{
								name: "Agent",
								input: { description, prompt: `${description}.`, subagent_type: "general-purpose" },
							},
						],
					};
				}
				if (lastUserText(request).includes("<task-notification>")) {
					return {
						toolUses: [
							{ name: "Bash", input: { command: "sed -i 's/- \\[ \\]/- [x]/g' PLAN.md", description: "tick" } },
						],
					};
				}
				return say(parentTurn === 2 ? "Waiting for the helper." : "Item A is done.");
			});
			servers.push(server);

			const run = await runClaude(sandbox, {
				prompt: "Orchestrate the plan.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
			});

			expect(run.timedOut, run.stderr).toBe(false);
			const parent = server.mainRequests().filter((request) => !isSubagentRequest(request));
			const notified = parent.find((request) => lastUserText(request).includes("<task-notification>"));
			expect(notified, "the subagent's end reached the parent as a <task-notification> turn").toBeDefined();
			const withNote = stringsIn(notified?.body).join("\n");
			expect(withNote).toContain(NOTE);
			expect(withNote).toContain('"Item A: write the greeting"');
			expect(withNote).toContain("greeting.txt says hello");
			const returned = (await readDecisionLog(sandbox.project)).filter(
				(record) => record.reason === "subagent-returned",
			);
			expect(returned).toHaveLength(1);
		},
		TEST_TIMEOUT_MS,
	);
});
