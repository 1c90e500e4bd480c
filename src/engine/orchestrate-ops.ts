/**
 * Orchestrate mode, as the engine carries it out: a file change the bound
 * session is about to make is checked against the policy (`core/orchestrate.ts`)
 * and a refusal or warning is logged; a subagent that returns is matched to
 * the plan item it worked on, its session is remembered for that item in the
 * works file, and the verification note for the orchestrator is returned.
 *
 * Contract: reads and writes through the `Store`; the adapter only delivers
 * the text (a deny reason, context on a tool result).
 */
import path from "node:path";
import { eventRecord } from "../core/decision-record.js";
import {
	checkFileChange,
	delegatedItem,
	delegatedVerifyNote,
	type FileChange,
	itemKey,
	type ToolVerdict,
} from "../core/orchestrate.js";
import { scopeKey } from "../core/scope-key.js";
import { STATE_DIR_NAME } from "../state/file-store.js";
import type { SessionRef } from "./engine-types.js";
import { readWorkContext, type WorkContext, type WorkContextDeps } from "./work-context.js";

/** What a returning subagent did, as the adapter read it from the harness. */
export interface SubagentResult {
	/** The subagent's own session (Claude Code's agent id, OpenCode's child session id), when the harness says. */
	session: string | null;
	/** The task's description or prompt: which item it was about. */
	description: string | null;
}

export async function checkToolChange(
	deps: WorkContextDeps,
	ref: SessionRef,
	change: FileChange,
	read?: WorkContext,
): Promise<ToolVerdict> {
	if (ref.subagent) return { kind: "allow", reason: "subagent" };
	const context = read ?? (await readWorkContext(deps, ref));
	const work = context.work;
	const orchestrating = context.view?.orchestrate !== undefined;
	const files = change.files.map((file) => relativeTo(deps.store.worktree, file));
	const verdict = checkFileChange(
		{ tool: change.tool, files },
		{
			orchestrating,
			subagent: false,
			plan: work ? { name: work.name, path: work.planPath } : null,
			stateFolder: STATE_DIR_NAME,
		},
		deps.config.orchestrate.edits,
	);
	if (verdict.kind !== "allow") {
		await deps.store.appendDecision(
			eventRecord({
				at: deps.clock.now(),
				worktree: deps.store.worktree,
				scope: scopeOf(ref),
				harness: ref.harness,
				session: ref.sessionId,
				reason: verdict.kind === "deny" ? "orchestrator-edit-denied" : "orchestrator-edit-warned",
				detail: verdict.detail,
				work: work?.id ?? null,
			}),
		);
	}
	return verdict;
}

/**
 * The note for the orchestrator when one of its subagents returned, or null
 * when the session is not orchestrating a plan with an open item. Remembers
 * the subagent's session for the item, so a later nudge can name it.
 */
export async function subagentReturned(
	deps: WorkContextDeps,
	ref: SessionRef,
	result: SubagentResult,
): Promise<string | null> {
	if (ref.subagent) return null;
	const context = await readWorkContext(deps, ref);
	const work = context.work;
	if (!work || !context.view?.orchestrate || !context.items) return null;
	const item = delegatedItem(context.items, result.description);
	if (!item) return null;
	const key = itemKey(item);
	if (result.session !== null && work.subagentSessions[key] !== result.session) {
		const session = result.session;
		await deps.store.updateWorks((current) => {
			const file = current.kind === "ok" ? current.value : null;
			const live = file?.works[work.id];
			if (!file || !live) return { result: undefined, next: null };
			const updated = { ...live, subagentSessions: { ...live.subagentSessions, [key]: session } };
			return { result: undefined, next: { ...file, works: { ...file.works, [work.id]: updated } } };
		});
	}
	await deps.store.appendDecision(
		eventRecord({
			at: deps.clock.now(),
			worktree: deps.store.worktree,
			scope: scopeOf(ref),
			harness: ref.harness,
			session: ref.sessionId,
			reason: "subagent-returned",
			detail: `a subagent${result.session ? ` (session ${result.session})` : ""} returned from "${key}"; the orchestrator was asked to check its work before ticking the item`,
			work: work.id,
		}),
	);
	return delegatedVerifyNote(item, result.session);
}

/** A path as the plan and the exemptions name it: relative to the worktree, with `/` separators. */
function relativeTo(worktree: string, file: string): string {
	const relative = path.relative(worktree, path.resolve(worktree, file));
	return relative.split(path.sep).join("/");
}

function scopeOf(ref: SessionRef): string | null {
	return scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
}
