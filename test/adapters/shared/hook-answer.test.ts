import { describe, expect, it } from "vitest";
import { answerFor, contextAnswer, NOTHING } from "../../../src/adapters/shared/hook-answer.js";
import type { Engine, IdleResult } from "../../../src/engine/engine.js";

const ref = { harness: "test", sessionId: "s1" };
const reported: string[] = [];
const engine = {
	delivered: async (_ref: unknown, key: string) => void reported.push(`delivered ${key}`),
	deliveryFailed: async (_ref: unknown, key: string, why: string) => void reported.push(`failed ${key}: ${why}`),
} as unknown as Engine;
const inject = { kind: "inject", key: "k1", text: "Continue." } as IdleResult;
const complete = { kind: "complete", text: "All done." } as IdleResult;

describe("the engine's decision in each harness's words", () => {
	it("Claude Code's: a block, a systemMessage", () => {
		expect(answerFor(inject, ref, engine, { delivered: true })).toEqual({
			output: { decision: "block", reason: "Continue." },
		});
		expect(answerFor(complete, ref, engine, { delivered: true })).toEqual({ output: { systemMessage: "All done." } });
	});

	it("Gemini CLI's: a deny for the block, the same systemMessage", () => {
		const options = { delivered: true, decision: "deny" };
		expect(answerFor(inject, ref, engine, options)).toEqual({ output: { decision: "deny", reason: "Continue." } });
		expect(answerFor(complete, ref, engine, options)).toEqual({ output: { systemMessage: "All done." } });
	});

	it("Copilot CLI's: only a block, its delivery reported once written", async () => {
		const answer = answerFor(inject, ref, engine, { notices: false });
		expect(answer.output).toEqual({ decision: "block", reason: "Continue." });
		await answer.written?.();
		await answer.failed?.("closed");
		expect(reported).toEqual(["delivered k1", "failed k1: closed"]);
		expect(answerFor(complete, ref, engine, { notices: false })).toBe(NOTHING);
	});

	it("context for the model, or nothing", () => {
		expect(contextAnswer("SessionStart", "Resume.")).toEqual({
			output: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Resume." } },
		});
		expect(contextAnswer("PreToolUse", null)).toBe(NOTHING);
	});
});
