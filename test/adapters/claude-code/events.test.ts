import { beforeEach, describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/claude-code/events.js";
import type { ReadTurnOptions, TurnReading } from "../../../src/adapters/claude-code/transcript.js";
import { lookCommandOf, provenanceOf } from "../../../src/adapters/command-hook/claude-style.js";
import type { HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import type { ConfigInput } from "../../../src/core/config.js";
import { Config } from "../../../src/core/config.js";
import { FileProblem } from "../../../src/engine/bounded-read.js";
import type { Engine } from "../../../src/engine/engine.js";
import { Engine as EngineClass } from "../../../src/engine/engine.js";
import { FileStore } from "../../../src/state/file-store.js";
import type { MemoryStore } from "../../../src/state/memory-store.js";
import { clock, hookInput, memoryEngine, reading, SCOPE, SESSION, tempDir, tick } from "./helpers.js";

let engine: Engine;
let store: MemoryStore;
let transcript: TurnReading | Error;
let reads: ReadTurnOptions[];

function setUp(config: ConfigInput = {}): void {
	({ engine, store } = memoryEngine(config));
	transcript = reading();
	reads = [];
}

beforeEach(() => setUp());

const deps = () => ({
	engine,
	readTurn: async (_file: string, options: ReadTurnOptions) => {
		reads.push(options);
		if (transcript instanceof Error) throw transcript;
		return transcript;
	},
});

async function send(event: string, fields: Record<string, unknown> = {}): Promise<HookAnswer> {
	tick(1000);
	return handleHook(hookInput(event, fields), deps());
}

/** What Claude Code does with the answer: print it, then the hook reports the delivery. */
async function stop(fields: Record<string, unknown> = {}): Promise<HookAnswer> {
	const answer = await send("Stop", { stop_hook_active: false, last_assistant_message: "Done for now.", ...fields });
	if (answer.output) await answer.written?.();
	return answer;
}

const todos = (done: number, total: number) =>
	Array.from({ length: total }, (_, index) => ({
		content: `Item ${index + 1}`,
		status: index < done ? "completed" : "pending",
		activeForm: `Doing item ${index + 1}`,
	}));

async function todoWrite(done: number, total: number, fields: Record<string, unknown> = {}) {
	return send("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos: todos(done, total) }, ...fields });
}

async function state() {
	const read = await store.readScope(SCOPE);
	if (read.kind !== "ok") throw new Error(`scope state is ${read.kind}`);
	return read.value;
}

async function log() {
	return store.readDecisions();
}

describe("Stop", () => {
	it("blocks with boulder's prompt while todos are open, and reports the delivery", async () => {
		await send("UserPromptSubmit", { prompt: "Work through the list." });
		await todoWrite(1, 4);

		const answer = await stop();

		expect(answer.output).toMatchObject({ decision: "block" });
		expect(String(answer.output?.reason)).toContain("1 of 4 done");
		const after = await state();
		expect(after.lastDecision).toMatchObject({ kind: "inject", delivery: "delivered" });
		expect(after.turn).toMatchObject({ provenance: "continuation", outcome: null });
	});

	it("records the turn's real spend and activity from the transcript", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(0, 3);
		transcript = reading({ spend: { input: 5000, output: 300, cacheWrite: 40 }, activity: 2 });

		await stop();

		const { turn, seq } = await state();
		expect(seq).toBe(2);
		const ended = (await log()).filter((record) => record.kind === "inject");
		expect(ended).toHaveLength(1);
		expect(turn?.provenance).toBe("continuation");
		transcript = reading({ spend: { input: 700, output: 70, cacheWrite: 0 } });
		await stop();
		expect((await state()).episode?.tokens).toBe(770);
	});

	it("tells the transcript reader the reply the harness reported, so a lagging file is waited for", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });

		await stop({ last_assistant_message: "All set." });

		expect(reads.at(-1)?.expectLastText).toBe("All set.");
	});

	it("lets the agent stop, saying so once, when every todo is done", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(3, 3);

		const first = await stop();
		await send("UserPromptSubmit", { prompt: "Anything else?" });
		const second = await stop();

		expect(first.output).toEqual({ systemMessage: expect.stringContaining("complete") });
		expect(second.output).toBeNull();
	});

	it("does not nudge an agent that asked the user to choose", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);

		const answer = await stop({
			last_assistant_message: "Should I use Postgres or SQLite? Let me know which you prefer.",
		});

		expect(answer.output).toBeNull();
		expect((await log()).at(-1)).toMatchObject({ kind: "skip", reason: "awaiting-user" });
	});

	it("does not nudge while an AskUserQuestion call has no answer", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = reading({ pendingQuestion: "Which database?" });

		const answer = await stop();

		expect(answer.output).toBeNull();
		expect((await log()).at(-1)).toMatchObject({
			reason: "awaiting-user",
			detail: expect.stringContaining("Which database?"),
		});
	});

	it("waits for background tasks that are still running, and not for finished ones", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);

		const busy = await stop({
			background_tasks: [
				{ id: "b1", status: "running" },
				{ id: "b2", status: "completed" },
			],
		});
		await send("UserPromptSubmit", { prompt: "Go on." });
		const idle = await stop({ background_tasks: [{ id: "b2", status: "completed" }] });

		expect(busy.output).toBeNull();
		expect((await log()).find((record) => record.reason === "background-busy")?.detail).toMatch(/^1 background/);
		expect(idle.output).toMatchObject({ decision: "block" });
	});

	it("times each listed task from the first Stop that saw it, and stops waiting for one past its limit", async () => {
		setUp({ watchdog: { limitMs: 10 * 60_000, perAgent: { Explore: 60 * 60_000 } } });
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		const wedged = {
			id: "a1",
			type: "subagent",
			status: "running",
			description: "slow helper",
			agent_type: "general-purpose",
		};
		const slow = { id: "a2", type: "subagent", status: "running", description: "long look", agent_type: "Explore" };

		const busy = await stop({ background_tasks: [wedged] });
		tick(6 * 60_000);
		await send("UserPromptSubmit", { prompt: "Go on." });
		const stillBusy = await stop({ background_tasks: [wedged, slow] });
		tick(5 * 60_000);
		await send("UserPromptSubmit", { prompt: "And?" });
		const waitsForTheOther = await stop({ background_tasks: [wedged, slow] });
		await send("UserPromptSubmit", { prompt: "Still?" });
		const nudged = await stop({ background_tasks: [wedged] });

		expect([busy.output, stillBusy.output, waitsForTheOther.output]).toEqual([null, null, null]);
		expect(nudged.output).toMatchObject({ decision: "block" });
		expect(String(nudged.output?.reason)).toContain("a1 (general-purpose)");
		const details = (await log())
			.filter((record) => record.reason === "background-busy")
			.map((record) => record.detail);
		expect(details).toEqual([
			expect.stringMatching(/^1 background task\(s\) still running; deciding again when they finish or run past/),
			expect.stringMatching(/^2 background task\(s\) still running;/),
			expect.stringContaining(
				"1 background task(s) still running (not waiting for a1 (general-purpose) has run 11 min",
			),
		]);
		expect((await log()).at(-1)?.detail).toContain(
			"not waiting for a1 (general-purpose) has run 11 min, past its limit of 10 min",
		);
		expect((await state()).observed.background?.map((task) => task.id)).toEqual(["a1"]);
	});

	it("tells the user, without blocking, when it stops on the stagnation limit", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		const answers: HookAnswer[] = [];
		for (let index = 0; index < 5; index++) answers.push(await stop());

		expect(answers.map((answer) => (answer.output?.decision ? "block" : answer.output ? "notice" : "none"))).toEqual([
			"block",
			"block",
			"block",
			"notice",
			"notice",
		]);
		expect(String(answers[3]?.output?.systemMessage)).toMatch(/^boulder: not continuing — .*no progress/);
	});

	it("answers a second Stop for the same turn (two registrations) with nothing", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		// Claude Code runs both registrations before it acts on the block: both read the same turn.
		transcript = reading({ startMarker: "prompt-line-1" });
		const first = await send("Stop", { last_assistant_message: "Done." });

		const second = await send("Stop", { last_assistant_message: "Done." });

		expect(first.output).toMatchObject({ decision: "block" });
		expect(second.output).toBeNull();
		expect((await log()).at(-1)).toMatchObject({ kind: "skip", reason: "turn-unsafe" });
	});

	it("decides the next Stop, which begins at the nudge's feedback line, as a new turn", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = reading({ startMarker: "prompt-line-1" });
		await send("Stop", { last_assistant_message: "Done." });
		await todoWrite(2, 4);
		transcript = reading({ startMarker: "stop-feedback-line-2" });

		const next = await send("Stop", { last_assistant_message: "Done with item 2." });

		expect(next.output).toMatchObject({ decision: "block" });
	});

	it("does not nudge when the transcript cannot be read, and says why in one decision", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = new FileProblem("/transcripts/session.jsonl", "unreadable", "EACCES: permission denied");

		const answer = await stop();

		expect(answer.output).toBeNull();
		const last = (await log()).at(-1);
		expect(last).toMatchObject({ kind: "skip", reason: "turn-unsafe" });
		expect(last?.detail).toBe(
			"how the last turn went cannot be seen: cannot read the transcript /transcripts/session.jsonl: EACCES: permission denied",
		);
		expect((await log()).some((record) => record.reason === "error")).toBe(false);
	});

	it("does not nudge when the transcript does not exist, is not a regular file, or no path was given", async () => {
		const cases: [Record<string, unknown>, TurnReading | Error, string][] = [
			[
				{},
				new FileProblem("/transcripts/session.jsonl", "missing", "it does not exist"),
				"the transcript /transcripts/session.jsonl does not exist",
			],
			[
				{},
				new FileProblem("/transcripts/session.jsonl", "not-regular", "it is a FIFO (named pipe), not a regular file"),
				"cannot read the transcript /transcripts/session.jsonl: it is a FIFO (named pipe), not a regular file",
			],
			[{ transcript_path: null }, reading(), "Claude Code gave no transcript_path"],
		];
		for (const [fields, read, why] of cases) {
			setUp();
			await send("UserPromptSubmit", { prompt: "Go." });
			await todoWrite(1, 4);
			transcript = read;

			const answer = await stop(fields);

			expect(answer.output).toBeNull();
			expect((await log()).at(-1)).toMatchObject({
				kind: "skip",
				reason: "turn-unsafe",
				detail: `how the last turn went cannot be seen: ${why}`,
			});
		}
	});

	it("does not nudge when no line of the transcript begins the turn, or a limit stopped the reading", async () => {
		const cases: [Partial<TurnReading>, string][] = [
			[
				{ foundStart: false, calls: 0, skippedLines: 3 },
				"no line of the transcript /transcripts/session.jsonl begins the current turn (3 of its lines are not JSON)",
			],
			[
				{ foundStart: false, limit: { kind: "bytes", bytes: 256 * 1024 * 1024 } },
				"the current turn began more than 256 MB before the end of the transcript /transcripts/session.jsonl, further back than boulder reads",
			],
			[
				{ foundStart: false, limit: { kind: "line", bytes: 64 * 1024 * 1024 } },
				"the transcript /transcripts/session.jsonl has a line longer than 64 MB, more than boulder reads",
			],
		];
		for (const [partial, why] of cases) {
			setUp();
			await send("UserPromptSubmit", { prompt: "Go." });
			await todoWrite(1, 4);
			transcript = reading(partial);

			const answer = await stop();

			expect(answer.output).toBeNull();
			expect((await log()).at(-1)).toMatchObject({
				reason: "turn-unsafe",
				detail: `how the last turn went cannot be seen: ${why}`,
			});
		}
	});

	it("honours an interrupt the transcript shows, once, before deciding", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = reading({ interrupt: { at: clock.now() + 500 } });

		const first = await stop();
		const second = await stop();

		expect(first.output).toBeNull();
		expect(second.output).toBeNull();
		const events = await log();
		expect(events.filter((record) => record.reason === "user-aborted" && record.kind === "event")).toHaveLength(1);
		expect(events.at(-1)).toMatchObject({ kind: "skip", reason: "user-aborted" });
	});

	it("does not take an interrupt from before the current turn for a new one", async () => {
		const old = clock.now();
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = reading({ interrupt: { at: old - 10_000 } });

		const answer = await stop();

		expect(answer.output).toMatchObject({ decision: "block" });
	});
});

