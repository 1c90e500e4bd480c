/**
 * Jobs of one key (an OpenCode session) run one after the other, in the order
 * their events came, so the engine sees a session's events in order while
 * sessions go on side by side. OpenCode does not await its `event` hook, so
 * without this a turn's end could overtake its start.
 *
 * A job that takes longer than the limit (a stuck lock; verify commands can
 * take minutes) stops holding up the next one; it may still finish behind.
 *
 * Contract: `enqueue` returns a promise that never rejects; a job's failure
 * or timeout goes to `onError`.
 */
import { withTimeout } from "./api.js";
import type { Scheduler } from "./scheduler.js";

export interface KeyedQueueOptions {
	limitMs: number;
	/** What a job does, for the time-limit error. */
	what: string;
	scheduler: Scheduler;
	onError(key: string, error: unknown): Promise<void>;
}

export class KeyedQueue {
	private readonly tails = new Map<string, Promise<void>>();

	constructor(private readonly options: KeyedQueueOptions) {}

	enqueue(key: string, job: () => Promise<void>): Promise<void> {
		const { limitMs, what, scheduler, onError } = this.options;
		const previous = this.tails.get(key) ?? Promise.resolve();
		const run = previous.then(async () => {
			try {
				await withTimeout(job(), limitMs, what, { scheduler });
			} catch (error) {
				await onError(key, error);
			}
		});
		this.tails.set(key, run);
		void run.then(() => {
			if (this.tails.get(key) === run) this.tails.delete(key);
		});
		return run;
	}

	/** Keys with jobs queued or running. */
	get size(): number {
		return this.tails.size;
	}

	/** Resolves once every job queued so far, and every job they queued, has run. */
	async settled(): Promise<void> {
		while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
	}
}
