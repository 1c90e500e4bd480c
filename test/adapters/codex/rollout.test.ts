import { appendFile, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyseRolloutTurn, isRolloutTurnStart, readRolloutTurn } from "../../../src/adapters/codex/rollout.js";
import { GENERIC_QUESTION, unseenTurnReason as unseenReason } from "../../../src/adapters/command-hook/turn-reader.js";

/** Lines shaped like the ones Codex 0.171 writes into a rollout. */
const at = (second: number) => `2026-12-01T12:00:${String(second).padStart(2, "0")}.000Z`;
const started = { timestamp: at(0), type: "event_msg", payload: { type: "task_started", turn_id: "turn-1" } };
const userMessage = (id: string, text: string) => ({
	timestamp: at(1),
	type: "event_msg",
	payload: {
		type: "item_completed",
		turn_id: "turn-1",
		item: { type: "UserMessage", id, content: [{ type: "text", text }] },
	},
});
const hookPrompt = (id: string) => ({
	timestamp: at(5),
	type: "event_msg",
	payload: { type: "item_completed", turn_id: "turn-1", item: { type: "HookPrompt", id, fragments: [] } },
});
const usage = (response: string, input: number, cached: number, output: number, cacheWrite = 0) => ({
	timestamp: at(2),
	type: "token_usage_record",
	payload: {
		response_id: response,
		usage: {
			input_tokens: input,
			cached_input_tokens: cached,
			cache_write_input_tokens: cacheWrite,
			output_tokens: output,
		},
	},
});
const assistant = (text: string) => ({
	timestamp: at(3),
	type: "response_item",
	payload: { type: "message", role: "assistant", content: [{ type: "output_text", text }] },
});
const call = (name: string, callId: string, args: unknown) => ({
	timestamp: at(3),
	type: "response_item",
	payload: { type: "function_call", name, call_id: callId, arguments: JSON.stringify(args) },
});
const output = (callId: string, text: string) => ({
	timestamp: at(4),
	type: "response_item",
	payload: { type: "function_call_output", call_id: callId, output: text },
});
const question = { questions: [{ id: "db", header: "Store", question: "Postgres or SQLite?", options: [] }] };

