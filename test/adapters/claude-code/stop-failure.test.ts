/**
 * A turn that dies on an API error (StopFailure) counts what it spent, read
 * from the real transcript the way Stop reads it.
 */

import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/claude-code/events.js";
import { readTurn } from "../../../src/adapters/claude-code/transcript.js";
import type { HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import type { Engine } from "../../../src/engine/engine.js";
import type { MemoryStore } from "../../../src/state/memory-store.js";
import {
	assistantLines,
	hookInput,
	memoryEngine,
	promptLine,
	SESSION,
	stopFeedbackLine,
	tempDir,
	text,
	tick,
	toolResultLine,
	toolUse,
	writeTranscript,
} from "./helpers.js";

let dir: string;
let engine: Engine;
let store: MemoryStore;

beforeEach(async () => {
	dir = await tempDir("boulder-stop-failure-");
	({ engine, store } = memoryEngine());
});

async function send(event: string, fields: Record<string, unknown>): Promise<HookAnswer> {
	tick(1000);
	return handleHook(hookInput(event, fields), { engine, readTurn: (file, options) => readTurn(file, options) });
}

describe("a turn that dies on an API error (StopFailure)", () => {
	/** Usage as Claude Code 2.1.197 writes it on each line of a message. */
	const usage = (input: number, output: number, cacheWrite: number, cacheRead: number) => ({
		input_tokens: input,
		cache_creation_input_tokens: cacheWrite,
		cache_read_input_tokens: cacheRead,
		cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
		output_tokens: output,
		service_tier: "standard",
		server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
	});

	/** The message Claude Code writes in place of the reply that failed: synthetic, no spend. */
	function apiErrorLine(message: string): Record<string, unknown> {
		const [line] = assistantLines("api-error", [text(message)], usage(0, 0, 0, 0));
		const inner = line?.message as Record<string, unknown>;
		return { ...line, isApiErrorMessage: true, message: { ...inner, model: "<synthetic>", id: randomUUID() } };
	}

	/** An earlier turn, then a turn of two calls (a tool use, then the one that failed). */
	async function failedTurn(start: Record<string, unknown>): Promise<string> {
		return writeTranscript(dir, [
			promptLine("Start."),
			...assistantLines("msg_old", [text("Earlier work.")], usage(9000, 900, 900, 0)),
			start,
			...assistantLines("msg_1", [text("Reading the file."), toolUse("t1", "Read")], usage(3, 150, 2100, 14_000)),
			toolResultLine("t1"),
			...assistantLines("msg_2", [toolUse("t2", "Edit")], usage(5, 420, 380, 16_100)),
			toolResultLine("t2"),
			apiErrorLine("API Error: 500 Internal server error"),
		]);
	}

	async function state() {
		const read = await store.readScope(engine.scopeOf({ harness: "claude-code", sessionId: SESSION }) ?? "");
		if (read.kind !== "ok") throw new Error(`scope state is ${read.kind}`);
		return read.value;
	}

	it("counts the real spend of the turn's calls: uncached input, output and cache writes, never cache reads", async () => {
		const file = await failedTurn(promptLine("Carry on."));
		await send("UserPromptSubmit", { prompt: "Carry on.", transcript_path: file });

		await send("StopFailure", {
			transcript_path: file,
			error: "server_error",
			last_assistant_message: "API Error: 500 Internal server error",
		});

		const { turn } = await state();
		expect(turn).toMatchObject({ outcome: "error", tokens: 3 + 150 + 2100 + 5 + 420 + 380 });
	});

	it("counts it into the episode's budget when the failed turn was a continuation, context overflow included", async () => {
		const first = await writeTranscript(dir, [
			promptLine("Go."),
			...assistantLines("msg_0", [text("Done.")], usage(10, 10, 0, 0)),
		]);
		await send("UserPromptSubmit", { prompt: "Go.", transcript_path: first });
		await send("PostToolUse", {
			tool_name: "TodoWrite",
			tool_input: { todos: [{ content: "One", status: "pending", activeForm: "One" }] },
			transcript_path: first,
		});
		const nudge = await send("Stop", { transcript_path: first, last_assistant_message: "Done." });
		expect(nudge.output).toMatchObject({ decision: "block" });
		const before = (await state()).episode?.tokens ?? 0;
		const file = await failedTurn(stopFeedbackLine("[boulder · automatic continuation — not written by the user]"));

		await send("StopFailure", {
			transcript_path: file,
			error: "invalid_request",
			error_details: '{"type":"error","error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
		});

		const after = await state();
		expect(after.turn).toMatchObject({ outcome: "context-overflow", tokens: 3058 });
		expect((after.episode?.tokens ?? 0) - before).toBe(3058);
	});

	it("still records the failure, with no spend, when the transcript cannot be read, and says why", async () => {
		await send("UserPromptSubmit", { prompt: "Go.", transcript_path: path.join(dir, "nope.jsonl") });

		await send("StopFailure", { transcript_path: path.join(dir, "nope.jsonl"), error: "rate_limit" });

		expect((await state()).turn).toMatchObject({ outcome: "error", tokens: 0 });
		const records = await store.readDecisions();
		expect(records.some((record) => record.reason === "error" && record.detail.includes("does not exist"))).toBe(true);
		expect(records.at(-1)).toMatchObject({ reason: "api-error" });
	});
});
