/**
 * Every kind of event line the decision log holds besides decisions: what
 * happened around them (a user turn, an abort, a delivery that failed, a
 * state file moved aside). Writers take an `EventReason`, so a new event
 * cannot be logged without an entry here, and the wording for `boulder why`
 * is a `Record<EventReason, …>`, so it cannot lack words for one.
 *
 * `explains`: whether `boulder why` shows the event among the decisions,
 * because it explains a decision that follows (an abort does; a compaction
 * does not).
 */
export const EVENT_REASONS = {
	"user-turn": { explains: false },
	"user-aborted": { explains: true },
	"api-error": { explains: false },
	"context-overflow": { explains: false },
	compaction: { explains: false },
	"session-deleted": { explains: false },
	stopped: { explains: true },
	resumed: { explains: true },
	"delivery-failed": { explains: true },
	error: { explains: true },
	"config-invalid": { explains: true },
	"state-unreadable": { explains: true },
	"state-migrated": { explains: false },
	"work-started": { explains: true },
	"work-paused": { explains: true },
	"work-resumed": { explains: true },
	"work-abandoned": { explains: true },
	"orchestrator-edit-warned": { explains: true },
	"orchestrator-edit-denied": { explains: true },
	"subagent-returned": { explains: true },
	"todo-reminder": { explains: true },
	"resume-context": { explains: true },
} as const satisfies Record<string, { explains: boolean }>;

export type EventReason = keyof typeof EVENT_REASONS;

export function isEventReason(reason: string): reason is EventReason {
	return Object.hasOwn(EVENT_REASONS, reason);
}

/** Whether `boulder why` shows an event line with this reason (unknown reasons, from a newer boulder, are not shown). */
export function explainsDecisions(reason: string): boolean {
	return isEventReason(reason) && EVENT_REASONS[reason].explains;
}
