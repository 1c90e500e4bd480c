/**
 * A background subagent's end, as Claude Code 2.1.332 brings it to the parent:
 * a turn of its own whose prompt (UserPromptSubmit, no `source`) is a
 * `<task-notification>` block (seen):
 *
 *   <task-notification>
 *   <task-id>AGENT_ID</task-id>
 *   <tool-use-id>…</tool-use-id>
 *   <output-file>…</output-file>
 *   <status>completed</status>
 *   <summary>Agent "DESCRIPTION" finished</summary>
 *   <result>…</result>
 *   …
 *   </task-notification>
 *
 * The Agent tool's own result was only the launch (`async_launched`), so this
 * is where orchestrate mode's verification note can ride. Only a subagent's
 * notification is read (its summary begins `Agent "`); a background shell's is
 * not a subagent's return.
 */

export interface SubagentNotification {
	/** The subagent's agent id (its session). */
	agentId: string | null;
	/** The Agent call's description, from the summary. */
	description: string;
	status: string | null;
}

const BLOCK = /^\s*<task-notification>([\s\S]*?)(<\/task-notification>|$)/;
const SUMMARY = /<summary>\s*Agent\s+"([\s\S]*?)"[^<]*<\/summary>/;

/** The subagent a `<task-notification>` prompt reports, or null for any other prompt. */
export function subagentNotificationOf(prompt: string | null): SubagentNotification | null {
	if (prompt === null) return null;
	const block = BLOCK.exec(prompt)?.[1];
	if (block === undefined) return null;
	const description = SUMMARY.exec(block)?.[1]?.trim();
	if (!description) return null;
	return { agentId: tag(block, "task-id"), description, status: tag(block, "status") };
}

function tag(block: string, name: string): string | null {
	const value = new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1]?.trim();
	return value ? value : null;
}
