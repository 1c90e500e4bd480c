/**
 * The silent worker: really does the work (edits, commands) but forgets to
 * tick its list. A nudge that asks it to mark items gets it to tick what it
 * has done; any other prompt just gets more unticked work.
 */
import {
	type Agent,
	doable,
	doItems,
	type Item,
	markDone,
	PlanBuilder,
	type TurnInput,
	type TurnPlan,
	toTodos,
	writeInitialList,
} from "../agent.js";
import type { SimTodo } from "../model.js";
import { DONE_CLAIMS, pickText, SILENT_NOTES } from "../texts.js";

export class SilentWorker implements Agent {
	constructor(
		private readonly perTurn: [number, number],
		/** File changes each item takes: what a reminder that counts edits keys on. */
		private readonly editsPerItem = 1,
	) {}

	/** Reminded mid-turn, it ticks what it has really done. */
	onListReminder(items: readonly Item[]): SimTodo[] | null {
		const ticks = items.filter((item) => item.done && item.status !== "completed");
		if (ticks.length === 0) return null;
		return toTodos(items.map((item) => (ticks.includes(item) ? { ...item, status: "completed" as const } : item)));
	}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.turn === 0) writeInitialList(builder);
		if (input.traits?.asksToMark) markDone(builder);
		const done = doItems(builder, rng.int(...this.perTurn), false, this.editsPerItem);
		if (doable(builder.items).length === 0) {
			return builder.build(`${pickText(rng, DONE_CLAIMS)}${input.phrase ? ` ${input.phrase}` : ""}`);
		}
		const item = done.at(-1)?.content ?? doable(builder.items)[0]?.content ?? "the list";
		return builder.build(pickText(rng, SILENT_NOTES, { item }));
	}
}
