/** Progress as people read it: "3/7 done, 1 blocked". */
import type { PlanProgress } from "../../engine/status.js";

export function progressText(progress: PlanProgress): string {
	const parts = [`${progress.done}/${progress.total} done`];
	if (progress.blocked > 0) parts.push(`${progress.blocked} blocked`);
	if (progress.cancelled > 0) parts.push(`${progress.cancelled} cancelled`);
	return parts.join(", ");
}

/** Long harness session ids are cut for reading; `--json` keeps them whole. */
export function sessionLabel(session: { harness: string; sessionId: string }): string {
	const id = session.sessionId.length > 12 ? `${session.sessionId.slice(0, 8)}…` : session.sessionId;
	return `${session.harness}:${id}`;
}
