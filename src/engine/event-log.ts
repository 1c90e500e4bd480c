/**
 * Logs what happened around the decisions (a person started a plan, stopped
 * continuation, a hook failed before anything opened) as event lines, through
 * the one factory in the core. The action itself has already happened: a log
 * that cannot be written comes back as a warning for the caller to show.
 */
import type { Clock } from "../core/clock.js";
import { type EventFields, eventRecord } from "../core/decision-record.js";
import type { Store } from "../state/store.js";

/** Contract: never throws; returns a warning when the line could not be written, else null. */
export async function logEvent(
	store: Store,
	clock: Clock,
	fields: Omit<EventFields, "at" | "worktree">,
): Promise<string | null> {
	try {
		await store.appendDecision(eventRecord({ ...fields, at: clock.now(), worktree: store.worktree }));
		return null;
	} catch (error) {
		return `done, but it could not be written to the decision log: ${error instanceof Error ? error.message : String(error)}`;
	}
}
