/** What `boulder start` prints: what was started, its progress and the next item. */
import type { PlanProgress } from "../../engine/status.js";
import type { Style } from "../style.js";
import { progressText } from "./progress.js";

export interface StartedView {
	name: string;
	id: string;
	planPath: string;
	worktree: string;
	/** A new work; a live work made active again (it was paused); or the active work already. */
	outcome: "started" | "made-active" | "already-active";
	/** The works that were active and are paused now to make way for this one. */
	paused: ReadonlyArray<{ name: string; id: string }>;
	progress: PlanProgress;
	next: string | null;
	verify: string[];
	/** Orchestrate mode: the session delegates the items to subagents. */
	orchestrate: boolean;
	/** The worktree-wide stop switch is on: nothing will be nudged yet. */
	stoppedBy: string | null;
	/** The config is invalid: adapters let the agent stop until it is fixed. */
	configProblem: string | null;
	/** The sessions bound to the work when it was handed over to the next one; empty: none was bound. */
	handedOverFrom?: ReadonlyArray<{ harness: string; sessionId: string }>;
}

export function renderStarted(view: StartedView, c: Style): string {
	const verb = { started: "Started", "made-active": "Made active again", "already-active": "Already active" }[
		view.outcome
	];
	const lines = [
		`${c.green(verb)} ${c.bold(view.name)} ${c.dim(`(${view.id})`)}: the active work of ${view.worktree}`,
		...pausedToMakeWay(view.paused, c),
		`  plan      ${view.planPath}`,
		`  progress  ${progressText(view.progress)}`,
		`  next      ${view.next ?? c.dim("nothing open")}`,
	];
	if (view.verify.length > 0) lines.push(`  verify    ${view.verify.join(c.dim(" && "))}`);
	if (view.orchestrate)
		lines.push(`  mode      orchestrate ${c.dim("(the session delegates the items to subagents)")}`);
	lines.push(...handoverLines(view.handedOverFrom ?? [], c));
	if (view.stoppedBy) {
		lines.push(
			c.yellow(`Continuation is stopped in this worktree (by ${view.stoppedBy}); \`boulder go\` turns it on.`),
		);
	}
	if (view.configProblem) {
		lines.push(c.yellow(`The config is invalid, so nothing will be nudged until it is fixed:\n${view.configProblem}`));
	}
	return lines.join("\n");
}

/** Starting or resuming a work pauses the one that was active: the user hears which, and how to get it back. */
export function pausedToMakeWay(paused: ReadonlyArray<{ name: string; id: string }>, c: Style): string[] {
	return paused.map(
		(work) =>
			`${c.yellow("Paused")} ${c.bold(work.name)} ${c.dim(`(${work.id})`)}, which was the active work; \`boulder resume ${work.id}\` makes it active again.`,
	);
}

/**
 * Who rolls the work next, as the engine will do it (`docs/handover.md`): a
 * work nobody rolls goes to the next session that goes idle; one handed over
 * keeps its sessions, and the next other session to go idle joins them.
 */
export function handoverLines(from: ReadonlyArray<{ harness: string; sessionId: string }>, c: Style): string[] {
	if (from.length === 0) {
		return [c.dim("The next session that goes idle in this worktree rolls it; `boulder status` shows how it goes.")];
	}
	const who = from.map((session) => `${session.harness} session ${session.sessionId}`).join(", ");
	return [
		`${c.green("Handed over")}: the next other session that goes idle in this worktree joins it (bound so far: ${who}).`,
	];
}
