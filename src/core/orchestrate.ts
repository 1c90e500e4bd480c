/**
 * Orchestrate mode: a work whose bound session delegates the plan's items to
 * subagents. Three pure decisions live here: whether a file change the
 * orchestrator makes itself is let through, warned about or refused; which
 * plan item a returning subagent worked on; and the note that asks the
 * orchestrator to check that work before ticking the item. Subagents are never
 * restricted, and the plan file and boulder's own state are always the
 * orchestrator's to change.
 */
import type { Config } from "./config.js";
import type { PlanItem } from "./plan-body.js";
import { DELEGATED_VERIFY_NOTE, ORCHESTRATOR_EDIT_TEXT } from "./prompts/orchestrate.prompt.js";
import { fillTemplate } from "./template.js";
import { canonicalText, isOpen } from "./todos.js";

export interface FileChange {
	/** The tool's name as the harness calls it. */
	tool: string;
	/** The files it changes, relative to the worktree with `/` separators; a path outside it starts with `../` or is absolute. */
	files: readonly string[];
}

export interface OrchestrateFacts {
	/** The session's bound work is in orchestrate mode. */
	orchestrating: boolean;
	subagent: boolean;
	/** The work's name and plan file (relative to the worktree). */
	plan: { name: string; path: string } | null;
	/** boulder's own state folder, relative to the worktree: always the orchestrator's to change. */
	stateFolder: string;
}

export type ToolVerdict =
	| { kind: "allow"; reason: "not-orchestrating" | "subagent" | "exempt" | "edits-off" }
	| { kind: "warn" | "deny"; reason: "orchestrator-edit"; detail: string; text: string };

export function checkFileChange(
	change: FileChange,
	facts: OrchestrateFacts,
	policy: Config["orchestrate"]["edits"],
): ToolVerdict {
	if (!facts.orchestrating || facts.plan === null) return { kind: "allow", reason: "not-orchestrating" };
	if (facts.subagent) return { kind: "allow", reason: "subagent" };
	if (policy === "off") return { kind: "allow", reason: "edits-off" };
	const plan = facts.plan;
	const own = change.files.filter((file) => !isExempt(file, plan.path, facts.stateFolder));
	if (change.files.length > 0 && own.length === 0) return { kind: "allow", reason: "exempt" };
	const kind = policy === "deny" ? "deny" : "warn";
	const files = own.length > 0 ? own.map((file) => `\`${file}\``).join(", ") : "files";
	const what = kind === "deny" ? "boulder refused your change to" : "you changed";
	return {
		kind,
		reason: "orchestrator-edit",
		detail: `the orchestrator of "${plan.name}" ${kind === "deny" ? "was refused" : "was warned about"} changing ${own.length > 0 ? own.join(", ") : "files"} itself (${change.tool})`,
		text: fillTemplate(ORCHESTRATOR_EDIT_TEXT, { plan: plan.name, what, files }),
	};
}

function isExempt(file: string, planPath: string, stateFolder: string): boolean {
	const normal = file.replace(/^\.\//, "");
	return normal === planPath || normal === stateFolder || normal.startsWith(`${stateFolder}/`);
}

/**
 * The plan item a subagent worked on: the open item its task description
 * names (the longest title it contains, or that contains it), else the item
 * marked in progress, else the first open item. null when nothing is open.
 */
export function delegatedItem(items: readonly PlanItem[], description: string | null): PlanItem | null {
	const open = items.filter((item) => isOpen(item.status));
	if (open.length === 0) return null;
	const said = canonicalText(description ?? "").toLowerCase();
	if (said !== "") {
		const named = open
			.filter((item) => {
				const title = canonicalText(item.title).toLowerCase();
				return title !== "" && (said.includes(title) || title.includes(said));
			})
			.sort((a, b) => b.title.length - a.title.length)[0];
		if (named) return named;
	}
	return open.find((item) => item.status === "in_progress") ?? open[0] ?? null;
}

/** The key a plan item's subagent session is remembered under. */
export function itemKey(item: Pick<PlanItem, "title">): string {
	return canonicalText(item.title);
}

/** The note that rides on a subagent's result: the item, its acceptance criteria, and a request to check before ticking. */
export function delegatedVerifyNote(item: PlanItem, subagentSession: string | null): string {
	const open = item.criteria.filter((criterion) => !criterion.checked);
	const listed = item.criteria.length > 0 ? item.criteria : [];
	const criteria =
		listed.length > 0
			? `Its acceptance criteria${open.length < listed.length ? ` (${listed.length - open.length} of ${listed.length} ticked)` : ""}:\n${listed
					.map((criterion) => `- [${criterion.checked ? "x" : " "}] ${canonicalText(criterion.text)}`)
					.join("\n")}\n`
			: "";
	return fillTemplate(DELEGATED_VERIFY_NOTE, {
		session: subagentSession ? ` (subagent session ${subagentSession})` : "",
		item: canonicalText(item.title),
		criteria,
	});
}
