import { describe, expect, it } from "vitest";
import { endTurn } from "../../../src/adapters/command-hook/events.js";
import { Config } from "../../../src/core/config.js";
import { Engine, type IdleResult } from "../../../src/engine/engine.js";
import type { HarnessCap } from "../../../src/engine/engine-types.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const REF = { harness: "qwen", sessionId: "s1" };
const cap = (inRow: number): HarnessCap => ({ harness: "Qwen Code", limit: 8, inRow, lift: "stopHookBlockingCap" });

/** A real engine on the memory store, its session mid-list after the user's prompt. */
async function engineWithOpenList() {
	const clock = { t: Date.UTC(2026, 11, 2, 9), now: () => clock.t };
	const store = new MemoryStore("/w", { clock });
	const engine = new Engine({ store, config: Config.parse({}), clock, plans: { read: async () => null } });
	await engine.turnStarted(REF, "user");
	await engine.todosChanged(REF, [
		{ content: "Item A", status: "completed" },
		{ content: "Item B", status: "pending" },
	]);
	clock.t += 1000;
	return { engine, store };
}

async function stopAt(facts: Parameters<typeof endTurn>[3]) {
	const { engine, store } = await engineWithOpenList();
	let decided: IdleResult | null = null;
	await endTurn(engine, REF, { outcome: "end" }, facts, {
		deliverNow: true,
		answer: (result) => {
			decided = result;
			return { output: null };
		},
	});
	return { decided: decided as IdleResult | null, lines: await store.readDecisions() };
}

describe("the end of a turn, for every command-hook harness", () => {
	it("hands the engine's decision to the dialect's answer, a nudge below the harness's cap included", async () => {
		const { decided, lines } = await stopAt({ lastAssistantText: "Done with A.", harnessCap: cap(6) });
		expect(decided).toMatchObject({ kind: "inject", reason: "continue" });
		expect(lines.at(-1)).toMatchObject({ reason: "continue" });
	});

	it("at the cap, the decision is the policy's harness-cap stop: nothing to print, no failed delivery", async () => {
		const { decided, lines } = await stopAt({ lastAssistantText: "Done with A.", harnessCap: cap(7) });
		expect(decided).toMatchObject({ kind: "skip", reason: "harness-cap", notice: true });
		expect(lines.filter((line) => line.reason === "delivery-failed")).toEqual([]);
	});
});
