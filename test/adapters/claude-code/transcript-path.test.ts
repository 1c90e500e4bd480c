/**
 * Claude Code's hook inputs carry `transcript_path`: the session's state keeps
 * it (the dashboard shows it to copy), from the first event that names it.
 */
import { describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/claude-code/events.js";
import { hookInput, memoryEngine, SCOPE, SESSION, tick, reading as turnReading } from "./helpers.js";

const reading = turnReading();

describe("the transcript path", () => {
	it("is kept on the session's state from the turn's start and its Stop", async () => {
		const { engine, store } = memoryEngine();
		const deps = { engine, readTurn: async () => reading };
		tick();
		await handleHook(
			hookInput("UserPromptSubmit", { prompt: "Go.", transcript_path: "/home/jo/.claude/projects/-w/a.jsonl" }),
			deps,
		);
		const started = await store.readScope(SCOPE);
		expect(started.kind === "ok" && started.value.observed.transcriptPath).toBe("/home/jo/.claude/projects/-w/a.jsonl");

		tick();
		await handleHook(
			hookInput("Stop", { stop_hook_active: false, transcript_path: "/home/jo/.claude/projects/-w/b.jsonl" }),
			deps,
		);
		const stopped = await store.readScope(SCOPE);
		expect(stopped.kind === "ok" && stopped.value.observed.transcriptPath).toBe("/home/jo/.claude/projects/-w/b.jsonl");
	});

	it("and its prompt_id is on the turn's decision records, to join Claude Code's own telemetry", async () => {
		const { engine, store } = memoryEngine();
		const deps = { engine, readTurn: async () => reading };
		tick();
		await handleHook(hookInput("UserPromptSubmit", { prompt: "Go.", prompt_id: "0b5d-prompt" }), deps);
		await engine.todosChanged({ harness: "claude-code", sessionId: SESSION }, [
			{ content: "one", status: "completed" },
			{ content: "two", status: "pending" },
		]);
		tick();
		await handleHook(hookInput("Stop", { stop_hook_active: false, prompt_id: "0b5d-prompt" }), deps);
		const records = await store.readDecisions();
		const decision = records.find((record) => record.kind !== "event");
		expect(decision?.promptId).toBe("0b5d-prompt");
	});
});
