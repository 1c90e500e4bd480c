/**
 * A background subagent's end, as Claude Code brings it to the parent: a turn
 * whose prompt is a `<task-notification>` block (docs/claude-code-notes.md).
 * The Agent tool's result was only the launch, so orchestrate mode's note
 * rides here. Only a subagent's is read (its summary begins `Agent "`), not a
 * background shell's.
 */

export interface SubagentNotification {
	/** Its session. */
	agentId: string | null;
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
