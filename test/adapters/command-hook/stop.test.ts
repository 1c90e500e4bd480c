import { describe, expect, it } from "vitest";
import { atCap, endTurn } from "../../../src/adapters/command-hook/stop.js";
import { NOTHING } from "../../../src/adapters/shared/hook-answer.js";
import type { Engine, IdleFacts, IdleResult } from "../../../src/engine/engine.js";
import type { HarnessCap } from "../../../src/engine/engine-types.js";

const REF = { harness: "qwen", sessionId: "s1", subagent: false, agent: null };
const INJECT = { kind: "inject", key: "k1", text: "Carry on." } as unknown as IdleResult;

/** An engine that decides `result` and remembers what it was told. */
function fakeEngine(result: IdleResult) {
	const seen: { facts?: IdleFacts; options?: unknown; failed?: [string, string] } = {};
	const engine = {
		turnEndedAndIdle: async (_ref: unknown, _end: unknown, facts: IdleFacts, options: unknown) => {
			seen.facts = facts;
			seen.options = options;
			return result;
		},
		deliveryFailed: async (_ref: unknown, key: string, why: string) => {
			seen.failed = [key, why];
		},
	} as unknown as Engine;
	return { engine, seen };
}

const cap = (inRow: number): HarnessCap => ({ harness: "Qwen Code", limit: 8, inRow, lift: "stopHookBlockingCap" });

describe("the end of a turn, for every command-hook harness", () => {
	it("puts the harness's cap into the idle facts as data, and answers as the dialect says below it", async () => {
		const { engine, seen } = fakeEngine(INJECT);
		const answer = await endTurn(
			engine,
			REF,
			{ outcome: "end" },
			{ lastAssistantText: null },
			{
				deliverNow: true,
				cap: cap(6),
				answer: () => ({ output: { decision: "block", reason: "Carry on." } }),
			},
		);

		expect(seen.facts?.harnessCap).toEqual(cap(6));
		expect(seen.options).toEqual({ deliverNow: true });
		expect(answer.output).toEqual({ decision: "block", reason: "Carry on." });
	});

	it("does not print a nudge the harness would override, and says why in the harness's words", async () => {
		const { engine, seen } = fakeEngine(INJECT);
		const answer = await endTurn(
			engine,
			REF,
			{ outcome: "end" },
			{ lastAssistantText: null },
			{
				deliverNow: true,
				cap: cap(7),
				capWords: (stated) => `capped at ${stated.limit}`,
				answer: () => ({ output: { decision: "block", reason: "Carry on." } }),
			},
		);

		expect(answer).toBe(NOTHING);
		expect(seen.options).toEqual({});
		expect(seen.failed).toEqual(["k1", "capped at 8"]);
	});

	it("knows a harness with no cap, or a cap not known, never to be at it", () => {
		expect(atCap(null)).toBe(false);
		expect(atCap(undefined)).toBe(false);
		expect(atCap(cap(0))).toBe(false);
		expect(atCap(cap(7))).toBe(true);
	});
});
