/**
 * Agents that cannot finish: the looper and the churner make no progress at
 * all; the blocked worker finishes everything but one item that needs someone
 * outside the session. The right outcome is to stop (and say why).
 */
import { makeItems } from "../agent.js";
import { BlockedWorker } from "../agents/blocked.js";
import { Churner } from "../agents/churner.js";
import { Looper } from "../agents/looper.js";
import { defaultHarness, defaultUser, type Profile } from "../profile.js";
import { OUTSIDE_NEEDS } from "../texts.js";
import { round } from "./working.js";

export const looper: Profile = {
	name: "looper",
	summary: "never progresses: retries the same failing command or just talks",
	expect: { finish: false, stop: "stuck", text: "stop: no progress is possible" },
	setup(rng) {
		const count = rng.int(3, 7);
		const activityRate = rng.float(0, 1);
		return {
			items: makeItems(count, rng),
			agent: new Looper(activityRate),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, activityRate: round(activityRate) },
		};
	},
};

export const churner: Profile = {
	name: "churner",
	summary: "reorders, rewords, flips statuses and adds follow-ups; never finishes anything",
	expect: { finish: false, stop: "stuck", text: "stop: list churn is not progress" },
	setup(rng) {
		const count = rng.int(4, 8);
		const activityRate = rng.float(0, 0.5);
		return {
			items: makeItems(count, rng),
			agent: new Churner(activityRate),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, activityRate: round(activityRate) },
		};
	},
};

export const blockedItem: Profile = {
	name: "blocked-item",
	summary: "one item needs an outside action; the rest can be done",
	expect: { finish: true, stop: "blocked", text: "finish the rest, then stop and report the blocked item" },
	setup(rng) {
		const count = rng.int(4, 8);
		const items = makeItems(count, rng);
		const index = rng.int(0, count - 1);
		const blocked = items[index];
		if (blocked) blocked.outside = true;
		const need = rng.pick(OUTSIDE_NEEDS);
		return {
			items,
			agent: new BlockedWorker({ perTurn: [1, 2], need, marksWhenTold: 0.85, marksUntold: 0.25 }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, blockedIndex: index },
		};
	},
};
