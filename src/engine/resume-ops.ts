/**
 * Resume context, as the engine carries it out: when a session comes back
 * (resumed, compacted, restarted), the policy (`core/resume.ts`) says whether
 * it gets told where its work stands, and what; the context is logged as an
 * event line. Nothing is written to the session's continuation state: it is
 * not a turn, not a nudge, and spends no budget. A session that is not bound
 * to the work yet is not bound by coming back: only its first idle binds.
 *
 * Contract: reads through the `Store`, appends one decision-log line when
 * context is given; the adapter only delivers the text.
 */
import { eventRecord } from "../core/decision-record.js";
import { type ResumeHow, resumeContext } from "../core/resume.js";
import { scopeKey } from "../core/scope-key.js";
import { emptyContinuationState } from "../core/turns.js";
import { todosView } from "../core/work-view.js";
import type { SessionRef } from "./engine-types.js";
import { readWorkContext, type WorkContextDeps } from "./work-context.js";

/** The context for a session that came back to unfinished work, or null when it gets none. */
export async function resumeContextFor(deps: WorkContextDeps, ref: SessionRef, how: ResumeHow): Promise<string | null> {
	if (ref.subagent) return null;
	const scope = scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
	if (scope === null) return null;
	const context = await readWorkContext(deps, ref, { bind: false });
	const read = await deps.store.readScope(scope);
	// An unreadable state fails closed: its session is not told anything until the user writes again.
	if (read.kind === "unreadable") return null;
	const state = read.kind === "ok" ? read.value : emptyContinuationState();
	const todos = state.todos ?? [];
	const plan = context.work !== null;
	const verdict = resumeContext({
		how,
		state,
		work: plan ? context.view : todosView(todos, deps.config.nextItems),
		items: plan ? (context.items ?? []) : todos.map((todo) => ({ title: todo.content, status: todo.status })),
		planPath: context.work?.planPath ?? null,
		facts: { ...context.facts, subagent: false, agent: ref.agent ?? state.observed.agent },
		config: deps.config,
	});
	if (verdict.kind === "none") return null;
	await deps.store.appendDecision(
		eventRecord({
			at: deps.clock.now(),
			worktree: deps.store.worktree,
			scope,
			harness: ref.harness,
			session: ref.sessionId,
			reason: verdict.reason,
			detail: verdict.detail,
			work: context.work?.id ?? null,
		}),
	);
	return verdict.text;
}
