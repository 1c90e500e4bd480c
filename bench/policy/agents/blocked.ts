/**
 * An agent with one item it cannot do (it needs a key, an access, a
 * decision). It does the rest around it, then reports the blocked item;
 * whether it also marks it blocked depends on whether it was told how.
 */
import {
	type Agent,
	doable,
	doItems,
	isOpenStatus,
	PlanBuilder,
	type TurnInput,
	type TurnPlan,
	writeInitialList,
} from "../agent.js";
import { BLOCKED_NOTES, PROGRESS_NOTES, pickText } from "../texts.js";

export interface BlockedOptions {
	perTurn: [number, number];
	need: string;
	/** Chance of marking the item blocked when the nudge says how; and on its own. */
	marksWhenTold: number;
	marksUntold: number;
}

export class BlockedWorker implements Agent {
	constructor(private readonly options: BlockedOptions) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.turn === 0) writeInitialList(builder);
		doItems(builder, rng.int(...this.options.perTurn), true);
		const left = doable(builder.items);
		const stuck = builder.items.find((item) => item.outside && isOpenStatus(item.status));
		if (left.length > 0 || !stuck) {
			const item = left[0]?.content ?? "";
			return builder.build(pickText(rng, PROGRESS_NOTES, { item, next: item, left: left.length + (stuck ? 1 : 0) }));
		}
		const told = input.traits?.blockedHint === true;
		if (rng.chance(told ? this.options.marksWhenTold : this.options.marksUntold))
			builder.mark({ [stuck.id]: "blocked" });
		return builder.build(pickText(rng, BLOCKED_NOTES, { item: stuck.content, need: this.options.need }));
	}
}
