/**
 * The end of a turn, for every command-hook harness: the dialect gathers the
 * idle facts (what its transcript and its input say), this turns them into
 * the engine's decision and the decision into the harness's answer.
 *
 * A harness with a continuation cap of its own (Qwen Code, Copilot CLI)
 * states it as data (`HarnessCap`: its limit, and how many continuations it
 * has honoured in a row for this prompt) in the idle facts as `harnessCap`;
 * the policy then never decides a nudge the harness would override.
 */
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import type { HookAnswer } from "../shared/hook-answer.js";

export type TurnEnd = Parameters<Engine["turnEndedAndIdle"]>[1];

export interface EndTurnOptions {
	/** Printing the block is the delivery: recorded in the same write as the decision. */
	deliverNow: boolean;
	/** The harness's answer for the decision. */
	answer(result: IdleResult): HookAnswer;
}

/**
 * Contract: throws only what the engine throws. A harness's cap, where the
 * dialect found it, is already in `facts.harnessCap`: the policy never
 * decides a nudge the harness would override (`harness-cap`).
 */
export async function endTurn(
	engine: Engine,
	ref: SessionRef,
	end: TurnEnd,
	facts: IdleFacts,
	options: EndTurnOptions,
): Promise<HookAnswer> {
	const result = await engine.turnEndedAndIdle(ref, end, facts, options.deliverNow ? { deliverNow: true } : {});
	return options.answer(result);
}