describe("the current turn of a Codex rollout", () => {
	it("begins at the user's message, a hook's continuation, or the Codex turn's start", () => {
		expect(isRolloutTurnStart(started)).toBe(true);
		expect(isRolloutTurnStart(userMessage("u1", "Do it."))).toBe(true);
		expect(isRolloutTurnStart(hookPrompt("h1"))).toBe(true);
		expect(isRolloutTurnStart(assistant("Hi."))).toBe(false);
		expect(isRolloutTurnStart(usage("r1", 1, 0, 1))).toBe(false);
	});

	it("counts real spend once per response: cached input is not spend, cache writes are", () => {
		const turn = analyseRolloutTurn([
			userMessage("u1", "Do it."),
			usage("r1", 1000, 600, 50),
			usage("r2", 2000, 1500, 80, 100),
			assistant("Done."),
		]);
		expect(turn.spend).toEqual({ input: 400 + 400, output: 130, cacheWrite: 100 });
		expect(turn.calls).toBe(2);
		expect(turn.lastAssistantText).toBe("Done.");
		expect(turn.startMarker).toBe("u1");
	});

	it("reads only since the last continuation: each nudged turn has its own marker and spend", async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-"));
		const file = path.join(dir, "rollout.jsonl");
		const lines = [
			started,
			userMessage("u1", "Do it."),
			usage("r1", 100, 0, 10),
			assistant("First."),
			hookPrompt("h1"),
			usage("r2", 300, 0, 30),
			assistant("Second."),
		];
		await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
		const turn = await readRolloutTurn(file, { expectLastText: "Second." });
		expect(turn.startMarker).toBe("h1");
		expect(turn.spend).toEqual({ input: 300, output: 30, cacheWrite: 0 });
		expect(turn.lagging).toBe(false);
	});

	it("waits for a rollout Codex writes after it started the Stop hook, past the first tenth of a second", async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-"));
		const file = path.join(dir, "rollout.jsonl");
		const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
		await writeFile(file, jsonl([started, userMessage("u1", "Do it."), usage("r1", 100, 0, 10), assistant("First.")]));
		let waited = 0;
		let waits = 0;
		const turn = await readRolloutTurn(file, {
			expectLastText: "Second.",
			sleep: async (ms) => {
				waited += ms;
				// The continuation reaches the file only after 200 ms.
				if (++waits === 5)
					await appendFile(file, jsonl([hookPrompt("h1"), usage("r2", 300, 0, 30), assistant("Second.")]));
			},
		});
		expect(waited).toBeGreaterThanOrEqual(200);
		expect(turn.lagging).toBe(false);
		expect(turn.startMarker).toBe("h1");
		expect(turn.lastAssistantText).toBe("Second.");
	});

	it("waits for a rollout that does not exist yet when Codex reported a reply", async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-"));
		const file = path.join(dir, "rollout.jsonl");
		let waits = 0;
		const turn = await readRolloutTurn(file, {
			expectLastText: "First.",
			sleep: async () => {
				if (++waits === 2)
					await writeFile(
						file,
						`${[started, userMessage("u1", "Do it."), assistant("First.")].map((line) => JSON.stringify(line)).join("\n")}\n`,
					);
			},
		});
		expect(turn.startMarker).toBe("u1");
		expect(turn.lagging).toBe(false);
	});

	it("sees a request_user_input question that was never answered, or that Codex could not put to the user", () => {
		expect(
			analyseRolloutTurn([userMessage("u1", "Go."), call("request_user_input", "c1", question)]).pendingQuestion,
		).toBe("Postgres or SQLite?");
		const refused = analyseRolloutTurn([
			userMessage("u1", "Go."),
			call("request_user_input", "c1", question),
			output("c1", "request_user_input is unavailable in Default mode"),
			assistant("I asked."),
		]);
		expect(refused.pendingQuestion).toBe("Postgres or SQLite?");
	});

	it("does not hold an answered question against the agent", () => {
		const answered = analyseRolloutTurn([
			userMessage("u1", "Go."),
			call("request_user_input", "c1", question),
			output("c1", JSON.stringify({ answers: { db: { answers: ["SQLite"] } } })),
			assistant("SQLite it is."),
		]);
		expect(answered.pendingQuestion).toBeNull();
	});

	it("counts a question whose arguments are not JSON, in generic words, and an output that is not an object as no answer", () => {
		const garbled = {
			...call("request_user_input", "c1", null),
			payload: { type: "function_call", name: "request_user_input", call_id: "c1", arguments: "{not json" },
		};
		expect(analyseRolloutTurn([userMessage("u1", "Go."), garbled]).pendingQuestion).toBe(GENERIC_QUESTION);
		const listed = analyseRolloutTurn([
			userMessage("u1", "Go."),
			call("request_user_input", "c1", question),
			output("c1", JSON.stringify([{ answers: {} }])),
		]);
		expect(listed.pendingQuestion).toBe("Postgres or SQLite?");
	});

	it("sees an interrupted turn, with its time", () => {
		const turn = analyseRolloutTurn([
			userMessage("u1", "Go."),
			{ timestamp: at(9), type: "event_msg", payload: { type: "turn_aborted", reason: "interrupted" } },
		]);
		expect(turn.interrupt).toEqual({ at: Date.parse(at(9)) });
	});

	it("says when no line of the file begins the turn", async () => {
		const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-"));
		const file = path.join(dir, "rollout.jsonl");
		await writeFile(file, `${JSON.stringify(assistant("Orphan."))}\nnot json\n`);
		const turn = await readRolloutTurn(file, { retries: 0 });
		expect(turn.foundStart).toBe(false);
		expect(unseenReason(file, turn)).toBe(
			`no line of the transcript ${file} begins the current turn (1 of its lines are not JSON)`,
		);
	});
});
