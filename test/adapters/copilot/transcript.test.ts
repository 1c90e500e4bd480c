import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unseenTurnReason } from "../../../src/adapters/command-hook/turn-reader.js";
import {
	analyseTurn,
	EVENT_LOG,
	isTurnStart,
	readBlockChain,
	readOwnTurn,
	readTurn,
} from "../../../src/adapters/copilot/transcript.js";

let id = 0;
/** An event-log line shaped like Copilot 1.0.102's. */
function line(type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	id++;
	return {
		type,
		data,
		id: `event-${id}`,
		timestamp: new Date(Date.UTC(2026, 11, 1, 12, 0, id)).toISOString(),
		...extra,
	};
}

const usage = (inputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) =>
	line("session.usage_record", { usage: { inputTokens, outputTokens: 20, cacheReadTokens, cacheWriteTokens } });
const prompt = (content: string) => line("user.message", { content, delivery: "idle" });
const say = (content: string, extra: Record<string, unknown> = {}) =>
	line("assistant.message", { content, toolRequests: [] }, extra);
const toolStart = (toolName: string, toolCallId: string, args: unknown = {}, extra: Record<string, unknown> = {}) =>
	line("tool.execution_start", { toolName, toolCallId, arguments: args }, extra);
const toolEnd = (toolCallId: string) => line("tool.execution_complete", { toolCallId, success: true });

describe("reading the current turn from Copilot's event log", () => {
	it("counts real spend (cache reads are not spend; subagents' calls are), edits, and the last words", () => {
		const start = prompt("Do it");
		const reading = analyseTurn([
			start,
			usage(100, 40, 5),
			toolStart("edit", "c1"),
			toolEnd("c1"),
			toolStart("bash", "c2"),
			toolEnd("c2"),
			toolStart("create", "c3", {}, { agentId: "sub" }),
			usage(50, 0, 0),
			say("sub words", { agentId: "sub" }),
			say("All done."),
			say(""),
		]);
		expect(reading.spend).toEqual({ input: 110, output: 40, cacheWrite: 5 });
		expect(reading.calls).toBe(2);
		expect(reading.activity).toBe(1);
		expect(reading.lastAssistantText).toBe("All done.");
		expect(reading.startMarker).toBe(start.id);
	});

	it("sees a question or a plan approval still waiting, an abort, and the reasons of blocked agentStops", () => {
		const reading = analyseTurn([
			prompt("Do it"),
			toolStart("ask_user", "q1", { question: "Postgres or SQLite?" }),
			toolEnd("q1"),
			toolStart("exit_plan_mode", "p1", { summary: "the plan" }),
			line("hook.end", { hookType: "agentStop", success: true, output: { decision: "block", reason: "Go on." } }),
			line("hook.end", { hookType: "agentStop", success: true }),
			line("abort", { reason: "user" }),
		]);
		expect(reading.pendingQuestion).toBe("the agent asked the user to approve its plan");
		expect(reading.stopBlocks).toEqual(["Go on."]);
		expect(reading.abort?.at).toEqual(expect.any(Number));
	});

	it("reads the records newest first: the pending question is the open one asked last, two aborts give the later", () => {
		const reading = analyseTurn([
			prompt("Do it"),
			toolStart("ask_user", "q1", { question: "First?" }),
			line("abort", { reason: "user" }),
			toolStart("ask_user", "q2", { question: "Second?" }),
			toolStart("ask_user", "q3", { question: "Third?" }),
			toolEnd("q3"),
			line("abort", { reason: "user" }),
			line("hook.end", { hookType: "agentStop", output: { decision: "block", reason: "One." } }),
			line("hook.end", { hookType: "agentStop", output: { decision: "block", reason: "Two." } }),
		]);
		expect(reading.pendingQuestion).toBe("Second?");
		expect(reading.abort?.at).toBe(Date.UTC(2026, 11, 1, 12, 0, id - 2));
		expect(reading.stopBlocks).toEqual(["One.", "Two."]);
	});

	it("begins a turn at the main agent's user messages only", () => {
		expect(isTurnStart(prompt("x"))).toBe(true);
		expect(isTurnStart({ ...prompt("x"), agentId: "sub" })).toBe(false);
		expect(isTurnStart(say("x"))).toBe(false);
	});

	it("reads only the last turn of a file, and says when no line begins one", async () => {
		const file = path.join(os.tmpdir(), `boulder-copilot-log-${process.pid}.jsonl`);
		const lines = [prompt("first"), usage(1000), say("one"), prompt("second"), usage(100), say("two")];
		await writeFile(file, `${lines.map((one) => JSON.stringify(one)).join("\n")}\n`);
		const reading = await readTurn(file);
		expect(reading.foundStart).toBe(true);
		expect(reading.spend.input).toBe(100);
		expect(reading.lastAssistantText).toBe("two");
		await writeFile(file, `${JSON.stringify(say("orphan"))}\n`);
		const orphan = await readTurn(file);
		expect(unseenTurnReason(file, orphan, EVENT_LOG)).toMatch(/no line of the event log .* begins the current turn/);
	});

	it("counts the agentStop blocks in a row that led to the current turn, back to the user's prompt", async () => {
		const file = path.join(os.tmpdir(), `boulder-copilot-chain-${process.pid}.jsonl`);
		const hook = (hookType: string, output?: Record<string, unknown>) =>
			line("hook.end", { hookType, success: true, ...(output ? { output } : {}) });
		const echo = (reason: string) => [
			hook("agentStop", { decision: "block", reason }),
			line("hook.start", { hookType: "userPromptSubmitted" }),
			hook("userPromptSubmitted"),
			prompt(reason),
		];
		const turnBody = [line("assistant.turn_start", {}), say("words"), line("assistant.turn_end", {})];
		const earlier = [prompt("old prompt"), ...turnBody, ...echo("old nudge"), ...turnBody, hook("agentStop")];
		const lines = [...earlier, hook("userPromptSubmitted"), prompt("Work the list."), ...turnBody];
		const chain = [...lines, ...echo("nudge 1"), ...turnBody, ...echo("nudge 2"), ...turnBody];
		await writeFile(file, `${chain.map((one) => JSON.stringify(one)).join("\n")}\n`);
		expect(await readBlockChain(file)).toBe(2);
		await writeFile(file, `${lines.map((one) => JSON.stringify(one)).join("\n")}\n`);
		expect(await readBlockChain(file)).toBe(0);
	});
});

