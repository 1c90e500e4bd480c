/**
 * An orchestrator that hands items to background subagents and ends its turn
 * to wait for them. When the harness wakes it with their results it ticks
 * the items and stops; a nudge gets it to hand out the next batch.
 */
import {
	type Agent,
	type ChildSpec,
	doable,
	markDone,
	PlanBuilder,
	type TurnInput,
	type TurnPlan,
	writeInitialList,
} from "../agent.js";
import { DONE_CLAIMS, fill, MERGED, pickText, STILL_WAITING, WAITING_FOR_SUBAGENTS } from "../texts.js";

export interface OrchestratorOptions {
	batch: number;
	childMs: [number, number];
	staleRate: number;
	readOnlyRate: number;
}

export class Orchestrator implements Agent {
	private readonly delegated = new Set<string>();

	constructor(private readonly options: OrchestratorOptions) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.backgroundRunning > 0) return builder.build(STILL_WAITING);
		if (input.turn === 0) writeInitialList(builder);
		markDone(builder);
		const next = doable(builder.items).filter((item) => !this.delegated.has(item.id));
		const finished = doable(builder.items).length === 0;
		if (finished) return builder.build(`${pickText(rng, DONE_CLAIMS)}${input.phrase ? ` ${input.phrase}` : ""}`);
		if (input.source === "wake") {
			return builder.build(fill(MERGED, { left: doable(builder.items).length }));
		}
		const batch = next.slice(0, this.options.batch);
		if (batch.length === 0) return builder.build(STILL_WAITING);
		builder.mark(Object.fromEntries(batch.map((item) => [item.id, "in_progress" as const])));
		const children: ChildSpec[] = batch.map((item) => {
			this.delegated.add(item.id);
			const readOnly = rng.chance(this.options.readOnlyRate);
			return {
				parentItem: item.id,
				durationMs: rng.int(...this.options.childMs),
				agent: readOnly ? "explore" : "general",
				readOnly,
				items: rng.int(2, 3),
				stale: rng.chance(this.options.staleRate),
			};
		});
		builder.spawn(children);
		return builder.build(fill(WAITING_FOR_SUBAGENTS, { count: children.length }));
	}
}
