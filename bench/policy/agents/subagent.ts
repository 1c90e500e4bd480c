/**
 * A background subagent: works its own short list for the time it was given,
 * sometimes leaving the last item unticked, and reports back. Nudged, it
 * ticks what it forgot.
 */
import {
	type Agent,
	type ChildSpec,
	doItems,
	type Item,
	markDone,
	PlanBuilder,
	type TurnInput,
	type TurnPlan,
} from "../agent.js";
import { SUBAGENT_DONE } from "../texts.js";

export function subagentItems(spec: ChildSpec): Item[] {
	return Array.from({ length: spec.items }, (_, index) => ({
		id: `c${index + 1}`,
		content: `${["read the code", "make the change", "run the tests"][index] ?? "report"} for ${spec.parentItem}`,
		status: "pending" as const,
		done: false,
		outside: false,
		effort: 1,
		worked: 0,
	}));
}

export class Subagent implements Agent {
	constructor(private readonly spec: ChildSpec) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		if (input.turn > 0) {
			const builder = new PlanBuilder(input.items, rng);
			markDone(builder);
			return builder.build(SUBAGENT_DONE);
		}
		const perItem = Math.max(10_000, Math.floor(this.spec.durationMs / this.spec.items));
		const builder = new PlanBuilder(input.items, rng, { itemMs: [Math.floor(perItem * 0.7), perItem] });
		builder.writeList();
		doItems(builder, this.spec.items, true);
		const last = builder.items.at(-1);
		if (this.spec.stale && last) builder.mark({ [last.id]: "in_progress" });
		return builder.build(SUBAGENT_DONE);
	}
}
