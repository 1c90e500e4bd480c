/**
 * The question asker: works through its list, and once it has done a few
 * items it needs the user to decide something. It asks with the question
 * tool or in plain text, then ends its turn. Nudged while waiting, it answers
 * its own question and carries on.
 */
import { type Agent, doable, doItems, PlanBuilder, type TurnInput, type TurnPlan, writeInitialList } from "../agent.js";
import { DONE_CLAIMS, PROGRESS_NOTES, pickText, SELF_ANSWER, TOOL_QUESTION_LEADS } from "../texts.js";

export interface AskerOptions {
	perTurn: [number, number];
	/** Asks once this many items are done. */
	askAfter: number;
	viaTool: boolean;
	/** The plain-text question, when not using the tool. */
	ask: string;
}

export class Asker implements Agent {
	private asked = false;

	constructor(private readonly options: AskerOptions) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.turn === 0) writeInitialList(builder);
		if (input.pendingQuestion) builder.selfAnswer();
		const doneBefore = input.items.filter((item) => item.done).length;
		const budget = this.asked
			? rng.int(...this.options.perTurn)
			: Math.min(rng.int(...this.options.perTurn), Math.max(0, this.options.askAfter - doneBefore));
		doItems(builder, budget, true);
		const left = doable(builder.items);
		const lead = input.pendingQuestion ? `${SELF_ANSWER} ` : "";
		if (!this.asked && left.length > 0 && builder.items.filter((item) => item.done).length >= this.options.askAfter) {
			this.asked = true;
			if (this.options.viaTool) {
				builder.question();
				return builder.build(`${lead}${pickText(rng, TOOL_QUESTION_LEADS)}`);
			}
			return builder.build(`${lead}${this.options.ask}`, true);
		}
		if (left.length === 0) {
			return builder.build(`${lead}${pickText(rng, DONE_CLAIMS)}${input.phrase ? ` ${input.phrase}` : ""}`);
		}
		const item = left[0]?.content ?? "";
		return builder.build(`${lead}${pickText(rng, PROGRESS_NOTES, { item, next: item, left: left.length })}`);
	}
}
