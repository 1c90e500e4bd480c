/** What `boulder start` prints: what was started, its progress and the next item. */
import type { PlanProgress } from "../../engine/status.js";
import type { Style } from "../style.js";
import { progressText } from "./progress.js";

export interface StartedView {
	name: string;
	id: string;
	planPath: string;
	worktree: string;
	/** The plan was already a live work: starting it again made it active. */
	again: boolean;
	progress: PlanProgress;
	next: string | null;
	verify: string[];
	/** The worktree-wide stop switch is on: nothing will be nudged yet. */
	stoppedBy: string | null;
	/** The config is invalid: adapters let the agent stop until it is fixed. */
	configProblem: string | null;
}

export function renderStarted(view: StartedView, c: Style): string {
	const verb = view.again ? "Made active again" : "Started";
	const lines = [
		`${c.green(verb)} ${c.bold(view.name)} ${c.dim(`(${view.id})`)}: the active work of ${view.worktree}`,
		`  plan      ${view.planPath}`,
		`  progress  ${progressText(view.progress)}`,
		`  next      ${view.next ?? c.dim("nothing open")}`,
	];
	if (view.verify.length > 0) lines.push(`  verify    ${view.verify.join(c.dim(" && "))}`);
	lines.push(c.dim("The next session that goes idle in this worktree rolls it; `boulder status` shows how it goes."));
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
