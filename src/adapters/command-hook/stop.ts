/**
 * The end of a turn, for every command-hook harness: the dialect gathers the
 * idle facts (what its transcript and its input say), this turns them into
 * the engine's decision and the decision into the harness's answer.
 *
 * A harness with a continuation cap of its own (Qwen Code, Copilot CLI)
 * states it as data (`HarnessCap`: its limit, and how many continuations it
 * has honoured in a row for this prompt); it goes into the idle facts as
 * `harnessCap`, and a nudge the harness would override is not printed.
 */
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import type { HarnessCap } from "../../engine/engine-types.js";
import { type HookAnswer, NOTHING } from "../shared/hook-answer.js";

export type TurnEnd = Parameters<Engine["turnEndedAndIdle"]>[1];

export interface EndTurnOptions {
	/** Printing the block is the delivery: recorded in the same write as the decision. */
	deliverNow: boolean;
	/** The harness's answer for the decision. */
	answer(result: IdleResult): HookAnswer;
	/** The harness's cap and where this prompt stands against it; absent or null: no cap, or not known. */
	cap?: HarnessCap | null;
	/** Why a capped nudge was not delivered, in the harness's words. */
	capWords?: (cap: HarnessCap) => string;
}

/** True when the harness would override the next continuation. */
export function atCap(cap: HarnessCap | null | undefined): boolean {
	return cap != null && cap.inRow + 1 >= cap.limit;
}

/** Contract: throws only what the engine throws. */
export async function endTurn(
	engine: Engine,
	ref: SessionRef,
	end: TurnEnd,
	facts: IdleFacts,
	options: EndTurnOptions,
): Promise<HookAnswer> {
	const cap = options.cap ?? null;
	if (cap !== null) facts.harnessCap = cap;
	const capped = atCap(cap);
	const result = await engine.turnEndedAndIdle(
		ref,
		end,
		facts,
		options.deliverNow && !capped ? { deliverNow: true } : {},
	);
	// HARNESS CAP, interim (the one place): until the engine's policy owns the `harness-cap` outcome,
	// a nudge the harness would override is not printed and is recorded as not delivered. When the
	// policy decides it (never an inject at the cap), this block goes.
	if (capped && result.kind === "inject") {
		await engine.deliveryFailed(ref, result.key, options.capWords?.(cap as HarnessCap) ?? "the harness's cap");
		return NOTHING;
	}
	return options.answer(result);
}
