/**
 * Sessions shaped by the harness: API errors and failed deliveries, background
 * subagents, a context overflow, a restart mid-work, and paired idle events.
 * The work is finishable in all of them.
 */
import { makeItems } from "../agent.js";
import { Orchestrator } from "../agents/orchestrator.js";
import { Worker } from "../agents/worker.js";
import { defaultHarness, defaultUser, FINISH, type Profile } from "../profile.js";
import { round } from "./working.js";

const lazy = () => new Worker({ firstTurn: () => 1, perTurn: () => 1 });
const lazyish = () => new Worker({ firstTurn: (r) => r.int(1, 2), perTurn: (r) => r.int(1, 2) });

export const flakyApi: Profile = {
	name: "flaky-api",
	summary: "turns fail on API errors (sometimes a few minutes of outage); some deliveries fail",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 8);
		const harness = defaultHarness(rng);
		harness.apiErrorRate = rng.float(0.15, 0.4);
		harness.deliveryFailRate = rng.float(0.1, 0.3);
		harness.outage = rng.chance(0.5) ? { start: rng.int(5, 30) * 60_000, length: rng.int(1, 5) * 60_000 } : null;
		return {
			items: makeItems(count, rng),
			agent: lazyish(),
			user: defaultUser(rng),
			harness,
			params: {
				items: count,
				apiErrorRate: round(harness.apiErrorRate),
				deliveryFailRate: round(harness.deliveryFailRate),
				outageMin: harness.outage ? harness.outage.length / 60_000 : 0,
			},
		};
	},
};

export const backgroundTasks: Profile = {
	name: "background-tasks",
	summary: "hands items to background subagents and waits; the harness wakes it with their results",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 8);
		const batch = rng.int(1, 3);
		const staleRate = rng.float(0.2, 0.8);
		return {
			items: makeItems(count, rng),
			agent: new Orchestrator({ batch, childMs: [2 * 60_000, 10 * 60_000], staleRate, readOnlyRate: 0.4 }),
			user: defaultUser(rng),
			harness: defaultHarness(rng),
			params: { items: count, batch, staleRate: round(staleRate) },
		};
	},
};

export const contextOverflow: Profile = {
	name: "context-overflow",
	summary: "a huge tool output overflows the context; the harness compacts and carries on",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(5, 9);
		const harness = defaultHarness(rng);
		harness.contextStart = rng.int(100, 150) * 1000;
		harness.hugeOutput = { turn: rng.int(1, 3), tokens: rng.int(80, 120) * 1000 };
		return {
			items: makeItems(count, rng),
			agent: lazyish(),
			user: defaultUser(rng),
			harness,
			params: { items: count, overflowTurn: harness.hugeOutput.turn, contextStartK: harness.contextStart / 1000 },
		};
	},
};

export const restartMidWork: Profile = {
	name: "restart-mid-work",
	summary: "the harness restarts during a turn and resumes the session with a restart kick",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(5, 9);
		const harness = defaultHarness(rng);
		harness.restart = { turn: rng.int(2, 3), at: rng.float(0.2, 0.8), bootMs: rng.int(5, 30) * 1000 };
		return {
			items: makeItems(count, rng),
			agent: lazy(),
			user: defaultUser(rng),
			harness,
			params: { items: count, restartTurn: harness.restart.turn },
		};
	},
};

export const duplicateIdles: Profile = {
	name: "duplicate-idles",
	summary: "every idle arrives twice or three times, one copy sometimes seconds late",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(4, 8);
		const harness = defaultHarness(rng);
		harness.idleCopies = rng.int(2, 3);
		harness.lateDuplicate = rng.float(0.3, 0.8);
		return {
			items: makeItems(count, rng),
			agent: lazy(),
			user: defaultUser(rng),
			harness,
			params: { items: count, idleCopies: harness.idleCopies, lateDuplicate: round(harness.lateDuplicate) },
		};
	},
};

/** Qwen Code's default and Copilot CLI's cap, as the block in a row the harness overrides (8 and 9). */
const CAPS = [8, 9] as const;

export const cappedLongList: Profile = {
	name: "harness-cap-long",
	summary:
		"the harness ends a prompt's run at its own cap on continuations in a row (Qwen Code, Copilot CLI), and the list needs more",
	expect: { finish: false, stop: "harness-cap", text: "stop before the harness's cap, never a nudge it swallows" },
	setup(rng) {
		const count = rng.int(12, 20);
		const harness = defaultHarness(rng);
		harness.continuationCap = rng.pick(CAPS);
		return {
			items: makeItems(count, rng),
			agent: lazy(),
			user: defaultUser(rng),
			harness,
			params: { items: count, cap: harness.continuationCap },
		};
	},
};

export const cappedShortList: Profile = {
	name: "harness-cap-short",
	summary: "the same cap, and a list that fits within it",
	expect: FINISH,
	setup(rng) {
		const count = rng.int(3, 6);
		const harness = defaultHarness(rng);
		harness.continuationCap = rng.pick(CAPS);
		return {
			items: makeItems(count, rng),
			agent: lazy(),
			user: defaultUser(rng),
			harness,
			params: { items: count, cap: harness.continuationCap },
		};
	},
};
