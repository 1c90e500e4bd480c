/**
 * Long sessions, where what an episode may spend matters: a steady worker
 * through a list of a hundred items, the same habit on a provider that bills
 * every turn's whole context, and a slow burner whose items each take a long
 * stretch of work before one can be ticked. The work is finishable in all of
 * them, and really progresses in every turn: the right outcome is a finished
 * list.
 */
import { type Item, makeItems } from "../agent.js";
import { Worker } from "../agents/worker.js";
import { defaultHarness, defaultUser, FINISH, type Profile } from "../profile.js";

const steady = () => new Worker({ firstTurn: () => 1, perTurn: () => 1 });

export const steady100: Profile = {
	name: "steady-100",
	summary: "a 100-item steady worker: 100 to 120 items, one done and ticked per turn, whoever prompts it",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(100, 120);
		return {
			items: makeItems(count, rng),
			agent: steady(),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count },
		};
	},
};

export const steadyExpensive: Profile = {
	name: "steady-expensive",
	summary:
		"the steady worker on 60 to 100 items, with a provider that reports no prompt-cache reads: every model call bills the whole context, so a turn costs hundreds of thousands of tokens",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(60, 100);
		const harness = defaultHarness(rng);
		harness.promptCache = false;
		harness.contextStart = rng.int(40, 120) * 1000;
		return {
			items: makeItems(count, rng),
			agent: steady(),
			user: defaultUser(rng),
			harness,
			params: { items: count, contextStartK: harness.contextStart / 1000 },
		};
	},
};

export const slowBurner: Profile = {
	name: "slow-burner",
	summary:
		"does one item, then spends 4 to 8 turns of edits and test runs on the next before it can tick it, and again for every item after",
	expect: {
		finish: true,
		stop: "none",
		text: "finish the list: each long stretch of edits and test runs ends in an item really done, so the work is moving, slowly (those turns are work, as in hard-items, not waste)",
	},
	setup(rng) {
		const count = rng.int(4, 7);
		const items = makeItems(count, rng);
		items.forEach((item: Item, index) => {
			if (index > 0) item.effort = rng.int(4, 8) + 1;
		});
		return {
			items,
			agent: steady(),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, efforts: items.map((item) => item.effort).join("") },
		};
	},
};
