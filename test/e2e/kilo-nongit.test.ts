/**
 * boulder in the real Kilo Code (`kilo serve`) in a folder that is not a git
 * repository, installed in the user's config (`boulder install kilo --user`,
 * which names this copy's Kilo plugin file): the session still gets
 * continuation for its own list, with its state in the user's state folder.
 *
 * One server for the file (Kilo starts slowly offline). Needs `npm run build`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type KiloServer, requireKiloBuild, startKilo } from "./support/kilo-run.js";
import { endsInNudge } from "./support/nudges.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { statusesAt, opencodeTodoWrite as todoWrite } from "./support/todo-steps.js";

const START_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = 240_000;

let model: ScriptedModelServer;
let kilo: KiloServer;
const { boulder, boulderOk } = boulderIn(() => kilo.cliPlace);

function progress(done: number, total: number): ModelStep {
	return todoWrite(statusesAt(done, total));
}

beforeAll(async () => {
	requireKiloBuild();
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	kilo = await startKilo({ modelServerUrl: model.baseUrl, git: false, install: "user" });
}, START_TIMEOUT_MS);

afterAll(async () => {
	await kilo?.dispose();
	await model?.close();
});

describe("boulder in Kilo Code outside git, installed for the user", () => {
	it("is listed in the user's kilo.jsonc by the path of this copy's Kilo plugin", async () => {
		const text = await readFile(join(kilo.homeDir, ".config", "kilo", "kilo.jsonc"), "utf8");
		expect(text).toContain("/dist/adapters/opencode/kilo-plugin.js");
		expect((await boulder("doctor")).stdout).toMatch(/plugin listed in .*kilo\.jsonc \(user/);
	});

	it(
		"carries a lazy agent through its three todos, and explains it from the user's state",
		async () => {
			const steps: ModelStep[] = [progress(0, 3), { text: "Started on the list." }];
			for (let done = 1; done <= 3; done++) steps.push(progress(done, 3), { text: `Finished item ${done}.` });
			model.setScenario(steps);
			const { sessionID } = await kilo.startTurn("Work through the list.");
			await model.waitForMainRequests(8, 150_000);
			await kilo.waitForQuiet(sessionID, { quietMs: 2_500 });

			expect(model.overruns).toBe(0);
			expect(model.mainRequests().filter(endsInNudge)).toHaveLength(3);
			expect(await boulderOk("why", "--session", sessionID)).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);
});