describe("waiting for Copilot to write the stop's own line", () => {
	const own = { hookType: "agentStop", timestamp: Date.UTC(2026, 11, 1, 12, 30) };
	const ownLine = () => line("hook.start", { hookType: "agentStop", input: { timestamp: own.timestamp } });
	const jsonl = (lines: unknown[]) => `${lines.map((entry) => JSON.stringify(entry)).join("\n")}\n`;

	it("reads the turn that ends at the stop's own line, once the late log has it", async () => {
		const file = path.join(os.tmpdir(), `boulder-copilot-late-${process.pid}.jsonl`);
		const previous = prompt("First");
		await writeFile(file, jsonl([previous, say("First done.")]));
		const current = prompt("Second");
		let sleeps = 0;
		const reading = await readOwnTurn(file, own, {
			wait: {
				sleep: async () => {
					// Copilot writes the turn while the hook waits, then another hook's line after ours.
					if (++sleeps === 2) {
						await writeFile(
							file,
							jsonl([previous, say("First done."), current, say("Second done."), ownLine(), say("not the turn")]),
						);
					}
				},
			},
		});
		expect(sleeps).toBe(2);
		expect(reading.ownRecordSeen).toBe(true);
		expect(reading.startMarker).toBe(current.id);
		expect(reading.lastAssistantText).toBe("Second done.");
	});

	it("waits for a log that does not exist yet, and gives up at the deadline with the last reading", async () => {
		const file = path.join(os.tmpdir(), `boulder-copilot-missing-${process.pid}.jsonl`);
		let t = 0;
		let sleeps = 0;
		const wait = {
			timeoutMs: 1000,
			now: () => t,
			sleep: async (ms: number) => {
				t += ms;
				if (++sleeps === 1) await writeFile(file, jsonl([prompt("First"), say("First done.")]));
			},
		};
		const reading = await readOwnTurn(file, own, { wait });
		expect(reading.ownRecordSeen).toBe(false);
		expect(reading.lastAssistantText).toBe("First done.");
		expect(t).toBe(1000);
	});
});
