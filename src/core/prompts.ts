/**
 * Fills the prompt templates. Deterministic: the same inputs give the same
 * bytes, and nothing of the clock or of chance ever reaches a prompt. Titles
 * from a plan or a list are clipped (`clip.ts`): a nudge stays a few KB
 * however long an item is.
 */
import { clipTitle } from "./clip.js";
import { CONTINUATION_PROMPT } from "./prompts/continuation.prompt.js";
import { ORCHESTRATE_CONTINUATION_PROMPT } from "./prompts/orchestrate.prompt.js";
import { VERIFY_FAILED_PROMPT } from "./prompts/verify-failed.prompt.js";
import { WATCHDOG_ABORTED, WATCHDOG_CHECK, WATCHDOG_NOTE } from "./prompts/watchdog.prompt.js";
import { WORK_COMPLETE_MESSAGE } from "./prompts/work-complete.prompt.js";
import { fillTemplate } from "./template.js";
import { canonicalText } from "./todos.js";
import { ageText, type OverdueTask, taskName } from "./watchdog.js";
import type { WorkView } from "./work-view.js";

export function progressText(view: WorkView): string {
	const { counts } = view;
	const parts = [`${counts.completed} of ${counts.total} done`];
	if (counts.open > 0) parts.push(`${counts.open} open`);
	if (counts.blocked > 0) parts.push(`${counts.blocked} blocked`);
	if (counts.cancelled > 0) parts.push(`${counts.cancelled} cancelled`);
	return parts.join(", ");
}

function workName(view: WorkView): string {
	return view.source === "plan" && view.name ? `the plan "${clipTitle(view.name)}"` : "your todo list";
}

export function continuationPrompt(view: WorkView): string {
	const titles = view.next.map((title) => clipTitle(title));
	const next = titles.length === 1 ? `${titles[0]}` : titles.map((title) => `\n- ${title}`).join("");
	if (view.orchestrate) {
		const subagents = view.orchestrate.subagents;
		const resumable = view.next.filter((title) => Object.hasOwn(subagents, canonicalText(title)));
		const resume = resumable
			.map(
				(title) =>
					`"${clipTitle(title)}" was already worked on by subagent session ${subagents[canonicalText(title)]}: resume that session (it keeps its context) rather than starting a new one.\n`,
			)
			.join("");
		return fillTemplate(ORCHESTRATE_CONTINUATION_PROMPT, {
			progress: `${progressText(view)} in ${workName(view)}`,
			next,
			resume,
		});
	}
	return fillTemplate(CONTINUATION_PROMPT, {
		progress: `${progressText(view)} in ${workName(view)}`,
		next,
		planHint:
			view.source === "plan" ? " and tick its checkbox in the plan file ([x] done, [~] blocked, [-] cancelled)" : "",
	});
}

export interface FailedCheck {
	command: string;
	exitCode: number | null;
	output: string;
}

export function verifyFailedPrompt(view: WorkView, failed: FailedCheck): string {
	return fillTemplate(VERIFY_FAILED_PROMPT, {
		name: workName(view),
		command: failed.command,
		exit: failed.exitCode === null ? "did not finish (timed out or was killed)" : String(failed.exitCode),
		output: failed.output.trim() === "" ? "(no output)" : failed.output.trimEnd(),
	});
}

export function workCompleteMessage(view: WorkView): string {
	return fillTemplate(WORK_COMPLETE_MESSAGE, {
		name: view.source === "plan" && view.name ? `"${clipTitle(view.name)}"` : "the todo list",
		progress: progressText(view),
		verified: view.verify.length > 0 ? ", verified" : "",
	});
}

/** What a nudge adds about tasks past their time limit: each one and its age, and what to do about them. */
export function watchdogNote(overdue: readonly OverdueTask[], aborted: boolean): string {
	return fillTemplate(WATCHDOG_NOTE, {
		tasks: overdue
			.map(
				(entry) => `- ${taskName(entry.task)}: running for ${ageText(entry.ageMs)} (limit ${ageText(entry.limitMs)})`,
			)
			.join("\n"),
		what: aborted ? WATCHDOG_ABORTED : WATCHDOG_CHECK,
	});
}
