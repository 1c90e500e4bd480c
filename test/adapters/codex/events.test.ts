import { beforeEach, describe, expect, it } from "vitest";
import { handleHook, parseHookInput } from "../../../src/adapters/codex/events.js";
import type { RolloutTurn } from "../../../src/adapters/codex/rollout.js";
import type { HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import { CONTINUATION_PROMPT } from "../../../src/core/prompts/continuation.prompt.js";
import { scopeKey } from "../../../src/core/scope-key.js";
import { FileProblem } from "../../../src/engine/bounded-read.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const SESSION = "01a23189-e670-7682-b662-04236aa91e9f";
const SCOPE = scopeKey({ kind: "session", harness: "codex", sessionId: SESSION }) as string;
const clock = {
	t: Date.UTC(2026, 11, 1, 12, 0, 0),
	now() {
		return this.t;
	},
};

let engine: Engine;
let store: MemoryStore;
let rollout: RolloutTurn | Error;
let turnSerial = 0;

function reading(partial: Partial<RolloutTurn> = {}): RolloutTurn {
	return {
		spend: { input: 500, output: 50, cacheWrite: 0 },
		calls: 1,
		interrupt: null,
		pendingQuestion: null,
		lastAssistantText: "Done for now.",
		startMarker: `start-${++turnSerial}`,
		foundStart: true,
		partialLastLine: false,
		skippedLines: 0,
		limit: null,
		lagging: false,
		...partial,
	};
}

function setUp(config: ConfigInput = {}): void {
	store = new MemoryStore("/w", { clock });
	engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
	rollout = reading();
}

beforeEach(() => setUp());

/** An event as Codex 0.171 sends it (the fields its schemas require), through the hook's own reader. */
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
	return handleHook(parsed.input, {
		engine,
		readTurn: async () => {
			if (rollout instanceof Error) throw rollout;
			return rollout;
		},
	});
}

async function stop(fields: Record<string, unknown> = {}): Promise<HookAnswer> {
	const answer = await send("Stop", { stop_hook_active: false, last_assistant_message: "Done for now.", ...fields });
	rollout = reading();
	return answer;
}

const plan = (done: number, total: number) => ({
	tool_name: "update_plan",
	tool_use_id: `call-${done}`,
	tool_response: "Plan updated",
	tool_input: {
		plan: Array.from({ length: total }, (_, index) => ({
			step: `Item ${index + 1}`,
			status: index < done ? "completed" : "pending",
		})),
	},
});

async function state() {
	const read = await store.readScope(SCOPE);
	if (read.kind !== "ok") throw new Error(`scope state is ${read.kind}`);
	return read.value;
}

describe("the Codex hook", () => {
	it("continues an open plan with Codex's block answer, the nudge as its reason", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		const answer = await stop();
		expect(answer.output).toMatchObject({ decision: "block" });
		expect(String(answer.output?.reason)).toMatch(/0 of 2 done[\s\S]*Item 1/);
	});

	it("lets the agent stop once the plan is done, saying so to the user only", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(2, 2));
		const answer = await stop();
		expect(answer.output).toEqual({ systemMessage: expect.any(String) });
	});

	it("stops an agent that makes no progress after the stagnation limit: Codex has no cap of its own", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		const blocks: number[] = [];
		for (let stops = 0; stops < 20; stops++) {
			const answer = await stop({ stop_hook_active: stops > 0 });
			if (answer.output?.decision === "block") blocks.push(stops);
		}
		expect(blocks).toEqual([0, 1, 2]);
		expect((await state()).lastDecision).toMatchObject({ kind: "skip", reason: "stagnation" });
	});

	it("does not take boulder's own nudge, should Codex submit it as a prompt, for the user's turn", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		for (let stops = 0; stops < 3; stops++) await stop();
		const before = await state();
		await send("UserPromptSubmit", { prompt: CONTINUATION_PROMPT });
		expect((await state()).episode).toEqual(before.episode);
		expect((await stop()).output).not.toMatchObject({ decision: "block" });
	});

	it("holds the user's interrupt until they write again", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		await send("Interrupt");
		expect((await state()).abortBlock).toMatchObject({ how: "interrupt" });
		expect((await stop()).output).toBeNull();
		expect((await state()).lastDecision).toMatchObject({ reason: "user-aborted" });
		await send("UserPromptSubmit", { prompt: "Carry on." });
		expect((await stop()).output).toMatchObject({ decision: "block" });
	});

	it("never continues a subagent", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		const answer = await send("SubagentStop", {
			agent_id: "agent-1",
			agent_type: "default",
			agent_transcript_path: null,
			stop_hook_active: false,
			last_assistant_message: "Sub done.",
		});
		expect(answer.output).toBeNull();
	});

	it("does not read a subagent's plan as the session's", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", { ...plan(0, 2), agent_id: "agent-1", agent_type: "default" });
		expect((await state()).todos).toBeNull();
	});

	it("leaves a pending question to the user", async () => {
		await send("UserPromptSubmit", { prompt: "Build it." });
		await send("PostToolUse", plan(0, 3));
		rollout = reading({ pendingQuestion: "Postgres or SQLite?" });
		expect((await send("Stop", { last_assistant_message: "I asked." })).output).toBeNull();
		expect((await state()).lastDecision).toMatchObject({ reason: "awaiting-user" });
	});

	it("fails closed when the rollout cannot be read", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		rollout = new FileProblem("/codex/sessions/rollout.jsonl", "missing", "it does not exist");
		expect((await send("Stop", { last_assistant_message: "x" })).output).toBeNull();
		expect((await state()).lastDecision).toMatchObject({ reason: "turn-unsafe" });
	});

	it("counts a compaction as no user turn", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		await stop();
		const before = await state();
		await send("PreCompact", { trigger: "auto", custom_instructions: null });
		await send("SessionStart", { source: "compact" });
		expect((await state()).episode).toEqual(before.episode);
	});

	it("tells a resumed or compacted session where its plan stands, as SessionStart context, and nothing on startup", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", plan(0, 2));
		await stop();
		const before = await state();
		for (const source of ["resume", "compact"]) {
			const answer = await send("SessionStart", { source });
			expect(answer.output).toEqual({
				hookSpecificOutput: {
					hookEventName: "SessionStart",
					additionalContext: expect.stringContaining("0 of 2 done"),
				},
			});
		}
		expect((await send("SessionStart", { source: "startup" })).output).toBeNull();
		expect((await state()).episode).toEqual(before.episode);
	});

	it("counts apply_patch as work the plan may not show yet", async () => {
		await send("UserPromptSubmit", { prompt: "Do both." });
		await send("PostToolUse", { tool_name: "apply_patch", tool_use_id: "c1", tool_input: {}, tool_response: "ok" });
		expect((await state()).turn?.activity).toBe(1);
	});
});
