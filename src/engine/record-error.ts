/**
 * The record of an internal error, for `boulder why`: the `Engine`'s and the
 * file-change hook's (`file-changes.ts`), which opens no `Engine`.
 */
import type { Clock } from "../core/clock.js";
import { eventRecord } from "../core/decision-record.js";
import { scopeKey } from "../core/scope-key.js";
import type { Store } from "../state/store.js";
import type { SessionRef } from "./engine-types.js";

/** The scope a session's state lives in; null for a subagent, which keeps none. */
export function sessionScope(ref: SessionRef): string | null {
	if (ref.subagent) return null;
	return scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
}

/** Records an internal error so `boulder why` can tell it; never throws. */
export async function recordError(
	store: Store,
	clock: Clock,
	ref: SessionRef | null,
	where: string,
	error: unknown,
): Promise<void> {
	const message = error instanceof Error ? error.message : String(error);
	try {
		await store.appendDecision(
			eventRecord({
				at: clock.now(),
				worktree: store.worktree,
				scope: ref ? sessionScope(ref) : null,
				harness: ref?.harness ?? null,
				session: ref?.sessionId ?? null,
				reason: "error",
				detail: `${where}: ${message}`,
				promptId: ref?.promptId,
			}),
		);
	} catch {
		// The log itself failed: the caller's own stderr is all that is left.
	}
}
