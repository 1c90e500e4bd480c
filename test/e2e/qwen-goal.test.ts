/**
 * boulder beside Qwen Code's own goal mode (`/goal OBJECTIVE`, 0.24.4), with
 * the real binary under `qwen -p`: one driver at a time. The goal runs turn
 * after turn on its own ("Continue working on the active Goal") and writes
 * its state into the transcript (`goal_state` records). boulder reads it and
 * stands down while the goal is active, so the agent is pushed by the goal
 * alone, and `boulder why` names it. (Before, boulder nudged three times and
 * then printed "not continuing" at every later stop while the goal went on.)
 *
 * Needs `npm run build`.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { contentText, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { cliPlace, createQwenSandbox, type QwenSandbox, runQwen } from "./support/qwen-run.js";
import { COMMAND_HOOK, NUDGE, readDecisionLog, requireBuilt } from "./support/suite.js";

const TEST_TIMEOUT_MS = 240_000;
/** How the goal's own turn begins (0.24.4). */
const GOAL_TURN = "Continue working on the active Goal";

const servers: ScriptedModelServer[] = [];
let sandbox: QwenSandbox;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

beforeAll(() => requireBuilt(COMMAND_HOOK));

afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
	await sandbox?.dispose();
});

describe("boulder beside Qwen Code's /goal", () => {
	it(
		"stands down while the goal drives: the agent gets the goal's turns only, and `boulder why` names the goal",
		async () => {
			// The goal's own window ends the run: at most 4 turns.
			sandbox = await createQwenSandbox({ model: { name: "m", goalMaxTurns: 4 } });
			await boulderOk("install", "qwen", "--project");
			const todos = [
				{ id: "1", content: "Item A", status: "in_progress" },
				{ id: "2", content: "Item B", status: "pending" },
			];
			const server = await startModelServer({
				scenario: [{ toolCalls: [{ name: "todo_write", args: { todos } }] }, { text: "I will look into it." }],
				fallback: { text: "Still thinking about it." },
			});
			servers.push(server);

			const run = await runQwen(sandbox, {
				prompt: "/goal Finish items A and B",
				baseUrl: server.baseUrl,
				timeoutMs: 150_000,
			});

			expect(run.timedOut, run.stderr).toBe(false);
			const lastUser = (index: number) => {
				const messages = server.mainRequests()[index]?.body.messages ?? [];
				return contentText(messages.at(-1)?.content);
			};
			const requests = server.mainRequests().map((_, index) => lastUser(index));
			expect(requests.filter((text) => text.includes(NUDGE))).toHaveLength(0);
			expect(requests.filter((text) => text.includes(GOAL_TURN)).length).toBeGreaterThanOrEqual(2);
			expect(run.stdout).not.toContain("boulder: not continuing");
			const stoodDown = (await readDecisionLog(sandbox.project)).filter((record) => record.reason === "not-eligible");
			expect(stoodDown.length).toBeGreaterThanOrEqual(2);
			expect(stoodDown[0]?.detail).toContain(`Qwen Code's goal "Finish items A and B" drives this session`);
			expect(await boulderOk("why")).toContain("Qwen Code's goal");
		},
		TEST_TIMEOUT_MS,
	);
});
