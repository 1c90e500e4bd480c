/**
 * Sessions shaped by the user: a question the agent needs answered, an Esc
 * while work is open (with background work still running), and an explicit
 * stop. The right outcome waits for the user.
 */
import { makeItems } from "../agent.js";
import { Asker } from "../agents/asker.js";
import { Worker } from "../agents/worker.js";
import { defaultHarness, defaultUser, type Profile } from "../profile.js";
import { PROSE_ASKS } from "../texts.js";

export const questionAsker: Profile = {
	name: "question-asker",
	summary: "needs a decision midway; asks with the question tool or in plain text",
	expect: { finish: true, stop: "wait-for-user", text: "wait for the answer (no nudge meanwhile), then finish" },
	setup(rng) {
		const count = rng.int(4, 8);
		const askAfter = rng.int(1, count - 2);
		const viaTool = rng.chance(0.5);
		const ask = rng.pick(PROSE_ASKS);
		return {
			items: makeItems(count, rng),
			agent: new Asker({ perTurn: [1, 2], askAfter, viaTool, ask }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, askAfter, via: viaTool ? "tool" : "text", ...(viaTool ? {} : { ask }) },
		};
	},
};

export const interrupter: Profile = {
	name: "interrupter",
	summary: "the user presses Esc mid-turn, sometimes while a background run goes on, and comes back later",
	expect: { finish: true, stop: "wait-for-user", text: "no nudge from the Esc until the user speaks, then finish" },
	setup(rng) {
		const count = rng.int(5, 9);
		const turn = rng.int(1, 3);
		const job = rng.chance(0.6);
		const user = {
			...defaultUser(rng),
			esc: { turn, at: rng.float(0.3, 0.9), resumeAfterMs: rng.int(10, 40) * 60_000 },
		};
		return {
			items: makeItems(count, rng),
			agent: new Worker({
				firstTurn: () => 1,
				perTurn: () => 1,
				...(job ? { jobTurn: turn, jobMs: rng.int(1, 5) * 60_000 } : {}),
			}),
			user,
			harness: defaultHarness(rng),
			params: { items: count, escTurn: turn, backgroundRun: job, resumeMin: user.esc.resumeAfterMs / 60_000 },
		};
	},
};

export const userStops: Profile = {
	name: "user-stops",
	summary: "the user gives the stop command while the agent is pushed on, then later asks what is left",
	expect: { finish: false, stop: "stopped", text: "stay stopped, even after the user's later message" },
	setup(rng) {
		const count = rng.int(5, 9);
		const user = {
			...defaultUser(rng),
			stop: { turn: rng.int(2, 3), at: rng.float(0.2, 0.8), followUpAfterMs: rng.int(5, 30) * 60_000 },
		};
		return {
			items: makeItems(count, rng),
			agent: new Worker({ firstTurn: () => 1, perTurn: () => 1 }),
			user,
			harness: defaultHarness(rng),
			params: { items: count, stopTurn: user.stop.turn, followUpMin: user.stop.followUpAfterMs / 60_000 },
		};
	},
};
