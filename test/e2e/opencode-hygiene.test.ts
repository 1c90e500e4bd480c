import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { type OpencodeServer, requireBuild, startOpencode } from "./support/opencode-run.js";
import { NUDGE, REPO } from "./support/suite.js";
import { opencodeTodoWrite as todoWrite } from "./support/todo-steps.js";

const REMINDER = "[boulder · todo list]";
const THRESHOLD = 3;
const TEST_TIMEOUT_MS = 180_000;

let model: ScriptedModelServer | undefined;
let oc: OpencodeServer | undefined;

beforeAll(requireBuild);

afterEach(async () => {
	await oc?.dispose();
	oc = undefined;
	await model?.close();
	model = undefined;
});

const { boulderOk } = boulderIn(() => (oc as OpencodeServer).cliPlace);

/** How many messages of a request carry the reminder: each turn resends the whole conversation. */
function reminders(request: RecordedRequest | undefined): number {
	return (request?.body.messages ?? []).filter((message) => contentText(message.content).includes(REMINDER)).length;
}

describe("todo hygiene with the real OpenCode", () => {
	it(
		"reminds an agent that edits without updating its list once per stretch, on a tool result, with no nudge",
		async () => {
			const steps: ModelStep[] = [];
			let turn = 0;
			model = await startModelServer({ fallback: { text: "Nothing more to do." } });
			model.setScenario(() => steps[turn++] ?? { text: "Done." });
			oc = await startOpencode({
				modelServerUrl: model.baseUrl,
				npmPackages: { "boulder-agent": REPO },
				plugins: ["boulder-agent"],
				files: {
					"boulder.config.json": JSON.stringify({ countdownMs: 300, hygiene: { editsBeforeReminder: THRESHOLD } }),
				},
			});
			const dir = oc.projectDir;
			const write = (file: string): ModelStep => ({
				toolCalls: [{ name: "write", args: { filePath: join(dir, file), content: `${file}\n` } }],
			});
			steps.push(
				todoWrite(["in_progress", "pending"]),
				write("a1.txt"),
				write("a2.txt"),
				write("a3.txt"),
				write("a4.txt"),
				write("a5.txt"),
				todoWrite(["completed", "completed"]),
				{ text: "Both items are done." },
			);

			const { sessionID } = await oc.startTurn("Do items A and B.");
			await model.waitFor(() => turn >= steps.length, 120_000);
			await oc.waitForSettled(sessionID);

			const requests = model.mainRequests();
			expect(requests).toHaveLength(steps.length);
			expect(requests.slice(0, THRESHOLD + 1).map(reminders)).toEqual([0, 0, 0, 0]);
			// The third edit's result carries it, once, and it stays once: edits 4 and 5 add none.
			expect(requests.slice(THRESHOLD + 1, 7).map(reminders)).toEqual([1, 1, 1]);
			const third = model.toolResults(requests[THRESHOLD + 1]).at(-1)?.content ?? "";
			expect(third).toContain(REMINDER);
			expect(third).toContain("changed files 3 times since your todo list last changed");
			expect(third).toContain("2 open items");
			expect(model.mainRequests().filter((request) => model?.lastUserText(request)?.includes(NUDGE))).toEqual([]);
			expect(await readFile(join(dir, "a5.txt"), "utf8")).toBe("a5.txt\n");
			const why = await boulderOk("why", "-n", "20");
			expect(why).toMatch(/reminded.*changed files 3 times since its todo list last changed/);
		},
		TEST_TIMEOUT_MS,
	);
});