describe("Stop beside Claude Code's own /goal", () => {
	const goalDeps = (goal: string | null | Error) => ({
		...deps(),
		readGoal: async () => {
			if (goal instanceof Error) throw goal;
			return goal;
		},
	});
	const stopWith = async (goal: string | null | Error) => {
		tick(1000);
		const input = hookInput("Stop", { stop_hook_active: false, last_assistant_message: "Done for now." });
		const answer = await handleHook(input, goalDeps(goal));
		if (answer.output) await answer.written?.();
		return answer;
	};

	it("stands down while a /goal is active: no nudge, and `why` names the goal", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);

		const answer = await stopWith("Finish items A to D");

		expect(answer.output).toBeNull();
		expect((await log()).at(-1)).toMatchObject({
			kind: "skip",
			reason: "not-eligible",
			detail: expect.stringContaining(`Claude Code's /goal "Finish items A to D" drives this session`),
		});
	});

	it("drives again once no goal is active, and when the goal cannot be read (the error recorded)", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		expect((await stopWith(null)).output).toMatchObject({ decision: "block" });
		expect((await stopWith(new Error("EACCES"))).output).toMatchObject({ decision: "block" });
		expect((await log()).some((record) => record.reason === "error")).toBe(true);
	});

	it("takes over when configured so (builtInGoals: take-over)", async () => {
		setUp({ builtInGoals: "take-over" });
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);

		expect((await stopWith("Finish items A to D")).output).toMatchObject({ decision: "block" });
	});
});

