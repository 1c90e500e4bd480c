/**
 * What the harness does to a turn of the main session before it runs: an
 * overflowed context fails it at once, a huge tool output overflows it, an
 * outage or an API error (after the harness's own retries) cuts it short.
 */
import type { Step, TurnPlan } from "./agent.js";
import type { Outcome } from "./model.js";
import type { Rng } from "./prng.js";
import type { HarnessParams } from "./profile.js";

export interface FaultInput {
	plan: TurnPlan;
	context: number;
	harness: HarnessParams;
	/** 1-based index of this turn in the main session. */
	turnIndex: number;
	now: number;
	/** The huge output already happened. */
	hugeUsed: boolean;
	rng: Rng;
}

export interface Faulted {
	steps: Step[];
	durationMs: number;
	outcome: Outcome;
	/** The tool call whose output overflows the context, if this turn has it. */
	hugeStep: Step | null;
}

export function applyFaults({ plan, context, harness, turnIndex, now, hugeUsed, rng }: FaultInput): Faulted {
	if (context >= harness.contextLimit) {
		return { steps: [], durationMs: rng.int(2_000, 4_000), outcome: "context-overflow", hugeStep: null };
	}
	const huge = harness.hugeOutput;
	if (huge && !hugeUsed && turnIndex === huge.turn) {
		const index = plan.steps.findIndex((step) => step.kind === "activity");
		const step = plan.steps[index];
		if (step) {
			return {
				steps: plan.steps.slice(0, index + 1),
				durationMs: step.at + 2_000,
				outcome: "context-overflow",
				hugeStep: step,
			};
		}
	}
	const outage = harness.outage;
	const inOutage = outage !== null && now >= outage.start && now < outage.start + outage.length;
	const retry = rng.int(5_000, 60_000);
	if (inOutage) return { steps: [], durationMs: retry, outcome: "error", hugeStep: null };
	if (rng.chance(harness.apiErrorRate)) {
		const kept = plan.steps.slice(0, rng.int(0, plan.steps.length));
		return { steps: kept, durationMs: (kept.at(-1)?.at ?? 0) + retry, outcome: "error", hugeStep: null };
	}
	return { steps: plan.steps, durationMs: plan.durationMs, outcome: "end", hugeStep: null };
}
