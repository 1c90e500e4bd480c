/**
 * The real Claude Code names its transcript in every hook event
 * (`transcript_path`): boulder keeps it on the session's state, and
 * `boulder status --json` (the dashboard's card too) gives that path, a file
 * Claude Code really wrote.
 */
import { stat } from "node:fs/promises";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AnthropicServer, startAnthropicServer } from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { CLAUDE_HOOK, requireBuilt } from "./support/suite.js";
import { statusesAt, claudeTodoWrite as todoWrite } from "./support/todo-steps.js";

const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 150_000;

let server: AnthropicServer | undefined;
let sandbox: ClaudeSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(CLAUDE_HOOK));

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "claude-code", "--project");
});

afterEach(async () => {
	await server?.close();
	server = undefined;
	await sandbox.dispose();
});

describe("the transcript path, with the real Claude Code", () => {
	it(
		"is kept on the session's state and given by `boulder status --json`, where Claude Code wrote it",
		async () => {
			server = await startAnthropicServer([todoWrite(statusesAt(1, 1)), { text: "Done." }]);
			const run = await runClaude(sandbox, {
				prompt: "Do the one thing.",
				baseUrl: server.url,
				timeoutMs: RUN_TIMEOUT_MS,
				env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
			});
			expect(run.timedOut, run.stderr).toBe(false);
			expect(run.exitCode, run.stderr).toBe(0);

			const status = JSON.parse(await boulderOk("status", "--json")) as {
				worktrees: { standings: { sessionId: string | null; transcriptPath: string | null }[] }[];
			};
			const [session] = status.worktrees[0]?.standings ?? [];
			expect(session?.transcriptPath).toMatch(/\.jsonl$/);
			expect(session?.transcriptPath).toContain(session?.sessionId ?? "no session id");
			expect((await stat(session?.transcriptPath ?? "")).isFile()).toBe(true);
		},
		TEST_TIMEOUT_MS,
	);
});
