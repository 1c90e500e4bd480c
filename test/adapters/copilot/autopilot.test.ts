import { beforeEach, describe, expect, it } from "vitest";
import {
	AUTOPILOT_PROMPT_START,
	autopilotOfLines,
	isAutopilotPrompt,
} from "../../../src/adapters/copilot/autopilot.js";
import type { readTodos } from "../../../src/adapters/copilot/events.js";
import { type HookDeps, handleHook, parseHookInput } from "../../../src/adapters/copilot/events.js";
import type { TurnReading } from "../../../src/adapters/copilot/transcript.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

// Event-log lines as Copilot 1.0.102 writes them (trimmed to the fields read).
const modeChanged = (newMode: string) =>
	JSON.stringify({ type: "session.mode_changed", data: { previousMode: "interactive", newMode } });
const userMessage = (data: Record<string, unknown>) =>
	JSON.stringify({ type: "user.message", data: { content: "Finish items A and B", ...data } });
const turnEnd = JSON.stringify({ type: "assistant.turn_end", data: { turnId: "0" } });

describe("Copilot's autopilot, read from the event log (1.0.102)", () => {
	it("is on from --autopilot's mode change and while user messages are sent in autopilot", () => {
		expect(autopilotOfLines([modeChanged("autopilot"), turnEnd])).toBe(true);
		expect(autopilotOfLines([modeChanged("autopilot"), userMessage({ agentMode: "autopilot" }), turnEnd])).toBe(true);
		// Far from the mode change, autopilot's own prompt says it.
		expect(autopilotOfLines([userMessage({ content: "", source: "autopilot", isAutopilotContinuation: true })])).toBe(
			true,
		);
	});

	it("is off in another mode, after a change away, and without any line that says the mode", () => {
		expect(autopilotOfLines([userMessage({ agentMode: "interactive" }), turnEnd])).toBe(false);
		expect(autopilotOfLines([userMessage({ agentMode: "autopilot" }), modeChanged("interactive")])).toBe(false);
		expect(autopilotOfLines([turnEnd, '{"type":"session.mode_changed","data":{"newMo'])).toBe(false);
	});

	it("knows autopilot's own continuation prompt", () => {
		expect(isAutopilotPrompt(`${AUTOPILOT_PROMPT_START}. If you were planning, stop planning.`)).toBe(true);
		expect(isAutopilotPrompt("Please mark the task complete.")).toBe(false);
	});
});

const SESSION = "04a7feff-89c0-4a32-a500-891b7dcabcab";
const LOG = `/copilot/session-state/${SESSION}/events.jsonl`;
const clock = {
	t: Date.UTC(2026, 11, 2, 4, 0, 0),
	now() {
		return this.t;
	},
};
let engine: Engine;
let store: MemoryStore;
let autopilot: boolean;

function setUp(config: ConfigInput = {}): void {
	store = new MemoryStore("/w", { clock });
	engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
	autopilot = true;
}

const reading = (): TurnReading => ({
	spend: { input: 100, output: 20, cacheWrite: 0 },
	calls: 1,
	activity: 0,
	abort: null,
	pendingQuestion: null,
	stopBlocks: [],
	lastAssistantText: "Still thinking about it.",
	foundStart: true,
	ownRecordSeen: true,
	startMarker: `turn-${clock.t}`,
	partialLastLine: false,
	skippedLines: 0,
	limit: null,
});

const deps = (): HookDeps => ({
	engine,
	readTurn: async () => reading(),
	readBlockChain: async () => 0,
	readTodos: (async () => ({
		todos: [
			{ id: "a", content: "Item A", status: "pending" },
			{ id: "b", content: "Item B", status: "pending" },
		],
		warnings: [],
	})) as unknown as typeof readTodos,
	readAutopilot: async () => autopilot,
});

async function send(event: string, fields: Record<string, unknown> = {}) {
	clock.t += 1000;
	const parsed = parseHookInput(
		JSON.stringify({ sessionId: SESSION, timestamp: clock.t, cwd: "/w", ...fields }),
		event,
	);
	if (!parsed.ok) throw new Error(parsed.problem);
	const answer = await handleHook(parsed.input, deps());
	await answer.written?.();
	return answer;
}

const stop = () => send("agentStop", { transcriptPath: LOG, stopReason: "end_turn", stop_hook_active: false });

describe("the Copilot hook beside autopilot", () => {
	beforeEach(() => setUp());

	it("stands down while autopilot drives, naming it, through autopilot's own continuations", async () => {
		await send("userPromptSubmitted", { prompt: "Finish items A and B" });
		for (let round = 0; round < 5; round++) {
			expect((await stop()).output).toBeNull();
			await send("userPromptSubmitted", { prompt: `${AUTOPILOT_PROMPT_START}. Keep going.` });
		}
		const log = await store.readDecisions();
		expect(log.filter((line) => line.reason === "user-turn")).toHaveLength(1);
		expect(log.at(-1)).toMatchObject({
			kind: "skip",
			reason: "not-eligible",
			detail: expect.stringContaining("Copilot's autopilot drives this session"),
		});
	});

	it("with builtInGoals take-over, drives beside it; autopilot's prompts begin no new episode, so the stagnation limit holds", async () => {
		setUp({ builtInGoals: "take-over" });
		await send("userPromptSubmitted", { prompt: "Finish items A and B" });
		let blocks = 0;
		for (let round = 0; round < 12; round++) {
			const answer = await stop();
			if (answer.output?.decision === "block") {
				blocks++;
				continue;
			}
			await send("userPromptSubmitted", { prompt: `${AUTOPILOT_PROMPT_START}. Keep going.` });
		}
		expect(blocks).toBe(3);
		expect((await store.readDecisions()).filter((line) => line.reason === "user-turn")).toHaveLength(1);
	});
});