describe("UserPromptSubmit", () => {
	it("is a real user turn: it lifts the abort block and opens a fresh episode", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		transcript = reading({ interrupt: { at: clock.now() + 500 } });
		expect((await stop()).output).toBeNull();
		transcript = reading();

		await send("UserPromptSubmit", { prompt: "Carry on please." });
		const answer = await stop();

		expect(answer.output).toMatchObject({ decision: "block" });
		expect((await state()).abortBlock).toBeNull();
	});

	it("records an interrupt seen when the user writes again, before the new turn", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		transcript = reading({ interrupt: { at: clock.now() + 500 } });

		await send("UserPromptSubmit", { prompt: "Stop that, do this instead." });

		const reasons = (await log()).map((record) => record.reason);
		expect(reasons.slice(-2)).toEqual(["user-aborted", "user-turn"]);
		expect((await state()).abortBlock).toBeNull();
	});

	it("treats /boulder:why and /boulder:status as looking at boulder: no new episode, no nudge after", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		for (let index = 0; index < 4; index++) await stop();
		expect((await log()).at(-1)).toMatchObject({ reason: "stagnation" });

		await send("UserPromptSubmit", { prompt: "/boulder:why" });
		const afterWhy = await stop({ last_assistant_message: "boulder stopped: the last 3 nudges brought no progress." });

		expect(afterWhy.output).toBeNull();
		expect((await state()).turn?.provenance).toBe("system");
		await send("UserPromptSubmit", { prompt: "OK, keep going." });
		expect((await stop()).output).toMatchObject({ decision: "block" });
	});

	it("reads the other /boulder commands and ordinary prompts as the user's", () => {
		expect(lookCommandOf("/boulder:why")).toBe("why");
		expect(lookCommandOf("  /boulder:status --all")).toBe("status");
		expect(
			lookCommandOf("<command-message>boulder:why</command-message>\n<command-name>/boulder:why</command-name>"),
		).toBe("why");
		expect(lookCommandOf("/boulder:stop")).toBeNull();
		expect(lookCommandOf("/boulder:go")).toBeNull();
		expect(lookCommandOf("/boulder:start plan.md")).toBeNull();
		expect(lookCommandOf("explain /boulder:why to me")).toBeNull();
		expect(lookCommandOf("/boulder:whyever")).toBeNull();
	});

	it("takes a `source` saying the harness woke the agent as a system turn", () => {
		expect(provenanceOf(null)).toBe("user");
		expect(provenanceOf("user")).toBe("user");
		expect(provenanceOf("sdk")).toBe("user");
		for (const source of ["system", "loop_wakeup", "schedule_wakeup", "poll_event"]) {
			expect(provenanceOf(source)).toBe("system");
		}
	});

	it("takes a background task's <task-notification> turn (no `source`, 2.1.332) as a system turn", () => {
		expect(provenanceOf(null, "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>")).toBe("system");
		expect(provenanceOf(null, "What is a <task-notification>?")).toBe("user");
	});

	const wakeups: [string, Record<string, unknown>][] = [
		["a <task-notification>", { prompt: "<task-notification>\n<task-id>a1</task-id>\n</task-notification>" }],
		["a /loop wakeup", { prompt: "Check the build again.", source: "loop_wakeup" }],
		["a scheduled wakeup", { prompt: "Nightly check.", source: "schedule_wakeup" }],
		["a poll event", { prompt: "New event.", source: "poll_event" }],
		["a system message", { prompt: "From a peer.", source: "system" }],
	];

	for (const [name, fields] of wakeups) {
		it(`keeps an Esc through ${name}: not the user's turn`, async () => {
			await send("UserPromptSubmit", { prompt: "Go." });
			await todoWrite(1, 4);
			transcript = reading({ interrupt: { at: clock.now() + 500 } });
			expect((await stop()).output).toBeNull();
			transcript = reading();

			await send("UserPromptSubmit", fields);
			const answer = await stop();

			expect(answer.output).toBeNull();
			expect((await state()).abortBlock).not.toBeNull();
			expect((await log()).at(-1)).toMatchObject({ kind: "skip", reason: "user-aborted" });
		});

		it(`does not open a fresh episode for ${name}`, async () => {
			await send("UserPromptSubmit", { prompt: "Go." });
			await todoWrite(1, 4);
			for (let index = 0; index < 4; index++) await stop();
			expect((await log()).at(-1)).toMatchObject({ reason: "stagnation" });

			await send("UserPromptSubmit", fields);
			const answer = await stop();

			expect(answer.output).not.toMatchObject({ decision: "block" });
			expect((await state()).turn?.provenance).toBe("system");
			expect((await log()).at(-1)).toMatchObject({ kind: "skip", reason: "stagnation" });
		});
	}

	it("does not record a missing transcript before the session's first prompt as an error", async () => {
		transcript = new FileProblem("/transcripts/session.jsonl", "missing", "it does not exist");

		await send("UserPromptSubmit", { prompt: "Go." });

		expect((await log()).some((record) => record.reason === "error")).toBe(false);
	});
});

