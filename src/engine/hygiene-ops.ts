/**
 * A file change the session is about to make, as the engine carries it out:
 * orchestrate mode's verdict on it (`orchestrate-ops.ts`), and, for a change
 * that will run, todo hygiene's count (`core/hygiene.ts`) kept in the
 * scope's tally, with the reminder logged when it is due. One read of the
 * works and the plan serves both: Claude Code pays for this in a process per
 * edit.
 *
 * Contract: reads and writes through the `Store`; the adapter only delivers
 * the text (a deny reason, context on the tool's result).
 */
import path from "node:path";
import { eventRecord } from "../core/decision-record.js";
import { changeMark, type HygieneReminder, onFileChange } from "../core/hygiene.js";
import type { FileChange, ToolVerdict } from "../core/orchestrate.js";
import { scopeKey } from "../core/scope-key.js";
import { todosView } from "../core/work-view.js";
import { STATE_DIR_NAME } from "../state/file-store.js";
import type { SessionRef } from "./engine-types.js";
import { checkToolChange } from "./orchestrate-ops.js";
import { readWorkContext, type WorkContext, type WorkContextDeps } from "./work-context.js";

export interface FileChangeAnswer {
	verdict: ToolVerdict;
	/** The todo hygiene reminder to ride on the tool's result, when one is due. */
	reminder: string | null;
}

export async function fileChangeAsked(
	deps: WorkContextDeps,
	ref: SessionRef,
	change: FileChange,
): Promise<FileChangeAnswer> {
	if (ref.subagent) return { verdict: { kind: "allow", reason: "subagent" }, reminder: null };
	const context = await readWorkContext(deps, ref);
	const verdict = await checkToolChange(deps, ref, change, context);
	if (verdict.kind === "deny") return { verdict, reminder: null };
	return { verdict, reminder: await countChange(deps, ref, change, context) };
}

/**
 * Marks the change in the scope's tally and returns the reminder when it is
 * due. Not counted: a session with the reminder off, a switch off (boulder
 * is not to speak), a work bound to another session, a plan that cannot be
 * read, a record that cannot be read (the idle decision's to report), a
 * list with nothing open.
 *
 * The tally takes no lock and rewrites nothing (`Store.tally`), and the
 * session's record is only read: a file change is a hook process each, and
 * none of them pays for a durable write.
 */
async function countChange(
	deps: WorkContextDeps,
	ref: SessionRef,
	change: FileChange,
	context: WorkContext,
): Promise<string | null> {
	const threshold = deps.config.hygiene.editsBeforeReminder || 0;
	if (threshold === 0 || !deps.config.enabled) return null;
	const { facts, work } = context;
	if (facts.switchedOff || facts.boundElsewhere || facts.planUnusable) return null;
	const scope = scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
	if (scope === null) return null;
	const seen = await deps.store.readScope(scope);
	if (seen.kind === "unreadable" || (seen.kind === "ok" && seen.value.disabled)) return null;
	const todos = seen.kind === "ok" ? seen.value.todos : null;
	const list = work ? context.view : todos ? todosView(todos, deps.config.nextItems) : null;
	// Nothing open, nothing to remind of: nothing counted (a list that gains an item starts a new stretch anyway).
	if (list === null || list.counts.open === 0) return null;
	const planPath = work?.planPath;
	const keepsList =
		planPath !== undefined &&
		change.files.length > 0 &&
		change.files.every((file) => isList(deps.store.worktree, file, planPath));
	const { marks } = await deps.store.tally(scope, changeMark(list, keepsList), threshold + 1);
	const reminder = onFileChange(marks, { list, ...(planPath ? { planPath } : {}) }, threshold);
	if (reminder === null) return null;
	await logReminder(deps, ref, scope, work?.id ?? null, reminder);
	return reminder.text;
}

async function logReminder(
	deps: WorkContextDeps,
	ref: SessionRef,
	scope: string,
	work: string | null,
	reminder: HygieneReminder,
): Promise<void> {
	await deps.store.appendDecision(
		eventRecord({
			at: deps.clock.now(),
			worktree: deps.store.worktree,
			scope,
			harness: ref.harness,
			session: ref.sessionId,
			reason: "todo-reminder",
			detail: reminder.detail,
			work,
		}),
	);
}

/** The plan file itself, or boulder's state folder: changing them is keeping the list. */
function isList(worktree: string, file: string, planPath: string): boolean {
	const relative = path.relative(worktree, path.resolve(worktree, file)).split(path.sep).join("/");
	return relative === planPath || relative === STATE_DIR_NAME || relative.startsWith(`${STATE_DIR_NAME}/`);
}
