import { describe, expect, it } from "vitest";
import {
	handleQwenHook,
	parseQwenHookInput,
	promptProvenance,
	type QwenHookDeps,
} from "../../../src/adapters/qwen/events.js";
import { Config } from "../../../src/core/config.js";
import { CONTINUATION_PROMPT } from "../../../src/core/prompts/continuation.prompt.js";
import { VERIFY_FAILED_PROMPT } from "../../../src/core/prompts/verify-failed.prompt.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

describe("promptProvenance (Qwen Code's UserPromptSubmit)", () => {
	it("counts only a prompt that carries submitted_prompt as the user's", () => {
		expect(promptProvenance({ prompt: "fix it", submitted_prompt: "fix it" })).toBe("user");
	});

	it("starts no turn for a tool result, which arrives with an empty prompt", () => {
		expect(promptProvenance({ prompt: "" })).toBeNull();
		expect(promptProvenance({})).toBeNull();
	});

	it("starts no turn for boulder's own nudges (a list's, a failed verify's): their delivery started it", () => {
		for (const text of [CONTINUATION_PROMPT, VERIFY_FAILED_PROMPT]) {
			expect(promptProvenance({ prompt: text })).toBeNull();
		}
	});

	it("makes another hook's continuation a system turn, which never resets the budgets", () => {
		expect(promptProvenance({ prompt: "Another hook says: keep going" })).toBe("system");
	});

	it("knows boulder's nudge by its first line, even after leading whitespace, and not a prompt that quotes it later", () => {
		expect(promptProvenance({ prompt: `\n  ${CONTINUATION_PROMPT}` })).toBeNull();
		expect(promptProvenance({ prompt: `Why did I get this? ${CONTINUATION_PROMPT}` })).toBe("system");
	});
});

describe("Qwen Code's SessionStart", () => {
	const clock = { now: () => Date.UTC(2026, 11, 1, 9, 0, 0) };
	const ref = { harness: "qwen", sessionId: "s1" };

	async function withOpenList() {
		const store = new MemoryStore("/w", { clock });
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: { read: async () => null } });
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ content: "Item A", status: "completed" },
			{ content: "Item B", status: "pending" },
		]);
		const deps: QwenHookDeps = {
			engine,
			readTurn: async () => {
				throw new Error("SessionStart reads no transcript");
			},
			cap: async () => 8,
		};
		const start = (fields: Record<string, unknown>) => {
			const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", hook_event_name: "SessionStart" };
			const parsed = parseQwenHookInput(JSON.stringify({ ...base, ...fields }), "SessionStart");
			if (!parsed.ok) throw new Error(parsed.problem);
			return handleQwenHook(parsed.input, deps);
		};
		return { engine, start };
	}

	it("tells a resumed or compacted session where its list stands, as additionalContext", async () => {
		const { start } = await withOpenList();
		for (const [source, how] of [
			["resume", "was resumed"],
			["compact", "had its conversation compacted"],
		]) {
			const answer = await start({ source, model: "m", permission_mode: "yolo" });
			expect(answer.output).toEqual({
				hookSpecificOutput: {
					hookEventName: "SessionStart",
					additionalContext: expect.stringMatching(new RegExp(`${how}[\\s\\S]*1 of 2 done[\\s\\S]*- Item B`)),
				},
			});
		}
	});

	it("says nothing on startup or clear, nor to a subagent", async () => {
		const { engine, start } = await withOpenList();
		const before = await engine.explain({ lines: 100 });
		for (const source of ["startup", "clear"]) expect((await start({ source })).output).toBeNull();
		expect((await start({ source: "resume", agent_id: "a1", agent_type: "general" })).output).toBeNull();
		expect(await engine.explain({ lines: 100 })).toHaveLength(before.length);
	});
});

describe("Qwen Code's continuation cap at Stop", () => {
	const clock = { t: Date.UTC(2026, 11, 1, 9, 0, 0), now: () => clock.t };
	const ref = { harness: "qwen", sessionId: "s1" };

	async function stopAfter(continuations: number, cap = 8) {
		const store = new MemoryStore("/w", { clock });
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: { read: async () => null } });
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ content: "Item A", status: "completed" },
			{ content: "Item B", status: "pending" },
		]);
		clock.t += 1000;
		const deps: QwenHookDeps = {
			engine,
			readTurn: async () => ({
				spend: { input: 10, output: 5, cacheWrite: 0 },
				calls: 1,
				activity: 0,
				pendingQuestion: null,
				lastAssistantText: "Done with that one.",
				foundStart: true,
				endMarker: `m${continuations}`,
				continuations,
				partialLastLine: false,
				skippedLines: 0,
				lagging: false,
				limit: null,
			}),
			cap: async () => cap,
		};
		const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", hook_event_name: "Stop" };
		const parsed = parseQwenHookInput(
			JSON.stringify({ ...base, stop_hook_active: continuations > 0, last_assistant_message: "Done with that one." }),
			"Stop",
		);
		if (!parsed.ok) throw new Error(parsed.problem);
		const answer = await handleQwenHook(parsed.input, deps);
		return { answer, decisions: await store.readDecisions() };
	}

	it("nudges while Qwen Code would still deliver the block", async () => {
		const { answer } = await stopAfter(6);
		expect(answer.output).toMatchObject({ decision: "block" });
	});

	it("stops at the cap as a harness-cap decision with a notice naming the setting, never as a failed delivery", async () => {
		const { answer, decisions } = await stopAfter(7);
		expect(answer.output).toEqual({
			systemMessage: expect.stringMatching(/Qwen Code lets at most 7 continuation\(s\) in a row .*stopHookBlockingCap/),
		});
		expect(decisions.filter((line) => line.reason === "delivery-failed")).toEqual([]);
		expect(decisions.at(-1)).toMatchObject({ kind: "skip", reason: "harness-cap" });
	});

	it("follows a raised cap", async () => {
		const { answer } = await stopAfter(7, 100);
		expect(answer.output).toMatchObject({ decision: "block" });
	});
});
