/**
 * The fleet view's four states, from a worktree's status snapshot (pure):
 * `needs-person` (waiting on an answer, stopped or paused, a budget or the
 * harness's cap spent, a bad config), `stuck` (no progress: stagnation,
 * back-off after failures, a failing verify, an unknown last turn),
 * `rolling` (open items, being continued) and `done` (nothing open, or the
 * work completed). The words are the local status's; only the grouping is
 * the fleet's.
 */
import type { DecisionRecord } from "../core/decision-record.js";
import type { ListSessionStatus, WorkStatusView, WorktreeStatusView } from "../engine/status.js";

export const FLEET_STATES = ["needs-person", "stuck", "rolling", "done"] as const;
export type FleetState = (typeof FLEET_STATES)[number];

const NEEDS_PERSON = new Set([
	"awaiting-user",
	"user-aborted",
	"budget-turns",
	"budget-tokens",
	"budget-time",
	"harness-cap",
	"context-overflow",
	"config-invalid",
	"state-unreadable",
	"disabled",
	"stopped",
	"work-paused",
]);
const STUCK = new Set(["stagnation", "backoff", "turn-unsafe", "delivery-failed", "api-error", "error"]);

function fromDecision(decision: DecisionRecord | null): FleetState | null {
	if (!decision) return null;
	if (NEEDS_PERSON.has(decision.reason)) return "needs-person";
	if (STUCK.has(decision.reason)) return "stuck";
	if (decision.kind === "complete") return "done";
	return null;
}

export function workState(work: WorkStatusView, worktree: WorktreeStatusView): FleetState {
	if (work.status === "completed" || work.status === "abandoned") return "done";
	if (work.status === "paused" || worktree.stopped || work.sessions.some((s) => s.stoppedBy)) return "needs-person";
	if (work.lastVerification && !work.lastVerification.passed && work.progress?.open === 0) return "stuck";
	return fromDecision(work.lastDecision) ?? (work.progress && work.progress.open === 0 ? "done" : "rolling");
}

export function sessionState(session: ListSessionStatus, worktree: WorktreeStatusView): FleetState {
	if (session.counts.open === 0) return "done";
	if (worktree.stopped || session.stoppedBy) return "needs-person";
	return fromDecision(session.lastDecision) ?? "rolling";
}
