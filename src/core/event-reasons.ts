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
 *
 * `standing`: whether the event changes where things stand (the user wrote,
 * the agent stopped on an error, continuation was turned off), so that
 * `boulder status` may show it as the last word. A note along the way
 * (context given at a resume, a reminder on a tool's result, a subagent's
 * return) does not: the decision before it still says what boulder does.
 */
export const EVENT_REASONS = {
	"user-turn": { explains: false, standing: true },
	"user-aborted": { explains: true, standing: true },
	"api-error": { explains: false, standing: true },
	"context-overflow": { explains: false, standing: true },
	compaction: { explains: false, standing: false },
	"session-deleted": { explains: false, standing: true },
	stopped: { explains: true, standing: true },
	resumed: { explains: true, standing: true },
	"delivery-failed": { explains: true, standing: true },
	error: { explains: true, standing: true },
	"config-invalid": { explains: true, standing: true },
	"state-unreadable": { explains: true, standing: true },
	"state-migrated": { explains: false, standing: false },
	"work-started": { explains: true, standing: true },
	"work-paused": { explains: true, standing: true },
	"work-resumed": { explains: true, standing: true },
	"work-abandoned": { explains: true, standing: true },
	"work-trusted": { explains: true, standing: true },
	"orchestrator-edit-warned": { explains: true, standing: false },
	"orchestrator-edit-denied": { explains: true, standing: false },
	"subagent-returned": { explains: true, standing: false },
	"todo-reminder": { explains: true, standing: false },
	"resume-context": { explains: true, standing: false },
} as const satisfies Record<string, { explains: boolean; standing: boolean }>;

export type EventReason = keyof typeof EVENT_REASONS;

export function isEventReason(reason: string): reason is EventReason {
	return Object.hasOwn(EVENT_REASONS, reason);
}

/** Whether `boulder why` shows an event line with this reason (unknown reasons, from a newer boulder, are not shown). */
export function explainsDecisions(reason: string): boolean {
	return isEventReason(reason) && EVENT_REASONS[reason].explains;
}

/** Whether an event line with this reason changes where things stand (unknown reasons, from a newer boulder, do not). */
export function changesStanding(reason: string): boolean {
	return isEventReason(reason) && EVENT_REASONS[reason].standing;
}
