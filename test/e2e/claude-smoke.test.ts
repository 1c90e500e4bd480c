/**
 * Proves the Claude Code end-to-end infrastructure: the real binary, run
 * headless against the scripted model server, executes project hooks and
 * feeds a Stop hook's block reason back to the model.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	type AnthropicServer,
	deferredToolNames,
	lastUserText,
	type MessagesBody,
	type RecordedRequest,
	type Scenario,
	startAnthropicServer,
	toolNames,
	toolResults,
} from "./support/anthropic-server.js";
import { type ClaudeSandbox, createSandbox, runClaude, writeProjectSettings } from "./support/claude-run.js";
import { readJsonLines } from "./support/suite.js";

const RUN_TIMEOUT_MS = 40_000;
const TEST_TIMEOUT_MS = 60_000;
const MARKER = "boulder-smoke: two items are still open, keep going";

// Blocks the first stop only: a flag file next to the script remembers that it already did.
const STOP_ONCE_HOOK = `
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
const [log, flag, reason] = process.argv.slice(2);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
	appendFileSync(log, input.trim() + "\\n");
	if (existsSync(flag)) return;
	writeFileSync(flag, "blocked");
	process.stdout.write(JSON.stringify({ decision: "block", reason }));
});
`;

const RECORD_HOOK = `
import { appendFileSync } from "node:fs";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => appendFileSync(process.argv[2], input.trim() + "\\n"));
`;

let server: AnthropicServer | undefined;
let sandbox: ClaudeSandbox;

beforeEach(async () => {
	sandbox = await createSandbox();
});

afterEach(async () => {
	await server?.close();
	server = undefined;
	await sandbox.dispose();
});

async function start(scenario: Scenario): Promise<AnthropicServer> {
	server = await startAnthropicServer(scenario);
	return server;
}

/** Writes a hook script into the sandbox and returns the shell command running it. */
async function hookCommand(name: string, source: string, args: string[]): Promise<string> {
	const script = join(sandbox.root, name);
	await writeFile(script, source);
	return [process.execPath, script, ...args].map((part) => JSON.stringify(part)).join(" ");
}

function itemAt<T>(items: readonly T[], index: number): T {
	const item = items[index];
	if (item === undefined) throw new Error(`expected an item at ${index}, got ${items.length} items`);
	return item;
}

describe("Claude Code headless against the scripted server", () => {
	it(
		"feeds a Stop hook's block reason to the model once, then lets the run end",
		async () => {
			const model = await start([{ text: "First pass done." }, { text: "Second pass done." }]);
			const log = join(sandbox.root, "stop-inputs.jsonl");
			const command = await hookCommand("stop-once.mjs", STOP_ONCE_HOOK, [log, `${log}.flag`, MARKER]);
			await writeProjectSettings(sandbox, { hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });

			const run = await runClaude(sandbox, {
				prompt: "Work through the list.",
				baseUrl: model.url,
				timeoutMs: RUN_TIMEOUT_MS,
			});

			expect(run.timedOut).toBe(false);
			expect(run.exitCode).toBe(0);
			expect(run.json?.result).toBe("Second pass done.");
			const main = model.mainRequests();
			expect(main).toHaveLength(2);
			expect(lastUserText(itemAt(main, 0))).not.toContain(MARKER);
			expect(lastUserText(itemAt(main, 1))).toContain(MARKER);
			const stops = await readJsonLines(log, { missingIsEmpty: true });
			expect(stops.map((input) => input.stop_hook_active)).toEqual([false, true]);
			expect(stops[0]?.session_id).toBe(run.sessionId);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"hands TodoWrite's todos to a PostToolUse hook when the Task tools are off",
		async () => {
			const todos = [
				{ content: "Write the parser", status: "in_progress", activeForm: "Writing the parser" },
				{ content: "Test the parser", status: "pending", activeForm: "Testing the parser" },
			];
			const model = await start([
				{ text: "Planning.", toolUses: [{ name: "TodoWrite", input: { todos } }] },
				{ text: "Done." },
			]);
			const log = join(sandbox.root, "post-tool-use.jsonl");
			const command = await hookCommand("record.mjs", RECORD_HOOK, [log]);
			await writeProjectSettings(sandbox, {
				hooks: { PostToolUse: [{ matcher: "TodoWrite", hooks: [{ type: "command", command }] }] },
			});

			const run = await runClaude(sandbox, {
				prompt: "Plan the parser work.",
				baseUrl: model.url,
				env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
				timeoutMs: RUN_TIMEOUT_MS,
			});

			expect(run.timedOut).toBe(false);
			expect(run.exitCode).toBe(0);
			const main = model.mainRequests();
			expect(main).toHaveLength(2);
			// 2.1.332: deferred, named in a system message; the scripted model loads it with ToolSearch first.
			expect(toolNames(itemAt(main, 0))).not.toContain("TodoWrite");
			expect([...deferredToolNames(itemAt(main, 0).body as MessagesBody)]).toContain("TodoWrite");
			const [loaded] = model.loadRequests();
			expect(toolNames(loaded as RecordedRequest)).toContain("TodoWrite");
			expect(toolResults(itemAt(main, 1)).map((result) => result.is_error)).toEqual([false, false]);
			const inputs = await readJsonLines(log, { missingIsEmpty: true });
			expect(inputs).toHaveLength(1);
			expect(inputs[0]).toMatchObject({
				hook_event_name: "PostToolUse",
				session_id: run.sessionId,
				tool_name: "TodoWrite",
				tool_input: { todos },
				tool_response: { oldTodos: [], newTodos: todos },
			});
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"offers no todo tool at all, not even deferred, unless CLAUDE_CODE_ENABLE_TODO_TOOLS is set (2.1.233 and later)",
		async () => {
			const model = await start([{ text: "Done." }]);

			const run = await runClaude(sandbox, {
				prompt: "Plan the parser work.",
				baseUrl: model.url,
				env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "" },
				timeoutMs: RUN_TIMEOUT_MS,
			});

			expect(run.exitCode).toBe(0);
			const first = itemAt(model.mainRequests(), 0);
			const offered = [...toolNames(first), ...deferredToolNames(first.body as MessagesBody)];
			for (const tool of ["TodoWrite", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet"]) {
				expect(offered).not.toContain(tool);
			}
			expect(offered).toContain("ToolSearch");
		},
		TEST_TIMEOUT_MS,
	);
});
