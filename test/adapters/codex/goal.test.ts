import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { handleHook, parseHookInput } from "../../../src/adapters/codex/events.js";
import {
	type CodexGoalReading,
	goalCanContinue,
	goalOfRolloutLines,
	isGoalShutdownInterrupt,
	readCodexGoal,
} from "../../../src/adapters/codex/goal.js";
import type { RolloutTurn } from "../../../src/adapters/codex/rollout.js";
import type { HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import { scopeKey } from "../../../src/core/scope-key.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";
import { tempDir } from "../../state/helpers.js";

// Rollout lines as Codex 0.171.0 writes them (trimmed to the fields read).
const started = (trigger: string) =>
	JSON.stringify({
		type: "event_msg",
		payload: { type: "task_started", turn_attribution: { turn_id: `t-${trigger}`, turn_trigger: trigger } },
	});
const usage = JSON.stringify({ type: "token_usage_record", payload: { response_id: "resp_1", usage: {} } });
const goalUpdated = (status: string) =>
	JSON.stringify({
		type: "event_msg",
		payload: { type: "thread_goal_updated", goal: { objective: "Finish items A and B", status } },
	});
const goalOutput = (goal: Record<string, unknown> | null) =>
	JSON.stringify({
		type: "response_item",
		payload: { type: "function_call_output", call_id: "call_1", output: JSON.stringify({ goal }) },
	});
const objective = JSON.stringify({
	type: "response_item",
	payload: { type: "function_call_output", name: "goal_objective", namespace: "agent", output: "Finish items A and B" },
});
const aborted = JSON.stringify({ type: "event_msg", payload: { type: "turn_aborted", reason: "interrupted" } });

describe("Codex's goal, read from the rollout (0.171.0)", () => {
	it("is active once the user sets it, and through the goal's own turns", () => {
		expect(goalOfRolloutLines([goalUpdated("active"), started("goal"), usage]).goal).toBe("Finish items A and B");
		// Far from the line that set it, a goal's turn still shows one: named by its objective item.
		expect(goalOfRolloutLines([started("goal"), objective, usage]).goal).toBe("Finish items A and B");
		expect(goalOfRolloutLines([started("goal"), usage]).goal).toBe("a goal");
	});

	it("names the goal by its objective, trimmed; a blank objective names nothing", () => {
		const objectiveItem = (output: string) =>
			JSON.stringify({
				type: "response_item",
				payload: { type: "function_call_output", name: "goal_objective", output },
			});
		expect(goalOfRolloutLines([started("goal"), objectiveItem("  Ship it \n")]).goal).toBe("Ship it");
		expect(goalOfRolloutLines([goalUpdated("active"), started("goal"), objectiveItem("  ")]).goal).toBe(
			"Finish items A and B",
		);
		const blankGoal = JSON.stringify({
			type: "event_msg",
			payload: { type: "thread_goal_updated", goal: { objective: " ", status: "active" } },
		});
		expect(goalOfRolloutLines([blankGoal]).goal).toBe("a goal");
	});

	it("is active when the model creates it, and ends when the model completes it or the user clears it", () => {
		const created = goalOutput({ objective: "Finish items A and B", status: "active" });
		expect(goalOfRolloutLines([started("exec"), created, usage]).goal).toBe("Finish items A and B");
		const completed = goalOutput({ objective: "Finish items A and B", status: "complete" });
		expect(goalOfRolloutLines([started("goal"), created, completed]).goal).toBeNull();
		expect(goalOfRolloutLines([goalUpdated("active"), goalUpdated("paused")]).goal).toBeNull();
		const cleared = JSON.stringify({ type: "event_msg", payload: { type: "thread_goal_cleared" } });
		expect(goalOfRolloutLines([goalUpdated("active"), cleared]).goal).toBeNull();
		expect(goalOfRolloutLines([started("user"), goalOutput(null)]).goal).toBeNull();
	});

	it("there is none without a goal line, nor from a partial last line or other tools' output", () => {
		expect(goalOfRolloutLines([started("exec"), usage]).goal).toBeNull();
		expect(
			goalOfRolloutLines([started("exec"), '{"type":"event_msg","payload":{"type":"thread_goal_upd']).goal,
		).toBeNull();
		const other = JSON.stringify({
			type: "response_item",
			payload: { type: "function_call_output", call_id: "c", output: "the goal of this test" },
		});
		expect(goalOfRolloutLines([started("exec"), other]).goal).toBeNull();
	});

	it("cannot continue under codex exec, whose goal turn is aborted at shutdown before any model request", () => {
		const created = goalOutput({ objective: "Finish items A and B", status: "active" });
		const execStop = goalOfRolloutLines([started("exec"), created, usage, usage]);
		expect(execStop).toEqual({ goal: "Finish items A and B", lastTurn: { trigger: "exec", modelRequests: 2 } });
		expect(goalCanContinue(execStop)).toBe(false);
		expect(goalCanContinue(goalOfRolloutLines([goalUpdated("active"), started("goal"), usage]))).toBe(true);
		// The goal's turn exec aborts: no model request since its start.
		expect(isGoalShutdownInterrupt(goalOfRolloutLines([started("exec"), created, usage, started("goal")]))).toBe(true);
		expect(
			isGoalShutdownInterrupt(goalOfRolloutLines([started("exec"), created, usage, started("goal"), aborted])),
		).toBe(true);
		// Esc in a goal turn that reached the model, or in any other turn, is the user's.
		expect(isGoalShutdownInterrupt(goalOfRolloutLines([started("goal"), usage]))).toBe(false);
		expect(isGoalShutdownInterrupt(goalOfRolloutLines([created, started("user")]))).toBe(false);
	});

	it("reads only the file's tail, dropping the cut line", async () => {
		const file = path.join(await tempDir(), "rollout.jsonl");
		await writeFile(file, `${goalUpdated("active")}\n${"x".repeat(200)}\n${started("goal")}\n${usage}\n`);
		expect((await readCodexGoal(file)).goal).toBe("Finish items A and B");
		expect(await readCodexGoal(file, started("goal").length + usage.length + 10)).toEqual({
			goal: "a goal",
			lastTurn: { trigger: "goal", modelRequests: 1 },
		});
	});
});

const SESSION = "01a234da-6674-7d82-8bb7-765ce21f8b9f";
const SCOPE = scopeKey({ kind: "session", harness: "codex", sessionId: SESSION }) as string;
const clock = {
	t: Date.UTC(2026, 11, 2, 4, 0, 0),
	now() {
		return this.t;
	},
};
let engine: Engine;
let store: MemoryStore;
let goal: CodexGoalReading;

function setUp(config: ConfigInput = {}): void {
	store = new MemoryStore("/w", { clock });
	engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
	goal = { goal: null, lastTurn: null };
}

const turn = (): RolloutTurn => ({
	spend: { input: 500, output: 50, cacheWrite: 0 },
	calls: 1,
	interrupt: null,
	pendingQuestion: null,
	lastAssistantText: "Working on it.",
	startMarker: `start-${clock.t}`,
	foundStart: true,
	partialLastLine: false,
	skippedLines: 0,
	limit: null,
	lagging: false,
});

async function send(event: string, fields: Record<string, unknown> = {}): Promise<HookAnswer> {
	clock.t += 1000;
	const parsed = parseHookInput(
		JSON.stringify({
			session_id: SESSION,
			turn_id: "turn-1",
			transcript_path: "/codex/sessions/rollout.jsonl",
			cwd: "/w",
			hook_event_name: event,
			model: "gpt-5.5",
			permission_mode: "default",
			...fields,
		}),
		event,
	);
	if (!parsed.ok) throw new Error(parsed.problem);
	return handleHook(parsed.input, { engine, readTurn: async () => turn(), readGoal: async () => goal });
}

const plan = {
	tool_name: "update_plan",
	tool_use_id: "call-1",
	tool_response: "Plan updated",
	tool_input: {
		plan: [
			{ step: "A", status: "in_progress" },
			{ step: "B", status: "pending" },
		],
	},
};

async function state() {
	const read = await store.readScope(SCOPE);
	if (read.kind !== "ok") throw new Error(`scope state is ${read.kind}`);
	return read.value;
}

describe("the Codex hook beside Codex's goal", () => {
	beforeEach(() => setUp());

	it("stands down while a goal drives the session, naming it", async () => {
		await send("UserPromptSubmit", { prompt: "Finish items A and B" });
		await send("PostToolUse", plan);
		goal = { goal: "Finish items A and B", lastTurn: { trigger: "goal", modelRequests: 2 } };
		const answer = await send("Stop", { stop_hook_active: false, last_assistant_message: "Working on it." });
		expect(answer.output).not.toMatchObject({ decision: "block" });
		expect((await store.readDecisions()).at(-1)).toMatchObject({
			kind: "skip",
			reason: "not-eligible",
			detail: expect.stringContaining(`Codex's goal "Finish items A and B" drives this session`),
		});
	});

	it("drives under codex exec, where the goal cannot continue, and with builtInGoals take-over", async () => {
		await send("UserPromptSubmit", { prompt: "Finish items A and B" });
		await send("PostToolUse", plan);
		goal = { goal: "Finish items A and B", lastTurn: { trigger: "exec", modelRequests: 2 } };
		expect((await send("Stop", { stop_hook_active: false })).output).toMatchObject({ decision: "block" });
		setUp({ builtInGoals: "take-over" });
		await send("UserPromptSubmit", { prompt: "Finish items A and B" });
		await send("PostToolUse", plan);
		goal = { goal: "Finish items A and B", lastTurn: { trigger: "goal", modelRequests: 2 } };
		expect((await send("Stop", { stop_hook_active: false })).output).toMatchObject({ decision: "block" });
	});

	it("does not take exec aborting the goal's turn at shutdown for the user's interrupt", async () => {
		await send("UserPromptSubmit", { prompt: "Finish items A and B" });
		await send("PostToolUse", plan);
		goal = { goal: "Finish items A and B", lastTurn: { trigger: "goal", modelRequests: 0 } };
		await send("Interrupt");
		expect((await state()).abortBlock).toBeFalsy();
		// An Esc in a turn that reached the model is the user's, goal or not.
		goal = { goal: "Finish items A and B", lastTurn: { trigger: "goal", modelRequests: 1 } };
		await send("Interrupt");
		expect((await state()).abortBlock).toMatchObject({ how: "interrupt" });
	});
});
