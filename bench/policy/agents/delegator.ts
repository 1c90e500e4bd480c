/**
 * An orchestrator that hands each item to a subagent and waits for it. It
 * trusts a subagent's "done" and ticks the item, unless a note on the result
 * asks it to check the work: then it checks, and sends back what is
 * unfinished. Nudged with a plain "continue", it often does the next item
 * itself instead of delegating; a nudge that asks it to delegate gets a
 * subagent. Told that a subagent has run past its time limit, it treats it as
 * failed and hands the item to a new one; otherwise it keeps waiting.
 */
import {
	type Agent,
	type ChildSpec,
	doable,
	type Item,
	PlanBuilder,
	type TurnInput,
	type TurnPlan,
	writeInitialList,
} from "../agent.js";
import type { Rng } from "../prng.js";
import {
	DID_IT_MYSELF,
	DONE_CLAIMS,
	fill,
	MERGED,
	pickText,
	SENT_BACK,
	STILL_WAITING,
	WAITING_FOR_SUBAGENTS,
} from "../texts.js";

export interface DelegatorOptions {
	batch: number;
	childMs: [number, number];
	/** Items whose first subagent reports done without finishing them. */
	unfinished: ReadonlySet<string>;
	/** The item whose first subagent never finishes. */
	wedged: string | null;
	/** Chance that a plain "continue" gets it to do the next item itself. */
	selfRate: number;
}

export class Delegator implements Agent {
	/** Items with a subagent running on them. */
	private readonly inFlight = new Set<string>();
	/** Items that already had a subagent (its first attempt is spent). */
	private readonly tried = new Set<string>();

	constructor(private readonly options: DelegatorOptions) {}

	respond(input: TurnInput): TurnPlan {
		const { rng } = input;
		const builder = new PlanBuilder(input.items, rng);
		if (input.turn === 0) writeInitialList(builder);
		const redo = this.takeResults(builder, input);
		let running = input.backgroundRunning;
		const wedged = this.options.wedged;
		if (input.traits?.namesOverdue && wedged && this.inFlight.has(wedged)) {
			builder.abandon(wedged);
			this.inFlight.delete(wedged);
			running--;
			redo.push(wedged);
		}
		if (redo.length > 0) {
			this.delegate(builder, redo, rng);
			return builder.build(fill(SENT_BACK, { count: redo.length }));
		}
		if (running > 0) return builder.build(STILL_WAITING);
		const open = doable(builder.items).filter((item) => item.status !== "completed");
		if (open.length === 0)
			return builder.build(`${pickText(rng, DONE_CLAIMS)}${input.phrase ? ` ${input.phrase}` : ""}`);
		if (input.source === "wake") return builder.build(fill(MERGED, { left: open.length }));
		const next = open.filter((item) => !this.inFlight.has(item.id));
		const own = input.source === "nudge" && !input.traits?.delegates && rng.chance(this.options.selfRate);
		const first = next[0];
		if (own && first) {
			builder.mark({ [first.id]: "in_progress" });
			if (builder.work(first.id)) builder.mark({ [first.id]: "completed" });
			return builder.build(fill(DID_IT_MYSELF, { item: first.content }));
		}
		const batch = next.slice(0, this.options.batch).map((item) => item.id);
		if (batch.length === 0) return builder.build(STILL_WAITING);
		this.delegate(builder, batch, rng);
		return builder.build(fill(WAITING_FOR_SUBAGENTS, { count: batch.length }));
	}

	/**
	 * Reads the subagents' results: ticks what each reported, except where a
	 * note asked to check it first and the check finds it unfinished. Returns
	 * the items to send back.
	 */
	private takeResults(builder: PlanBuilder, input: TurnInput): string[] {
		const redo: string[] = [];
		const ticks: Record<string, Item["status"]> = {};
		for (const result of input.results) {
			this.inFlight.delete(result.item);
			const item = builder.items.find((candidate) => candidate.id === result.item);
			if (!item) continue;
			if (result.verifyNote && !item.done) redo.push(item.id);
			else ticks[item.id] = "completed";
		}
		if (Object.keys(ticks).length > 0) builder.mark(ticks);
		return redo;
	}

	private delegate(builder: PlanBuilder, ids: readonly string[], rng: Rng): void {
		builder.mark(Object.fromEntries(ids.map((id) => [id, "in_progress" as const])));
		const children: ChildSpec[] = ids.map((id) => {
			const first = !this.tried.has(id);
			this.tried.add(id);
			this.inFlight.add(id);
			return {
				parentItem: id,
				durationMs: rng.int(...this.options.childMs),
				agent: "general",
				readOnly: false,
				items: rng.int(2, 3),
				stale: false,
				unfinished: first && this.options.unfinished.has(id),
				wedged: first && this.options.wedged === id,
			};
		});
		builder.spawn(children);
	}
}
