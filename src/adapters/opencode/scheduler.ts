/**
 * Every wait of the adapter (the countdown before a nudge, the deadline for
 * it to appear, a backoff's re-decide, the deadlines on OpenCode's API and on
 * a session's jobs) goes through a `Scheduler`, so tests move time by hand
 * instead of sleeping, and a late timer on a busy machine cannot make a
 * broken cancel look like a working one.
 *
 * Contract: a timer fires at most once, never after `clearTimeout`; `unref`
 * lets the OpenCode server exit while the timer is pending.
 */

export interface Timer {
	/** Lets the process exit while the timer is pending; returns the same timer. */
	unref(): Timer;
}

export interface Scheduler {
	setTimeout(run: () => void, ms: number): Timer;
	/** Stops a pending timer; a fired, cleared or missing one is ignored. */
	clearTimeout(timer: Timer | undefined): void;
}

class SystemTimer implements Timer {
	constructor(readonly handle: ReturnType<typeof setTimeout>) {}

	unref(): Timer {
		// Some runtimes hand out plain numbers, which keep nothing alive.
		const handle: unknown = this.handle;
		if (typeof handle === "object" && handle !== null && "unref" in handle && typeof handle.unref === "function") {
			handle.unref();
		}
		return this;
	}
}

/** The runtime's own timers. */
export const systemScheduler: Scheduler = {
	setTimeout: (run, ms) => new SystemTimer(setTimeout(run, ms)),
	clearTimeout: (timer) => {
		if (timer instanceof SystemTimer) clearTimeout(timer.handle);
	},
};
