/**
 * Sessions that work through subagents: an orchestrator whose subagents
 * sometimes claim unfinished work is done, and a subagent that wedges. The
 * work is finishable in both; the right outcome says how.
 */
import { makeItems } from "../agent.js";
import { Delegator } from "../agents/delegator.js";
import { CHILD_LIMIT_MS, defaultHarness, defaultUser, type Profile } from "../profile.js";
import { round } from "./working.js";

export const delegatingOrchestrator: Profile = {
	name: "delegating-orchestrator",
	summary:
		"works a plan in orchestrate mode through subagents; some report done with the item unfinished; a plain continue often gets it to edit the code itself",
	expect: {
		finish: true,
		stop: "none",
		text: "finish the plan, each unfinished item checked and sent back, without the orchestrator editing code",
	},
	setup(rng) {
		const count = rng.int(4, 8);
		const items = makeItems(count, rng);
		const batch = rng.int(1, 3);
		const unfinishedRate = rng.float(0.2, 0.5);
		const unfinished = new Set(items.filter(() => rng.chance(unfinishedRate)).map((item) => item.id));
		// At least one subagent claims too much: the profile is about that.
		if (unfinished.size === 0) unfinished.add(rng.pick(items).id);
		const selfRate = rng.float(0.5, 1);
		return {
			items,
			agent: new Delegator({ batch, childMs: [2 * 60_000, 10 * 60_000], unfinished, wedged: null, selfRate }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			orchestrating: true,
			params: { items: count, batch, unfinished: unfinished.size, selfRate: round(selfRate) },
		};
	},
};

export const wedgedSubagent: Profile = {
	name: "wedged-subagent",
	summary: "hands items to subagents one at a time and waits; one subagent never finishes",
	expect: {
		finish: true,
		stop: "none",
		text: "release the parent once the wedged subagent is past its time limit, tell it, and finish the list",
	},
	setup(rng) {
		const count = rng.int(3, 6);
		const items = makeItems(count, rng);
		const wedged = rng.pick(items).id;
		return {
			items,
			agent: new Delegator({ batch: 1, childMs: [2 * 60_000, 8 * 60_000], unfinished: new Set(), wedged, selfRate: 0 }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			childLimitMs: CHILD_LIMIT_MS,
			params: { items: count, wedged },
		};
	},
};
