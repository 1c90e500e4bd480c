/**
 * What one run measured: the outcome against the profile's right outcome,
 * every nudge with the violations it committed and whether it brought
 * progress, and the tokens the nudged turns spent.
 */
import type { StopKind } from "./profile.js";

export const VIOLATION_KINDS = [
	"after-abort",
	"question-pending",
	"after-stop",
	"into-subagent",
	"duplicate",
	"background-busy",
	"orchestrator-edit",
	"parent-waiting",
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export const VIOLATION_LABELS: Record<ViolationKind, string> = {
	"after-abort": "nudge after the user's Esc, before they spoke again",
	"question-pending": "nudge while a question to the user was unanswered",
	"after-stop": "nudge after the user's stop command",
	"into-subagent": "nudge into a subagent's session",
	duplicate: "second nudge for one idle",
	"background-busy": "nudge while background tasks were running",
	"orchestrator-edit": "nudged orchestrator changed code itself instead of delegating",
	"parent-waiting": "run ended with the parent waiting on a wedged subagent past its limit",
};

export interface NudgeRecord {
	session: string;
	child: boolean;
	at: number;
	violations: ViolationKind[];
	/** Real spend of the turn the nudge started (with the nudge text itself). */
	tokens: number;
	/**
	 * Judged when its turn ends: wasted when no item got done, none was handed to a
	 * subagent and the list caught up with nothing. null: not judged (the turn was
	 * cut short by the user or a restart, or never ended).
	 */
	wasted: boolean | null;
}

export interface RunResult {
	policy: string;
	profile: string;
	seed: number;
	finishExpected: boolean;
	stop: StopKind;
	/** Every item within the agent's reach is really done. */
	completed: boolean;
	rightOutcome: boolean;
	nudges: number;
	wasted: number;
	longestWasteRun: number;
	violations: Record<ViolationKind, number>;
	nudgeTokens: number;
	/** Tokens of the nudged turns that brought nothing. */
	wastedTokens: number;
	/** Reminders to update the list that rode on tool results (never turns of their own). */
	listReminders: number;
	/** Turns of the main session over the whole run. */
	turns: number;
	/** Turns of the main session until the work was really done (null: never). */
	turnsToFinish: number | null;
	/** The run hit the ceiling (idles, decisions or simulated time) with the policy still going. */
	capped: boolean;
	/** Nudges the harness overrode at its own continuation cap: sent, never received. */
	overridden: number;
	/** The policy's reason for its last skip at the main session's last idle: why it let the session stop (null: it did not skip there). */
	stoppedBy: string | null;
}

export function noViolations(): Record<ViolationKind, number> {
	return Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, 0])) as Record<ViolationKind, number>;
}

export function violationTotal(result: Pick<RunResult, "violations">): number {
	return VIOLATION_KINDS.reduce((sum, kind) => sum + result.violations[kind], 0);
}

/**
 * Fruitless pushes a person watching would tolerate before calling the agent
 * stuck: the bar for "stops when it should" on stuck and blocked work.
 */
export const FRUITLESS_LIMIT = 3;

/** Right outcome, in terms of the work and the user only. */
export function judgeOutcome(
	stop: StopKind,
	run: Pick<RunResult, "completed" | "capped" | "violations" | "wasted" | "overridden">,
): boolean {
	const clean = violationTotal(run) === 0 && !run.capped && run.overridden === 0;
	if (stop === "stopped" || stop === "harness-cap") return clean;
	if (stop === "stuck") return clean && run.wasted <= FRUITLESS_LIMIT;
	if (stop === "blocked") return clean && run.completed && run.wasted <= FRUITLESS_LIMIT;
	return clean && run.completed;
}

export function longestRun(nudges: readonly NudgeRecord[]): number {
	let longest = 0;
	let current = 0;
	for (const nudge of nudges) {
		if (nudge.child || nudge.wasted === null) continue;
		current = nudge.wasted ? current + 1 : 0;
		longest = Math.max(longest, current);
	}
	return longest;
}
