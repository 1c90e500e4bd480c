/**
 * Time that moves only when a test says so: a `Clock` and a `Scheduler` in
 * one, handed to the hub, the deliveries and the engine. No timer fires until
 * `advance` passes its due time, so a test proves that something did NOT
 * happen by advancing past the moment it would have happened, not by
 * sleeping and hoping the machine was quick enough.
 */
import type { Scheduler, Timer } from "../../../src/adapters/opencode/scheduler.js";
import type { Clock } from "../../../src/core/clock.js";

interface Pending {
	id: number;
	due: number;
	run: () => void;
}

class ManualTimer implements Timer {
	constructor(readonly id: number) {}

	unref(): Timer {
		return this;
	}
}

/** Lets every promise chain that waits on nothing but other promises run to its end. */
export function flush(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

export class ManualTime implements Clock, Scheduler {
	private at: number;
	private lastId = 0;
	private readonly timers = new Map<number, Pending>();
	/** Awaited before time moves and after every timer that fires, so the work a timer starts is done before the next fires. */
	settle: () => Promise<void> = flush;

	constructor(start = Date.UTC(2026, 0, 1)) {
		this.at = start;
	}

	now(): number {
		return this.at;
	}

	setTimeout(run: () => void, ms: number): Timer {
		const id = ++this.lastId;
		this.timers.set(id, { id, due: this.at + Math.max(0, ms), run });
		return new ManualTimer(id);
	}

	clearTimeout(timer: Timer | undefined): void {
		if (timer instanceof ManualTimer) this.timers.delete(timer.id);
	}

	/** How far away each pending timer is, soonest first. */
	pending(): number[] {
		return [...this.timers.values()].map((timer) => timer.due - this.at).sort((a, b) => a - b);
	}

	/** Moves time forward by `ms`, firing each timer that falls due on the way, in order. */
	async advance(ms: number): Promise<void> {
		const target = this.at + ms;
		await this.settle();
		for (let next = this.next(target); next; next = this.next(target)) {
			this.timers.delete(next.id);
			this.at = next.due;
			next.run();
			await this.settle();
		}
		this.at = target;
	}

	private next(until: number): Pending | undefined {
		let soonest: Pending | undefined;
		for (const timer of this.timers.values()) {
			if (timer.due <= until && (!soonest || timer.due < soonest.due)) soonest = timer;
		}
		return soonest;
	}
}
