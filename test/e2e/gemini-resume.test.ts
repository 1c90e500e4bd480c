/**
 * Resume context with the real Gemini CLI: a session that stopped with its
 * plan unfinished is resumed (`gemini -p … --resume <id>`); its SessionStart
 * hook (`source: "resume"`) adds context naming the plan, the progress and
 * the open items, which Gemini CLI puts before the prompt, and the model's
 * first request carries it. It is no nudge: the resumed run's one automatic
 * turn is still there, and the decision log shows the context before the
 * user's turn.
 *
 * Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runBoulder } from "./support/boulder-cli.js";
import { createSandbox, type GeminiSandbox, runGemini, sandboxEnv } from "./support/gemini-run.js";
import {
	GeminiServer,
	type GeminiServerOptions,
	type GeminiStep,
	lastPromptText,
	type Scenario,
	textsIn,
} from "./support/gemini-server.js";

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

const servers: GeminiServer[] = [];
let sandbox: GeminiSandbox;

beforeAll(() => {
	for (const file of [join(REPO, "dist", "cli", "main.js"), join(REPO, "dist", "hook", "boulder-hook.cjs")]) {
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	}
});

beforeEach(async () => {
	sandbox = await createSandbox();
	await boulderOk("install", "gemini", "--project");
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

async function serve(scenario: Scenario, options: GeminiServerOptions = {}): Promise<GeminiServer> {
	const server = await GeminiServer.start(scenario, options);
	servers.push(server);
	return server;
}

async function boulderOk(...args: string[]): Promise<string> {
	const result = await runBoulder(args, { cwd: sandbox.project, env: sandboxEnv(sandbox) });
	if (result.code !== 0) throw new Error(`boulder ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
	return result.stdout;
}

async function gemini(server: GeminiServer, prompt: string, resume?: string) {
	const run = await runGemini(sandbox, {
		prompt,
		baseUrl: server.url,
		timeoutMs: RUN_TIMEOUT_MS,
		...(resume ? { resume } : {}),
	});
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

function nudges(server: GeminiServer): number {
	return server.mainRequests().filter((request) => lastPromptText(request).includes(NUDGE)).length;
}

const say = (text: string): GeminiStep => ({ text });

describe("resume context with the real Gemini CLI", () => {
	it(
		"tells a resumed session where its plan stands, before the user's prompt, without a nudge of its own",
		async () => {
			await boulderOk("start", "PLAN.md");
			const first = await serve([say("Not now."), say("Pausing here.")]);
			const run = await gemini(first, "Work through the plan.");
			expect(nudges(first)).toBe(1);
			expect(first.mainRequests().some((request) => textsIn(request).some((text) => text.includes(CONTEXT)))).toBe(
				false,
			);
			const session = run.json?.session_id;
			expect(session).toBeTruthy();
			const before = (await decisions()).length;

			const second = await serve([say("Picking it up at item A."), say("Resting.")], {
				whenExhausted: say("Still resting."),
			});
			await gemini(second, "Where were we?", session);

			const [firstRequest] = second.mainRequests();
			const prompt = lastPromptText(firstRequest as NonNullable<typeof firstRequest>);
			expect(prompt).toContain(CONTEXT);
			expect(prompt).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
			expect(prompt).toContain(
				"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
			);
			expect(prompt).toContain("Next: Item A: write the greeting");
			// The user's own prompt is the turn; the context rides before it, and is no nudge.
			expect(prompt).toMatch(/<\/hook_context>\s*Where were we\?$/);
			expect(prompt).not.toContain(NUDGE);
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
