import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { boulderIn } from "./support/boulder-cli.js";
import { endsInNudge } from "./support/nudges.js";
import {
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { type OpencodeServer, requireBuild, startOpencode } from "./support/opencode-run.js";
import { ONE_AUTO_TURN, RESUME_FILES } from "./support/resume.js";
import { CONTEXT, REPO, readDecisionLog } from "./support/suite.js";

const TEST_TIMEOUT_MS = 240_000;

let model: ScriptedModelServer | undefined;
let oc: OpencodeServer | undefined;
const { boulderOk } = boulderIn(() => (oc as OpencodeServer).cliPlace);
const decisions = () => readDecisionLog((oc as OpencodeServer).projectDir, { missingIsEmpty: true });

beforeAll(requireBuild);

afterEach(async () => {
	const errors = oc ? (await decisions()).filter((record) => record.reason === "error") : [];
	await oc?.dispose();
	oc = undefined;
	await model?.close();
	model = undefined;
	expect(errors.map((record) => record.detail)).toEqual([]);
});

function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter(endsInNudge);
}

/** The resume context as one request carried it to the model, or undefined. */
function contextIn(server: ScriptedModelServer, request: RecordedRequest | undefined): string | undefined {
	return server.userTexts(request).find((text) => text.includes(CONTEXT));
}

const say = (text: string): ModelStep => ({ text });
const tick = (item: string): ModelStep => ({
	toolCalls: [
		{
			name: "bash",
			args: { command: `sed -i 's/- \\[ \\] Item ${item}/- [x] Item ${item}/' PLAN.md`, description: "tick" },
		},
	],
});

describe("resume context with the real OpenCode", () => {
	it(
		"tells a session that comes back after a restart where its plan stands, once, without a nudge or spending its budget; a compaction keeps it",
		async () => {
			model = await startModelServer({ fallback: say("Nothing more to do.") });
			model.setScenario([tick("A"), say("Item A is done."), say("Pausing here.")]);
			oc = await startOpencode({
				modelServerUrl: model.baseUrl,
				npmPackages: { "boulder-agent": REPO },
				plugins: ["boulder-agent"],
				files: { ...RESUME_FILES, "boulder.config.json": JSON.stringify({ countdownMs: 300, ...ONE_AUTO_TURN }) },
			});
			await boulderOk("start", "PLAN.md");

			const { sessionID } = await oc.startTurn("Work through the plan.");
			await model.waitFor((server) => nudges(server).length === 1, 60_000);
			await oc.waitForSettled(sessionID);
			expect(model.mainRequests().some((request) => contextIn(model as ScriptedModelServer, request))).toBe(false);

			await oc.restart();
			model.clearRequests();
			model.setScenario([say("Picking it up at item B."), say("Resting.")]);
			let mark = await oc.decisionMark();
			await oc.startTurn("Where were we?", { sessionID });
			await model.waitFor((server) => nudges(server).length === 1, 60_000);
			await oc.waitForSettled(sessionID, { from: mark });

			const [first] = model.mainRequests();
			const context = contextIn(model, first);
			expect(context).toBeDefined();
			expect(context).toContain("came back after a restart");
			expect(context).toContain('1 of 3 done, 2 open in the plan "Greetings" (PLAN.md)');
			expect(context).toContain("Next: Item B: write the farewell");
			expect(model.userTexts(first).join("\n")).toContain("Where were we?");
			// The one automatic turn of the new episode was still there to spend.
			expect(nudges(model)).toHaveLength(1);

			const messages = await oc.client.messages(sessionID);
			const carried = messages
				.flatMap((message) => message.parts)
				.filter((part) => part.type === "text" && part.text.includes(CONTEXT));
			expect(carried).toEqual([expect.objectContaining({ synthetic: true })]);

			model.setScenario([say("Still here.")]);
			mark = await oc.decisionMark();
			await oc.startTurn("And now?", { sessionID });
			await model.waitFor((server) => server.lastUserText()?.includes("And now?") === true, 60_000);
			await oc.waitForSettled(sessionID, { from: mark });
			const lines = (await decisions()).filter((record) => record.reason === "resume-context");
			expect(lines).toHaveLength(1);
			expect(String(lines[0]?.detail)).toContain("came back after a restart");

			// A compaction: the summary's prompt carries where the work stands, so the summary keeps it.
			const before = model.requests.length;
			const compacting = oc.events.mark();
			await oc.client.summarize(sessionID);
			await oc.events.waitFor((e) => e.type === "session.compacted" && e.properties.sessionID === sessionID, {
				from: compacting,
			});
			await oc.waitForIdle(sessionID, { from: compacting });
			const summarized = model.requests
				.slice(before)
				.map((request) => JSON.stringify(request.body))
				.find((body) => body.includes(CONTEXT));
			expect(summarized).toContain("had its conversation compacted with work unfinished");
		},
		TEST_TIMEOUT_MS,
	);
});
