/**
 * What the faces show, read from the store: the decisions that explain a
 * session's (or the worktree's) last moves for `boulder why` and `/boulder
 * why`, and one session's own switch. One reading, so the CLI and every
 * harness command show the same lines.
 */
import type { DecisionRecord } from "../core/decision-record.js";
import { explainsDecisions } from "../core/event-reasons.js";
import { scopeKey } from "../core/scope-key.js";
import type { Todo } from "../core/todos.js";
import type { Store } from "../state/store.js";
import type { SessionRef } from "./engine-types.js";

/** Events are mixed in with the decisions; reading this many lines per wanted line leaves room for them. */
const LINES_READ_PER_SHOWN = 20;

export interface WhyQuery {
	/** How many lines to show. */
	lines: number;
	/** Only this harness session's lines. */
	session?: string;
}

/**
 * The last decisions, newest last, with the events that explain them (an
 * abort, a stop, a failed delivery) and without those that do not.
 */
export async function readWhy(store: Store, query: WhyQuery): Promise<DecisionRecord[]> {
	const shows = (record: DecisionRecord) => record.kind !== "event" || explainsDecisions(record.reason);
	let shown = 0;
	const read = await store.readDecisions({
		limit: Math.max(query.lines * LINES_READ_PER_SHOWN, 200),
		...(query.session !== undefined ? { session: query.session } : {}),
		// Read from the end: once the lines to show are found, older ones are never parsed.
		enough: (record) => shows(record) && ++shown >= query.lines,
	});
	return read.filter(shows).slice(-query.lines);
}

export interface SessionSwitch {
	/** Who turned continuation off for this session, or null when it is on. */
	stoppedBy: string | null;
}

/** Whether continuation is turned off for this one session (a subagent's is never on). */
export async function readSessionSwitch(store: Store, ref: SessionRef): Promise<SessionSwitch> {
	const scope = ref.subagent ? null : scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
	if (scope === null) return { stoppedBy: null };
	const state = await store.readScope(scope);
	return { stoppedBy: state.kind === "ok" ? (state.value.disabled?.by ?? null) : null };
}

/**
 * The agent's own list as boulder keeps it for a session (for harnesses
 * whose todo list is boulder's, like pi's `todo_read`); empty when none was
 * written, and for a subagent or an unreadable state file.
 */
export async function readSessionTodos(store: Store, ref: SessionRef): Promise<Todo[]> {
	const scope = ref.subagent ? null : scopeKey({ kind: "session", harness: ref.harness, sessionId: ref.sessionId });
	if (scope === null) return [];
	const state = await store.readScope(scope);
	return state.kind === "ok" ? (state.value.todos ?? []) : [];
}
