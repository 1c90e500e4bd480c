// Resume context with the real pi (RPC mode, under the Node 22 devDependency):
// a session that stopped with its plan unfinished is opened again after pi
// restarts (`--session-id`, the same session); boulder's extension hears
// `session_start` for a session with earlier messages and queues the engine's
// resume context beside the next prompt (pi's `nextTurn` delivery), so the
// model's first request carries it right after the user's prompt. It is no
// nudge: the resumed run's one automatic turn is still there, and the
// decision log shows the context before the user's turn. After a
// compaction (`compact`, RPC's /compact) the same context rides beside the
// next prompt.
//
// Needs `npm run build`.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { EXTENSION, PiRpc, piUnavailable } from "./support/pi-run.js";
import { expectContextFirst, RESUME_FILES } from "./support/resume.js";
import { CONTEXT, NUDGE, readDecisionLog, requireBuilt } from "./support/suite.js";

const TEST_TIMEOUT_MS = 180_000;
const SESSION = "3c9e1a57-6b2d-4f80-9a1c-5e7d2b4f6a80";
const unavailable = piUnavailable();

let model: ScriptedModelServer | undefined;
let pi: PiRpc | undefined;
const { boulderOk } = boulderIn(() => (pi as PiRpc).cliPlace);
const decisions = () => readDecisionLog((pi as PiRpc).projectDir);

afterEach(async () => {
	await pi?.dispose();
	pi = undefined;
	await model?.close();
	model = undefined;
});

const say = (text: string): ModelStep => ({ text });

describe.skipIf(unavailable !== null)(
	unavailable ? `resume context with the real pi (skipped: ${unavailable})` : "resume context with the real pi",
	() => {
		beforeAll(() => requireBuilt(EXTENSION));

		it(
			"tells a session pi opens again where its plan stands, beside the user's prompt, without a nudge of its own",
			async () => {
				model = await startModelServer({ fallback: { text: "Still resting." } });
				model.setScenario([say("Not now."), say("Pausing here.")]);
				pi = await PiRpc.start({
					modelServerUrl: model.baseUrl,
					sessionId: SESSION,
					files: RESUME_FILES,
				});
				await boulderOk("start", "PLAN.md");
				await pi.promptAndSettle("Work through the plan.");
				expect(model.countUserTurnsWith(NUDGE)).toBe(1);
				expect(model.reached(CONTEXT, { role: "user", mainOnly: true })).toBe(false);
				const before = (await decisions()).length;
				const asked = model.mainRequests().length;

				await pi.restart();
				model.setScenario([say("Picking it up at item A."), say("Resting.")]);
				await pi.promptAndSettle("Where were we?");

				const resumed = model.mainRequests().slice(asked);
				const texts = model.userTexts(resumed[0]);
				// The user's prompt, then the context pi queued beside it: one message of its own, never a nudge.
				expect(texts.at(-2)).toBe("Where were we?");
				const context = texts.at(-1) ?? "";
				expect(context).toMatch(/^\[boulder · where the work stands/);
				expect(context).toContain('0 of 3 done, 3 open in the plan "Greetings" (PLAN.md)');
				expect(context).toContain(
					"- Item A: write the greeting\n- Item B: write the farewell\n- Item C: write the thanks",
				);
				expect(context).toContain("Next: Item A: write the greeting");
				// The one automatic turn of the resumed run's episode was still there to spend.
				expect(resumed.filter((request) => model?.lastUserText(request)?.includes(NUDGE))).toHaveLength(1);

				const lines = expectContextFirst((await decisions()).slice(before));
				expect(lines.filter((line) => line.endsWith(":error"))).toEqual([]);
				expect(await boulderOk("why", "--session", SESSION)).toMatch(/gave context/);
			},
			TEST_TIMEOUT_MS,
		);

		it(
			"tells a session whose conversation was compacted where its plan stands, beside the next prompt",
			async () => {
				model = await startModelServer({ fallback: { text: "Still resting." } });
				model.setScenario([say("Not now."), say("Pausing here.")]);
				pi = await PiRpc.start({
					modelServerUrl: model.baseUrl,
					// A trusted project, so pi reads its settings: keep nothing back, or a short talk is too small to compact.
					approve: true,
					files: {
						...RESUME_FILES,
						".pi/settings.json": JSON.stringify({ compaction: { keepRecentTokens: 0 } }),
					},
				});
				await boulderOk("start", "PLAN.md");
				await pi.promptAndSettle("Work through the plan.");
				const compacted = await pi.send({ type: "compact" }, 60_000);
				expect(compacted.success, JSON.stringify(compacted)).toBe(true);
				const asked = model.mainRequests().length;

				model.setScenario([say("On to item A."), say("Resting.")]);
				await pi.promptAndSettle("Go on.");
				const texts = model.userTexts(model.mainRequests()[asked]);
				expect(texts.at(-2)).toBe("Go on.");
				expect(texts.at(-1)).toMatch(/^\[boulder · where the work stands[\s\S]*had its conversation compacted/);
				expect(texts.at(-1)).toContain("0 of 3 done");
				expect(
					model
						.mainRequests()
						.slice(asked)
						.filter((request) => model?.lastUserText(request)?.includes(NUDGE)),
				).toHaveLength(1);
			},
			TEST_TIMEOUT_MS,
		);
	},
);
