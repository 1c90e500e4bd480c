import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { contentText, type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { type OpencodeServer, requireBuild, sharedOpencode } from "./support/opencode-run.js";
import { NUDGE, REPO, readDecisionLog, waitUntil } from "./support/suite.js";

const CHILD = "CHILD TASK: index the archive.";
const TEST_TIMEOUT_MS = 150_000;

// One server for the file; each test has its own project in it.
const shared = sharedOpencode();
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

const say = (text: string): ModelStep => ({ text });
const todoWrite = (statuses: string[]): ModelStep => ({
	toolCalls: [
		{
			name: "todowrite",
			args: {
				todos: statuses.map((status, i) => ({ content: `Item ${"AB"[i]}`, status, priority: "medium" })),
			},
		},
	],
});

describe("the watchdog with the real OpenCode", () => {
	it.each([
		["tells the parent which child has been running for how long", false],
		["aborts the child when configured, and tells the parent so", true],
	])(
		"releases a parent whose child never finishes after its time limit: %s",
		async (_, abort) => {
			let parentStep = 0;
			const parentSteps = [
				todoWrite(["in_progress", "pending"]),
				say("Waiting for the helper."),
				todoWrite(["completed", "completed"]),
				say("Both done."),
			];
			model = await startModelServer({ fallback: say("Nothing more.") });
			model.setScenario(({ request, server }) => {
				if (server.userTexts(request).some((text) => text.includes(CHILD))) {
					return { text: "Child: never gets here.", delayMs: 120_000 };
				}
				return parentSteps[parentStep++] ?? say("Nothing more.");
			});
			oc = await shared.open({
				modelServerUrl: model.baseUrl,
				npmPackages: { "boulder-agent": REPO },
				plugins: ["boulder-agent"],
				files: {
					"boulder.config.json": JSON.stringify({ countdownMs: 300, watchdog: { limitMs: 4_000, abort } }),
				},
			});
			const current = oc;
			const parent = await oc.client.createSession();
			const child = await oc.client.createSession({ parentID: parent.id });
			await oc.client.promptAsync(child.id, CHILD);
			await model.waitFor((server) => server.reached(CHILD, { role: "user", mainOnly: true }), 60_000);
			await oc.startTurn("Do both items.", { sessionID: parent.id });
			await model.waitFor(() => parentStep >= 4, 90_000);
			// The parent's first decision after the watchdog's nudge settles it: with the child still running
			// (not aborted) that may be a wait for it, which would come back only after the child's 120 s.
			let nudged = -1;
			await waitUntil(async () => {
				const records = await readDecisionLog(current.projectDir, { missingIsEmpty: true });
				nudged = records.findIndex((r) => r.session === parent.id && r.reason === "continue");
				return nudged >= 0;
			}, "the watchdog's nudge to the parent");
			await oc.waitForSettled(parent.id, { from: nudged + 1, until: () => true });

			const nudges = model
				.mainRequests()
				.filter((request) => contentText(request.body.messages?.at(-1)?.content).includes(NUDGE));
			expect(nudges).toHaveLength(1);
			const text = model.lastUserText(nudges[0]) ?? "";
			expect(text).toContain(`- ${child.id}`);
			expect(text).toMatch(/running for \d+ s \(limit 4 s\)/);
			expect(text).toContain(abort ? "boulder aborted it" : "Treat it as failed, or check on it");
			const records = await readDecisionLog(oc.projectDir);
			const parentDecisions = records.filter((r) => r.session === parent.id && r.kind !== "event");
			// Whether the parent first waited (background-busy) depends on how fast the machine is; what it was told does not.
			const went = parentDecisions.findIndex((r) => r.reason === "continue");
			expect(went).toBeGreaterThan(-1);
			expect(parentDecisions[went]?.detail).toContain(`${abort ? "aborted" : "not waiting for"} ${child.id}`);
			expect(await boulderOk("why", "--session", parent.id, "-n", "20")).toMatch(
				new RegExp(`${child.id}.*has run \\d+ s, past its limit of 4 s`),
			);
		},
		TEST_TIMEOUT_MS,
	);
});
