/**
 * Resume context with the real Copilot CLI: a session that stopped with its
 * plan unfinished is resumed (`copilot -p … --resume=<id>`); its
 * sessionStart hook (`source: "resume"`) answers with `additionalContext`
 * naming the plan, the progress and the open items, which Copilot sends
 * first in the conversation, and the model's first request carries it. It
 * is no nudge: the resumed run's one automatic turn is still there, and the
 * decision log shows the context before the user's turn.
 *
 * Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runBoulder } from "./support/boulder-cli.js";
import { type CopilotSandbox, childEnv, createSandbox, readEventLogs, runCopilot } from "./support/copilot-run.js";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type Scenario,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const TEST_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 120_000;
const NUDGE = "[boulder · automatic continuation";
const CONTEXT = "[boulder · where the work stands";

const PLAN = `# Greetings

- [ ] Item A: write the greeting
- [ ] Item B: write the farewell
- [ ] Item C: write the thanks
`;

const servers: ScriptedModelServer[] = [];
let sandbox: CopilotSandbox;

beforeAll(() => {
	for (const file of [join(REPO, "dist", "cli", "main.js"), join(REPO, "dist", "hook", "boulder-hook.cjs")]) {
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	}
});

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "copilot", "--project");
	await writeFile(join(sandbox.project, "PLAN.md"), PLAN);
	// One automatic turn per episode: a context that counted as a nudge would leave the resumed run none.
	await writeFile(
		join(sandbox.project, "boulder.config.json"),
		JSON.stringify({ budgets: { autoTurns: 1, perItem: { autoTurns: 0 } } }),
	);
});

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox.dispose();
});

async function serve(scenario: Scenario): Promise<ScriptedModelServer> {
	const server = await startModelServer({ scenario, fallback: { text: "Still resting." } });
	servers.push(server);
	return server;
}

async function boulderOk(...args: string[]): Promise<string> {
	const result = await runBoulder(args, { cwd: sandbox.project, env: childEnv(sandbox, { baseUrl: "" }) });
	if (result.code !== 0) throw new Error(`boulder ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
	return result.stdout;
}

async function copilot(server: ScriptedModelServer, prompt: string, args: string[] = []) {
	const run = await runCopilot(sandbox, { prompt, baseUrl: server.baseUrl, args, timeoutMs: RUN_TIMEOUT_MS });
	expect(run.timedOut, run.stderr).toBe(false);
	expect(run.exitCode, run.stderr).toBe(0);
	return run;
}

async function decisions(): Promise<Record<string, unknown>[]> {
	const text = await readFile(join(sandbox.project, ".boulder", "decisions.jsonl"), "utf8");
	return text
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The conversation's user messages, in order, as text. */
function userTexts(request: RecordedRequest | undefined): string[] {
	return (request?.body.messages ?? [])
		.filter((message) => message.role === "user")
		.map((message) => contentText(message.content));
}

function nudges(server: ScriptedModelServer): number {
	return server.mainRequests().filter((request) => userTexts(request).at(-1)?.includes(NUDGE)).length;
}

const say = (text: string): ModelStep => ({ text });

describe("resume context with the real Copilot CLI", () => {
	it(
		"tells a resumed session where its plan stands, first in the conversation, without a nudge of its own",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([say("Not now."), say("Pausing here.")]);
			await copilot(first, "Work through the plan.");
			expect(nudges(first)).toBe(1);
			expect(first.mainRequests().some((request) => userTexts(request).some((text) => text.includes(CONTEXT)))).toBe(
				false,
			);
			const [log] = await readEventLogs(sandbox);
			expect(log?.session).toBeTruthy();
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item A."), say("Resting.")]);
			await copilot(second, "Where were we?", [`--resume=${log?.session}`]);

			const texts = userTexts(second.mainRequests()[0]);
			const context = texts[0] ?? "";
			expect(context).toMatch(/^\[boulder · where the work stands/);
			expect(context).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
			expect(context).toContain(
				"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
			);
			expect(context).toContain("Next: Item A: write the greeting");
			// The earlier conversation follows it, and the user's own prompt is the turn.
			expect(texts.at(-1)).toContain("Where were we?");
			expect(texts.filter((text) => text.includes(CONTEXT))).toHaveLength(1);
			// The one automatic turn of the resumed run's episode was still there to spend.
			expect(nudges(second)).toBe(1);

			const lines = (await decisions()).slice(before).map((record) => `${record.kind}:${record.reason}`);
			expect(lines[0]).toBe("event:resume-context");
			expect(lines.indexOf("event:resume-context")).toBeLessThan(lines.indexOf("event:user-turn"));
			expect(lines.filter((line) => line.startsWith("inject:"))).toHaveLength(1);
			expect(await boulderOk("why")).toMatch(/gave context/);
		},
		TEST_TIMEOUT_MS,
	);
});
