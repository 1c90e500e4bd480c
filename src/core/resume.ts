/**
 * Resume context: when a session comes back to unfinished work (the harness
 * resumed it, compacted its conversation, or restarted), the agent reads
 * where the work stands — the plan, the progress, the open items, the next
 * one and, in orchestrate mode, the subagent session that worked on each —
 * so it picks up where it left off instead of starting cold.
 *
 * It is context, never a nudge: no new turn, no continuation counted, no
 * budget spent. Pure: the engine passes the state, the work and the facts.
 * Only the session bound to the work (or rolling its own list) hears it,
 * never a subagent, and never once the user stopped boulder, paused the work
 * or aborted the last turn: the user's next word decides then.
 */
import type { Config } from "./config.js";
import type { SessionFacts } from "./policy.js";
import { RESUME_CONTEXT, RESUME_ORCHESTRATOR_DELEGATE, RESUME_ORCHESTRATOR_RESUME } from "./prompts/resume.prompt.js";
import { progressText } from "./prompts.js";
import { fillTemplate } from "./template.js";
import { canonicalText, isOpen, type TodoStatus } from "./todos.js";
import type { ContinuationState } from "./turns.js";
import type { WorkView } from "./work-view.js";

/** How the session came back: the harness resumed it, compacted its conversation, or restarted with it. */
export type ResumeHow = "resume" | "compact" | "restart";

/** Most open items the context lists; the rest are counted. */
export const LISTED_ITEMS = 12;

export interface ResumeInput {
	how: ResumeHow;
	state: ContinuationState;
	/** The work the session rolls: its bound plan, or its own list. null: neither. */
	work: WorkView | null;
	/** The work's items in order (the plan's items, or the list's todos). */
	items: readonly { title: string; status: TodoStatus }[];
	/** The plan file, relative to the worktree, for a plan: where the agent ticks items. */
	planPath?: string | null;
	facts: Pick<SessionFacts, "switchedOff" | "subagent" | "agent" | "boundElsewhere" | "planUnusable">;
	config: Config;
}

export type ResumeVerdict =
	| { kind: "none"; reason: "disabled" | "not-eligible" | "no-open-work" | "user-aborted"; detail: string }
	| { kind: "context"; reason: "resume-context"; detail: string; text: string };

const CAME_BACK: Record<ResumeHow, string> = {
	resume: "was resumed",
	compact: "had its conversation compacted",
	restart: "came back after a restart",
};

export function resumeContext(input: ResumeInput): ResumeVerdict {
	const { config, facts, state, work } = input;
	const none = (reason: Extract<ResumeVerdict, { kind: "none" }>["reason"], detail: string): ResumeVerdict => ({
		kind: "none",
		reason,
		detail,
	});
	if (!config.enabled) return none("disabled", "boulder is turned off in the config");
	if (state.disabled) return none("disabled", `continuation was turned off by ${state.disabled.by}`);
	if (facts.switchedOff) return none("disabled", `continuation is switched off (${facts.switchedOff.kind})`);
	if (facts.subagent) return none("not-eligible", "a subagent's session is its parent's business");
	const agent = facts.agent?.trim().toLowerCase();
	if (agent && config.skipAgents.some((name) => name.toLowerCase() === agent)) {
		return none("not-eligible", `the agent "${facts.agent}" is never continued`);
	}
	const ownList = work !== null && work.source === "todos" && work.counts.total > 0;
	if (facts.boundElsewhere && !ownList) {
		return none("not-eligible", `the active work "${facts.boundElsewhere.work}" belongs to another session`);
	}
	if (facts.planUnusable) return none("no-open-work", `the plan ${facts.planUnusable.path} cannot be used as it is`);
	if (!work || work.counts.open === 0) return none("no-open-work", "nothing is open");
	if (state.abortBlock) return none("user-aborted", "the user stopped the last turn; their next message decides");

	const open = input.items.filter((item) => isOpen(item.status));
	const listed = open.slice(0, LISTED_ITEMS).map((item) => {
		const title = canonicalText(item.title);
		return `- ${title}${item.status === "in_progress" ? " (in progress)" : ""}${subagentOf(work, title)}`;
	});
	if (open.length > LISTED_ITEMS) listed.push(`- … and ${open.length - LISTED_ITEMS} more`);
	const name = work.source === "plan" && work.name ? `the plan "${work.name}"` : "your todo list";
	const file = work.source === "plan" && input.planPath ? ` (${input.planPath})` : "";
	const next = work.next[0] ?? canonicalText(open[0]?.title ?? "");
	const resume = !work.orchestrate
		? ""
		: open.some((item) => subagentOf(work, item.title) !== "")
			? RESUME_ORCHESTRATOR_RESUME
			: RESUME_ORCHESTRATOR_DELEGATE;
	const progress = progressText(work);
	return {
		kind: "context",
		reason: "resume-context",
		detail: `the session ${CAME_BACK[input.how]} with ${progress} in ${name}; it was told where the work stands (next: "${next}")`,
		text: fillTemplate(RESUME_CONTEXT, {
			how: CAME_BACK[input.how],
			progress,
			name: `${name}${file}`,
			open: listed.join("\n"),
			next,
			resume,
		}),
	};
}

function subagentOf(work: WorkView, title: string): string {
	const session = work.orchestrate?.subagents[canonicalText(title)];
	return session ? ` — subagent session ${session}` : "";
}
