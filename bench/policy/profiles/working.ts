/**
 * Agents that can finish their list, with different habits: the right outcome
 * for all of them is a finished list.
 */
import { makeItems } from "../agent.js";
import { SilentWorker } from "../agents/silent.js";
import { Worker } from "../agents/worker.js";
import { defaultHarness, defaultUser, FINISH, type Profile } from "../profile.js";

export const diligent: Profile = {
	name: "diligent",
	summary: "does the whole list in its first turn",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(3, 8);
		return {
			items: makeItems(count, rng),
			agent: new Worker({ firstTurn: () => count, perTurn: () => count }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count },
		};
	},
};

export const lazyStopper: Profile = {
	name: "lazy-stopper",
	summary: "does one item, marks it, ends its turn; the same whoever prompts it",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 10);
		return {
			items: makeItems(count, rng),
			agent: new Worker({ firstTurn: () => 1, perTurn: () => 1 }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count },
		};
	},
};

export const earlyClaimer: Profile = {
	name: "early-claimer",
	summary: "says everything is done while items are open; each nudge gets one more item done",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 9);
		const first = rng.int(1, count - 2);
		const phraseRate = rng.float(0.3, 0.9);
		return {
			items: makeItems(count, rng),
			agent: new Worker({
				firstTurn: () => first,
				perTurn: () => 1,
				claimsDone: true,
				phraseOnFalseClaim: phraseRate,
			}),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, firstTurn: first, phraseOnFalseClaim: round(phraseRate) },
		};
	},
};

export const silentWorker: Profile = {
	name: "silent-worker",
	summary:
		"edits (2 to 6 file changes an item) and runs commands but forgets to tick its list unless a nudge or a reminder on a tool result asks it to",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 9);
		const most = rng.int(1, 2);
		const edits = rng.int(2, 6);
		return {
			items: makeItems(count, rng),
			agent: new SilentWorker([1, most], edits),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, perTurn: `1-${most}`, editsPerItem: edits },
		};
	},
};

export const longPlan: Profile = {
	name: "long-plan",
	summary: "30 to 48 items, a few per turn",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(30, 48);
		const most = rng.int(2, 4);
		return {
			items: makeItems(count, rng),
			agent: new Worker({ firstTurn: (r) => r.int(1, most), perTurn: (r) => r.int(1, most) }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, perTurn: `1-${most}` },
		};
	},
};

export const hardItems: Profile = {
	name: "hard-items",
	summary: "some items take two to four turns of edits and test runs before they can be ticked",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 8);
		const items = makeItems(count, rng);
		const hardRate = rng.float(0.3, 0.6);
		for (const item of items) if (rng.chance(hardRate)) item.effort = rng.int(2, 4);
		return {
			items,
			agent: new Worker({ firstTurn: () => 1, perTurn: () => 1 }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, efforts: items.map((item) => item.effort).join("") },
		};
	},
};

export function round(value: number): number {
	return Math.round(value * 100) / 100;
}
