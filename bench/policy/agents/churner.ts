/**
 * The churner: rewrites its list every turn (reorders it, flips pending and
 * in-progress, rewords items, adds follow-ups) and never finishes anything.
 */
import { type Agent, type Item, isOpenStatus, PlanBuilder, type TurnInput, type TurnPlan } from "../agent.js";
import type { Rng } from "../prng.js";
import { CHURN_NOTES, pickText } from "../texts.js";

type Churn = "reorder" | "flip" | "reword" | "add";

export class Churner implements Agent {
	private added = 0;

	constructor(private readonly activityRate: number) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		let items = builder.items.map((item) => ({ ...item }));
		if (input.turn === 0) {
			const first = items[0];
			if (first) first.status = "in_progress";
		} else {
			const ops = rng.int(1, 2);
			for (let i = 0; i < ops; i++)
				items = this.churn(items, rng.pick<Churn>(["reorder", "flip", "reword", "add"]), rng);
		}
		builder.wait(20_000, 60_000);
		if (rng.chance(this.activityRate)) builder.activity("bash");
		builder.replace(items);
		const open = items.find((item) => isOpenStatus(item.status));
		return builder.build(pickText(rng, CHURN_NOTES, { item: open?.content ?? "the list" }));
	}

	private churn(items: Item[], how: Churn, rng: Rng): Item[] {
		const open = items.filter((item) => isOpenStatus(item.status));
		const target = open.length > 0 ? rng.pick(open) : undefined;
		if (how === "reorder") return rng.shuffle(items);
		if (how === "add") {
			this.added++;
			return [
				...items,
				{
					id: `f${this.added}`,
					content: `follow up on ${target?.content ?? "the plan"}`,
					status: "pending",
					done: false,
					outside: false,
					effort: 1,
					worked: 0,
				},
			];
		}
		if (!target) return items;
		return items.map((item) => {
			if (item.id !== target.id) return item;
			if (how === "flip") return { ...item, status: item.status === "pending" ? "in_progress" : "pending" };
			const refined = item.content.endsWith(" (refined)");
			return { ...item, content: refined ? item.content.slice(0, -" (refined)".length) : `${item.content} (refined)` };
		});
	}
}