describe("PostToolUse", () => {
	it("keeps the agent's TodoWrite list", async () => {
		await todoWrite(2, 5);

		expect((await state()).todos?.map((todo) => todo.status)).toEqual([
			"completed",
			"completed",
			"pending",
			"pending",
			"pending",
		]);
	});

	it("keeps the Task tools' list through the reducer", async () => {
		await send("PostToolUse", {
			tool_name: "TaskCreate",
			tool_input: { subject: "Write the parser", description: "d" },
			tool_response: { task: { id: "1", subject: "Write the parser" } },
		});
		await send("PostToolUse", {
			tool_name: "TaskCreate",
			tool_input: { subject: "Test the parser", description: "d" },
			tool_response: { task: { id: "2", subject: "Test the parser" } },
		});
		await send("PostToolUse", {
			tool_name: "TaskUpdate",
			tool_input: { taskId: "1", status: "completed" },
			tool_response: { success: true, taskId: "1", updatedFields: ["status"] },
		});

		expect((await state()).todos).toEqual([
			{ id: "1", content: "Write the parser", status: "completed" },
			{ id: "2", content: "Test the parser", status: "pending" },
		]);
	});

	it("records what the normaliser dropped", async () => {
		await send("PostToolUse", {
			tool_name: "TodoWrite",
			tool_input: {
				todos: [
					{ content: "", status: "pending" },
					{ content: "Real item", status: "pending" },
				],
			},
		});

		expect((await state()).todos).toHaveLength(1);
		expect((await log()).at(-1)).toMatchObject({
			reason: "error",
			detail: expect.stringContaining("content is empty"),
		});
	});

	it("never lets a subagent's list replace its parent's", async () => {
		await todoWrite(0, 2);

		await todoWrite(5, 5, { agent_id: "agent-1", agent_type: "general-purpose" });

		expect((await state()).todos).toHaveLength(2);
	});

	it("loses no Task tool update when two hook processes handle two at once", async () => {
		const dir = await tempDir();
		const engines = [0, 1].map(
			() =>
				new EngineClass({
					store: new FileStore(dir, { clock }),
					config: Config.parse({}),
					clock,
					plans: { read: async () => null },
				}),
		);
		const create = (id: string, which: number) =>
			handleHook(
				hookInput("PostToolUse", {
					tool_name: "TaskCreate",
					tool_input: { subject: `Task ${id}` },
					tool_response: { task: { id, subject: `Task ${id}` } },
				}),
				{ engine: engines[which] as Engine, readTurn: async () => reading() },
			);

		await Promise.all(Array.from({ length: 8 }, (_, index) => create(String(index + 1), index % 2)));

		const read = await new FileStore(dir).readScope(SCOPE);
		expect(read.kind === "ok" && read.value.todos?.map((todo) => todo.id).sort()).toEqual(
			["1", "2", "3", "4", "5", "6", "7", "8"].sort(),
		);
	});
});

