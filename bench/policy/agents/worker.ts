/**
 * The common agent: does a number of items per turn, marks them as it goes,
 * and ends its turn. Its options make the diligent agent (everything in the
 * first turn), the lazy stopper (one item per turn, whoever prompts it) and
 * the early claimer (says it is done while items are open).
 */
import { type Agent, doable, doItems, PlanBuilder, type TurnInput, type TurnPlan, writeInitialList } from "../agent.js";
import type { Rng } from "../prng.js";
import {
	DONE_CLAIMS,
	fill,
	JOB_REPORT,
	PARTIAL_NOTES,
	PROGRESS_NOTES,
	pickText,
	RESTARTED,
	SELF_ANSWER,
	STATUS_REPLY,
} from "../texts.js";

export interface WorkerOptions {
	/** Items done in the first turn. */
	firstTurn: (rng: Rng) => number;
	/** Items done in every later turn, whoever started it. */
	perTurn: (rng: Rng) => number;
	/** Says the whole job is done at the end of every turn, open items or not. */
	claimsDone?: boolean;
	/** Chance that a false claim also carries the completion phrase it was given. */
	phraseOnFalseClaim?: number;
	/** Starts a background job (a test run) early in this turn (1-based). */
	jobTurn?: number;
	jobMs?: number;
}

export class Worker implements Agent {
	constructor(private readonly options: WorkerOptions) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.intent === "status") {
			const open = doable(input.items).map((item) => item.content);
			return builder.build(fill(STATUS_REPLY, { items: open.join(", ") || "nothing" }));
		}
		if (input.source === "wake") return builder.build(JOB_REPORT);
		if (input.turn === 0) writeInitialList(builder);
		if (this.options.jobTurn === input.turn + 1) builder.spawn([], [this.options.jobMs ?? 120_000]);
		if (input.pendingQuestion) builder.selfAnswer();
		const count = input.turn === 0 ? this.options.firstTurn(rng) : this.options.perTurn(rng);
		const done = doItems(builder, count, true);
		const left = doable(builder.items);
		const lead = input.source === "restart" ? `${RESTARTED} ` : input.pendingQuestion ? `${SELF_ANSWER} ` : "";
		if (left.length === 0 || this.options.claimsDone) {
			const truthful = left.length === 0;
			const phrase = input.phrase && (truthful || rng.chance(this.options.phraseOnFalseClaim ?? 0)) ? input.phrase : "";
			return builder.build(`${lead}${pickText(rng, DONE_CLAIMS)}${phrase ? ` ${phrase}` : ""}`);
		}
		const current = left[0];
		if (current && current.worked > 0)
			return builder.build(`${lead}${pickText(rng, PARTIAL_NOTES, { item: current.content })}`);
		const item = done.at(-1)?.content ?? current?.content ?? "the current item";
		const note = pickText(rng, PROGRESS_NOTES, { item, next: current?.content ?? "", left: left.length });
		return builder.build(`${lead}${note}`);
	}
}
