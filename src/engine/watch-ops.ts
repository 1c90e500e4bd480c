/**
 * The watcher at the deadline, for a harness where nothing runs while a
 * parent waits on its background work (Claude Code: a background subagent
 * that never returns holds its parent, and no hook fires until it ends). A
 * process started at the end of the turn (Claude Code's `asyncRewake` Stop
 * hook) sleeps until the first watched task runs past its limit, and if the
 * session still waits as it did, takes the decision again then: the nudge
 * that names the overdue task is what wakes the parent.
 *
 * It never holds anything open longer than it must: it ends as soon as the
 * session has moved on (a turn, another decision, the watched tasks gone),
 * as soon as the turn's own hook decided not to wait, and when it finds no
 * wait at all once that hook has had time to decide. Two watchers that see
 * the same wait cannot both wake it: the decision is taken under the state's
 * lock, only while the wait is unchanged.
 *
 * Contract: throws only what the engine throws; the caller logs it and wakes
 * nothing.
 */
import type { Clock } from "../core/clock.js";
import type { Engine, SessionRef } from "./engine.js";

export interface WatchOptions {
	clock: Clock;
	sleep(ms: number): Promise<void>;
	/** How long the watcher may live; a deadline beyond it is left to the next turn's end. */
	lifetimeMs: number;
	/** How often it looks whether the session has moved on. */
	pollMs: number;
	/**
	 * How long a wait may take to appear: the turn's own hook runs beside the
	 * watcher and decides a moment later. Until then, no wait is not yet news.
	 */
	settleMs: number;
}

export const WATCH_POLL_MS = 1_000;
export const WATCH_SETTLE_MS = 5_000;

/**
 * A decision this long before the watcher started can still be the one its
 * turn's hook took: both processes start together, and either may be slower.
 */
const SAME_STOP_MS = 3_000;

/** The nudge that wakes the parent at the deadline, or null when nothing should wake it. */
export async function watchBackground(
	engine: Engine,
	ref: SessionRef,
	watched: readonly string[],
	options: WatchOptions,
): Promise<string | null> {
	const { clock } = options;
	const started = clock.now();
	const end = started + options.lifetimeMs;
	let waited = false;
	for (;;) {
		const now = clock.now();
		const wait = await engine.backgroundWait(ref, watched);
		if (wait.kind !== "waiting") {
			const decidedHere = wait.kind === "decided" && wait.at >= started - SAME_STOP_MS;
			if (waited || decidedHere || now - started >= options.settleMs) return null;
			await options.sleep(Math.min(options.pollMs, end - now));
			continue;
		}
		waited = true;
		if (wait.deadline > end) return null;
		if (wait.deadline > now) {
			await options.sleep(Math.min(options.pollMs, wait.deadline - now));
			continue;
		}
		const result = await engine.decideAtDeadline(ref, wait.since);
		if (result?.kind === "inject") return result.text;
		// Moved on, or decided to let it wait on something else: look again.
	}
}
