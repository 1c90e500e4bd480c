/**
 * Clock steps must not defeat the wall-clock budget: an episode stamped
 * ahead of now (a step back of the clock, a VM restore, a forged file) has
 * run for no time, never for minus ten years, and its time left is never
 * more than the budget.
 */
import { describe, expect, it } from "vitest";
import { elapsedSince, timeLeft } from "../../src/core/budget.js";
import { steadyClock } from "../../src/state/store.js";
import { afterTurn, config, idle, T0, view } from "./builders.js";

const TEN_YEARS = 10 * 365 * 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

describe("the wall-clock budget under clock steps", () => {
	it("clamps elapsed time at zero and time left at the budget", () => {
		expect(elapsedSince(T0 + TEN_YEARS, T0)).toBe(0);
		expect(timeLeft(3 * HOUR, T0 + TEN_YEARS, T0)).toBe(3 * HOUR);
		expect(timeLeft(3 * HOUR, T0, T0 + TEN_YEARS)).toBe(0);
	});

	it("never reports more time left than the budget for an episode stamped ten years ahead", () => {
		const budget = config({ budgets: { wallClockMs: 3 * HOUR, perItem: { wallClockMs: 0 } } });
		const first = idle(afterTurn(), view(".."), { config: budget });
		expect(first.kind).toBe("inject");
		const episode = first.next.episode;
		if (!episode) throw new Error("no episode");
		const forged = {
			...afterTurn("continuation", { outcome: "end" }, first.next),
			episode: { ...episode, startedAt: T0 + TEN_YEARS },
		};

		const next = idle(forged, view("x."), { config: budget, now: T0 + 5000 });

		expect(next.figures.msLeft).toBeLessThanOrEqual(3 * HOUR);
		expect(next.kind).toBe("inject");
		expect(next.next.episode?.startedAt).toBe(T0 + 5000);
	});

	it("stops on the time budget once the re-stamped episode has run its budget", () => {
		const budget = config({ budgets: { wallClockMs: 3 * HOUR, perItem: { wallClockMs: 0 } } });
		const first = idle(afterTurn(), view("...."), { config: budget });
		const episode = first.next.episode;
		if (!episode) throw new Error("no episode");
		const forged = {
			...afterTurn("continuation", { outcome: "end" }, first.next),
			episode: { ...episode, startedAt: T0 + TEN_YEARS },
		};
		const restamped = idle(forged, view("x..."), { config: budget, now: T0 + 5000 });

		const later = idle(afterTurn("continuation", { outcome: "end" }, restamped.next, T0 + 4 * HOUR), view("xx.."), {
			config: budget,
			now: T0 + 4 * HOUR + 2000,
		});

		expect(later.reason).toBe("budget-time");
	});
});

describe("the steady clock of a process", () => {
	it("runs on at the monotonic pace when the wall clock steps back, and follows a step forward", () => {
		let wall = T0;
		let mono = 0;
		const clock = steadyClock(
			() => wall,
			() => mono,
		);
		mono += 1000;
		wall += 1000;
		expect(clock.now()).toBe(T0 + 1000);
		wall -= TEN_YEARS;
		mono += 500;
		expect(clock.now()).toBe(T0 + 1500);
		wall = T0 + 10 * HOUR;
		mono += 10;
		expect(clock.now()).toBe(T0 + 10 * HOUR);
	});
});
