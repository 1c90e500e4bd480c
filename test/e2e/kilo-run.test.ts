/**
 * boulder in the real Kilo Code's one-shot `kilo run`, in a folder that is not
 * a git repository, installed in the user's config (`boulder install kilo
 * --user`, which names this copy's plugin file): the agent is carried through
 * its list and `kilo run` waits for boulder's nudges before it exits.
 *
 * One `kilo run` for the file (Kilo starts slowly offline). Needs `npm run build`.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type KiloRunResult, KiloServer, requireKiloBuild } from "./support/kilo-run.js";
import { endsInNudge } from "./support/nudges.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { statusesAt, opencodeTodoWrite as todoWrite } from "./support/todo-steps.js";

const TIMEOUT_MS = 400_000;

let model: ScriptedModelServer;
let kilo: KiloServer;
let result: KiloRunResult;
const { boulderOk } = boulderIn(() => kilo.cliPlace);

function progress(done: number, total: number): ModelStep {
	return todoWrite(statusesAt(done, total));
}

beforeAll(async () => {
	requireKiloBuild();
	const steps: ModelStep[] = [progress(0, 3), { text: "Started on the list." }];
	for (let done = 1; done <= 3; done++) steps.push(progress(done, 3), { text: `Finished item ${done}.` });
	model = await startModelServer({ scenario: steps, fallback: { text: "Nothing more to do." } });
	kilo = await KiloServer.prepared({ modelServerUrl: model.baseUrl, git: false, install: "user" });
	result = await kilo.run("Work through the list.", TIMEOUT_MS - 60_000);
}, TIMEOUT_MS);

afterAll(async () => {
	await kilo?.dispose();
	await model?.close();
});

describe("boulder in `kilo run`, outside git, installed for the user", () => {
	it("was installed in the user's kilo.jsonc with the path of this copy's Kilo plugin", async () => {
		const text = await import("node:fs/promises").then((fs) =>
			fs.readFile(join(kilo.homeDir, ".config", "kilo", "kilo.jsonc"), "utf8"),
		);
		expect(text).toContain("/dist/adapters/opencode/kilo-plugin.js");
	});

	it("carries a lazy agent through its three todos before `kilo run` exits", async () => {
		expect(result.timedOut, `${result.stderr.slice(-3_000)}\n${model.describe()}`).toBe(false);
		expect(result.exitCode, result.stderr.slice(-3_000)).toBe(0);
		expect(model.overruns).toBe(0);
		expect(model.mainRequests().filter(endsInNudge)).toHaveLength(3);
		expect(await boulderOk("why")).toMatch(/complete/i);
	});
});
