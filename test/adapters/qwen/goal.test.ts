import { describe, expect, it } from "vitest";
import { handleQwenHook, parseQwenHookInput, type QwenHookDeps } from "../../../src/adapters/qwen/events.js";
import { qwenGoalOfLines } from "../../../src/adapters/qwen/goal.js";
import type { QwenTurn } from "../../../src/adapters/qwen/transcript.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

// Transcript records as Qwen Code 0.24.4 writes them (trimmed to the fields read).
const goalState = (cause: string, goal: Record<string, unknown> | null) =>
	JSON.stringify({
		type: "system",
		subtype: "goal_state",
		provenance: "goal_control",
		systemPayload: { v: 2, cause, snapshot: { v: 2, goal, activity: "idle" } },
	});
const active = { objective: "Finish items A and B", status: "active", turnCount: 1 };
const assistant = JSON.stringify({ type: "assistant", message: { role: "model", parts: [{ text: "On it." }] } });

describe("Qwen Code's goal, read from the transcript (0.24.4's goal_state records)", () => {
	it("is active from its creation and while each turn leaves it active", () => {
		expect(qwenGoalOfLines([goalState("create", active), assistant])).toBe("Finish items A and B");
		expect(qwenGoalOfLines([goalState("create", active), goalState("turn_finished", active), assistant])).toBe(
			"Finish items A and B",
		);
	});

	it("ends when paused, completed or cleared; none without a record or from a partial line", () => {
		expect(
			qwenGoalOfLines([goalState("create", active), goalState("pause", { ...active, status: "paused" })]),
		).toBeNull();
		expect(
			qwenGoalOfLines([goalState("create", active), goalState("complete", { ...active, status: "complete" })]),
		).toBeNull();
		expect(qwenGoalOfLines([goalState("create", active), goalState("clear", null)])).toBeNull();
		expect(qwenGoalOfLines([assistant])).toBeNull();
		expect(qwenGoalOfLines([assistant, '{"type":"system","subtype":"goal_state","systemPayload":{"sna'])).toBeNull();
	});
});

describe("the Qwen Code hook beside its goal", () => {
	const clock = { t: Date.UTC(2026, 11, 2, 4, 0, 0), now: () => clock.t };
	const ref = { harness: "qwen", sessionId: "s1" };
	const turn = (): QwenTurn => ({
		spend: { input: 100, output: 10, cacheWrite: 0 },
		calls: 1,
		activity: 0,
		pendingQuestion: null,
		lastAssistantText: "Still thinking about it.",
		foundStart: true,
		endMarker: `end-${clock.t}`,
		continuations: 0,
		partialLastLine: false,
		skippedLines: 0,
		lagging: false,
		limit: null,
	});

	async function session(config: ConfigInput, goal: string | null) {
		const store = new MemoryStore("/w", { clock });
		const engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ content: "Item A", status: "pending" },
			{ content: "Item B", status: "pending" },
		]);
		const deps: QwenHookDeps = { engine, readTurn: async () => turn(), cap: async () => 8, readGoal: async () => goal };
		const stop = () => {
			clock.t += 1000;
			const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", hook_event_name: "Stop" };
			const parsed = parseQwenHookInput(JSON.stringify({ ...base, stop_hook_active: false }), "Stop");
			if (!parsed.ok) throw new Error(parsed.problem);
			return handleQwenHook(parsed.input, deps);
		};
		return { store, stop };
	}

	it("stands down while a goal is active, naming it", async () => {
		const { store, stop } = await session({}, "Finish items A and B");
		expect((await stop()).output).not.toMatchObject({ decision: "block" });
		expect((await store.readDecisions()).at(-1)).toMatchObject({
			kind: "skip",
			reason: "not-eligible",
			detail: expect.stringContaining(`Qwen Code's goal "Finish items A and B" drives this session`),
		});
	});

	it("drives with builtInGoals take-over, and without a goal", async () => {
		expect((await (await session({ builtInGoals: "take-over" }, "Finish items A and B")).stop()).output).toMatchObject({
			decision: "block",
		});
		expect((await (await session({}, null)).stop()).output).toMatchObject({ decision: "block" });
	});
});