describe("the other events", () => {
	it("lets a subagent stop without a nudge and logs that subagents own no continuation", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);

		const answer = await send("SubagentStop", { agent_id: "agent-1", agent_type: "general-purpose" });

		expect(answer.output).toBeNull();
		expect((await log()).at(-1)).toMatchObject({ kind: "skip", reason: "not-eligible", scope: null });
		expect((await state()).turn?.outcome).toBeNull();
	});

	it("forgets a background subagent in the parent's record when its SubagentStop comes, and only that one", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await todoWrite(1, 4);
		const task = (id: string) => ({ id, type: "subagent", status: "running", agent_type: "general-purpose" });
		await stop({ background_tasks: [task("a1"), task("a2")] });
		const listed = async () => (await state()).observed;
		expect((await listed()).background?.map((known) => known.id)).toEqual(["a1", "a2"]);
		expect((await listed()).backgroundTasks).toBe(2);

		await send("SubagentStop", { agent_id: "a1", agent_type: "general-purpose" });
		await send("SubagentStop", { agent_id: "a-foreground", agent_type: "Explore" });

		expect((await listed()).background?.map((known) => known.id)).toEqual(["a2"]);
		expect((await listed()).backgroundTasks).toBe(1);
	});

	it("takes a too-long prompt as a context overflow, and other API failures as API errors", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		await send("StopFailure", {
			error: "invalid_request",
			error_details: '{"type":"error","error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
		});
		expect((await state()).turn?.outcome).toBe("context-overflow");

		await send("UserPromptSubmit", { prompt: "Try again." });
		await send("StopFailure", { error: "server_error", last_assistant_message: "API Error: 500" });

		expect((await state()).turn?.outcome).toBe("error");
		expect((await log()).at(-1)).toMatchObject({
			reason: "api-error",
			detail: expect.stringContaining("server_error"),
		});
	});

	it("reports compaction as an event, not a user turn", async () => {
		await send("UserPromptSubmit", { prompt: "Go." });
		const before = (await state()).seq;

		await send("PreCompact", { trigger: "auto", custom_instructions: null });

		expect((await log()).at(-1)).toMatchObject({ kind: "event", reason: "compaction" });
		expect((await state()).seq).toBe(before);
	});

	it("starts no turn on SessionStart, resume included, and forgets an earlier process's background tasks", async () => {
		await engine.backgroundChanged({ harness: "claude-code", sessionId: SESSION }, 2);

		await send("SessionStart", { source: "resume" });

		const after = await state();
		expect(after.turn).toBeNull();
		expect(after.suppressNextIdle).toBeNull();
		expect(after.observed.backgroundTasks).toBe(0);
	});

	it("leaves a compaction's SessionStart to PreCompact", async () => {
		await send("SessionStart", { source: "compact" });

		expect(await log()).toEqual([]);
	});

	it("tells a resumed or compacted session with open items where its list stands, as context on SessionStart", async () => {
		const ref = { harness: "claude-code", sessionId: SESSION };
		await engine.todosChanged(ref, [
			{ content: "Write the parser", status: "completed" },
			{ content: "Wire the CLI", status: "in_progress" },
		]);
		const before = await state();

		for (const source of ["resume", "compact"]) {
			const answer = await send("SessionStart", { source });
			const output = answer.output?.hookSpecificOutput as Record<string, unknown> | undefined;
			expect(output?.hookEventName).toBe("SessionStart");
			expect(output?.additionalContext).toContain("1 of 2 done, 1 open in your todo list");
			expect(output?.additionalContext).toContain("- Wire the CLI (in progress)");
		}
		expect((await send("SessionStart", { source: "startup" })).output).toBeNull();
		expect((await send("SessionStart", { source: "clear" })).output).toBeNull();
		expect((await log()).filter((record) => record.reason === "resume-context")).toHaveLength(2);
		expect((await state()).episode).toEqual(before.episode);
		expect((await state()).seq).toBe(before.seq);
	});
});
