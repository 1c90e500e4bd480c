/**
 * The one re-decide a backoff asks for. A skip for backoff carries the
 * engine's `retryAt`; the session is decided again then, not before (the
 * engine would only skip again) and not blindly in a loop. One per session:
 * a newer one replaces it, and whatever shows the session alive (it goes
 * busy, a prompt, `/boulder stop`, deletion) clears it.
 *
 * Contract: `run` is called at most once per `at`, and never after `clear`
 * or `close`.
 */
import type { Clock } from "../../core/clock.js";
import type { Scheduler, Timer } from "./scheduler.js";

/** Fire a little after the backoff ends, so the engine, reading its own clock, sees it over. */
const SLACK_MS = 50;

export class Retries {
	private readonly timers = new Map<string, Timer>();

	constructor(
		private readonly clock: Clock,
		private readonly scheduler: Scheduler,
	) {}

	/** Runs `run` once at `at` (epoch ms), replacing the key's earlier one. */
	at(key: string, at: number, run: () => void): void {
		this.clear(key);
		const timer = this.scheduler
			.setTimeout(
				() => {
					this.timers.delete(key);
					run();
				},
				Math.max(0, at - this.clock.now()) + SLACK_MS,
			)
			.unref();
		this.timers.set(key, timer);
	}

	clear(key: string): void {
		this.scheduler.clearTimeout(this.timers.get(key));
		this.timers.delete(key);
	}

	close(): void {
		for (const timer of this.timers.values()) this.scheduler.clearTimeout(timer);
		this.timers.clear();
	}
}
