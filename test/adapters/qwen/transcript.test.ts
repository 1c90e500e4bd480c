import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { analyseQwenTurn, readQwenTurn } from "../../../src/adapters/qwen/transcript.js";

const usage = (prompt: number, cached = 0) => ({
	promptTokenCount: prompt,
	candidatesTokenCount: 20,
	thoughtsTokenCount: 5,
	cachedContentTokenCount: cached,
});
const user = (text: string, provenance = "real_user") => ({
	type: "user",
	provenance,
	message: { role: "user", parts: [{ text }] },
});
const call = (uuid: string, name: string, args: unknown, id = `${uuid}-call`) => ({
	uuid,
	type: "assistant",
	message: { role: "model", parts: [{ functionCall: { id, name, args } }] },
	usageMetadata: usage(100),
});
const result = (id: string) => ({
	type: "tool_result",
	message: { role: "user", parts: [{ functionResponse: { id, name: "x", response: { output: "ok" } } }] },
});
const reply = (uuid: string, text: string, prompt = 100, cached = 0) => ({
	uuid,
	type: "assistant",
	message: { role: "model", parts: [{ text }] },
	usageMetadata: usage(prompt, cached),
});
const telemetry = { type: "system", subtype: "ui_telemetry" };

describe("analyseQwenTurn", () => {
	it("reads the turn after the user's prompt: spend without cached input, edits, the last reply", () => {
		const turn = analyseQwenTurn([
			user("do it"),
			call("a1", "write_file", { file_path: "x" }),
			result("a1-call"),
			telemetry,
			reply("a2", "Done.", 300, 100),
		]);
		expect(turn.foundStart).toBe(true);
		expect(turn.spend).toEqual({ input: 100 + 200, output: 50, cacheWrite: 0 });
		expect(turn.activity).toBe(1);
		expect(turn.lastAssistantText).toBe("Done.");
		expect(turn.endMarker).toBe("a2");
		expect(turn.continuations).toBe(0);
	});

	it("starts a continued turn after the previous final reply, and counts the prompt's earlier turns", () => {
		const records = [
			user("do it"),
			reply("r1", "First."),
			reply("r2", "Second."),
			call("c", "edit", {}),
			reply("r3", "Third."),
		];
		const turn = analyseQwenTurn(records, 8);
		expect(turn.calls).toBe(2);
		expect(turn.spend.input).toBe(200);
		expect(turn.lastAssistantText).toBe("Third.");
		expect(turn.continuations).toBe(2);
	});

	it("stops counting at the cap it was asked about", () => {
		const records = [user("do it"), ...Array.from({ length: 12 }, (_, i) => reply(`r${i}`, `Reply ${i}.`))];
		expect(analyseQwenTurn(records, 5).continuations).toBe(5);
	});

	it("starts over at a harness notification, as Qwen Code's own count does", () => {
		const records = [user("do it"), reply("r1", "One."), user("<task-notification>…", "system"), reply("r2", "Two.")];
		expect(analyseQwenTurn(records, 8).continuations).toBe(0);
	});

	it("sees a question the user has not answered, and a plan awaiting approval", () => {
		const asked = analyseQwenTurn([
			user("build"),
			call("q", "ask_user_question", { questions: [{ question: "Postgres or SQLite?" }] }),
			reply("r", "Waiting."),
		]);
		expect(asked.pendingQuestion).toBe("Postgres or SQLite?");
		const answered = analyseQwenTurn([
			user("build"),
			call("q", "ask_user_question", { questions: [{ question: "Postgres?" }] }),
			result("q-call"),
			reply("r", "Ok."),
		]);
		expect(answered.pendingQuestion).toBeNull();
		const plan = analyseQwenTurn([user("plan"), call("p", "exit_plan_mode", { plan: "…" }), reply("r", "Plan ready.")]);
		expect(plan.pendingQuestion).toMatch(/plan/);
	});

	it("does not count shell commands as file activity", () => {
		expect(
			analyseQwenTurn([user("go"), call("s", "run_shell_command", { command: "ls" }), reply("r", "ok")]).activity,
		).toBe(0);
	});
});

describe("readQwenTurn", () => {
	let dir: string;
	afterEach(async () => rm(dir, { recursive: true, force: true }));

	it("reads the file from its end, leaving out a torn last line", async () => {
		dir = await mkdtemp(join(tmpdir(), "qwen-transcript-"));
		const file = join(dir, "chat.jsonl");
		const lines = [user("go"), reply("r1", "One."), reply("r2", "Two.")].map((line) => JSON.stringify(line));
		await writeFile(file, `${lines.join("\n")}\n{"type":"assis`);
		const turn = await readQwenTurn(file, { countUpTo: 8, retries: 0 });
		expect(turn.lastAssistantText).toBe("Two.");
		expect(turn.partialLastLine).toBe(true);
		expect(turn.continuations).toBe(1);
	});

	it("says the turn is unseen when no record shows where it began", async () => {
		dir = await mkdtemp(join(tmpdir(), "qwen-transcript-"));
		const file = join(dir, "chat.jsonl");
		await writeFile(file, `${JSON.stringify(reply("r1", "One."))}\n`);
		expect((await readQwenTurn(file, { retries: 0 })).foundStart).toBe(false);
	});

	it("waits for a transcript Qwen Code writes after it started the Stop hook, past the first tenth of a second", async () => {
		dir = await mkdtemp(join(tmpdir(), "qwen-transcript-"));
		const file = join(dir, "chat.jsonl");
		const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
		await writeFile(file, jsonl([user("go"), reply("r1", "One.")]));
		let waited = 0;
		let waits = 0;
		const turn = await readQwenTurn(file, {
			expectLastText: "Two.",
			sleep: async (ms) => {
				waited += ms;
				if (++waits === 5) await appendFile(file, jsonl([user("next"), reply("r2", "Two.")]));
			},
		});
		expect(waited).toBeGreaterThanOrEqual(200);
		expect(turn.lagging).toBe(false);
		expect(turn.endMarker).toBe("r2");
		expect(turn.lastAssistantText).toBe("Two.");
	});
});
