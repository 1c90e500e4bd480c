/**
 * The looper: never gets anywhere. It retries the same failing command (or
 * just talks) and never changes its list.
 */
import { type Agent, PlanBuilder, type TurnInput, type TurnPlan, writeInitialList } from "../agent.js";
import { pickText, STUCK_NOTES } from "../texts.js";

export class Looper implements Agent {
	constructor(private readonly activityRate: number) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.turn === 0) writeInitialList(builder);
		if (rng.chance(this.activityRate)) {
			const runs = rng.int(1, 3);
			for (let i = 0; i < runs; i++) builder.activity("bash");
		} else {
			builder.wait(20_000, 90_000);
		}
		const item = input.items[0]?.content ?? "the first item";
		return builder.build(pickText(rng, STUCK_NOTES, { item }));
	}
}
