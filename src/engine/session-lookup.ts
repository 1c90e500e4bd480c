/**
 * Which session a person means by the id they typed (`--session sess-bbb`):
 * the sessions boulder has seen in this worktree (a state file, a work's
 * session list, the recent decision log), matched exactly or by a unique
 * prefix. An id that names none, or more than one, is refused with the
 * candidates, so a command never acts on (or creates state for) a session
 * boulder has not seen.
 */
import { BoulderError } from "../core/errors.js";
import { sessionOfScopeKey } from "../core/scope-key.js";
import type { Store } from "../state/store.js";

export interface KnownSession {
	harness: string;
	sessionId: string;
}

/** How many of the newest log lines are read for sessions that left no state file. */
const LOG_LINES_READ = 2000;
/** How many candidates a refusal lists. */
const LISTED = 10;

/**
 * Every session boulder has seen here, once each, in a stable order. Without
 * `log`, only those with a state file or in a work's session list (no log read).
 */
export async function knownSessions(store: Store, options: { log?: boolean } = {}): Promise<KnownSession[]> {
	const seen = new Map<string, KnownSession>();
	const add = (harness: string | null | undefined, sessionId: string | null | undefined) => {
		if (!harness || !sessionId) return;
		const key = `${harness}\u0000${sessionId}`;
		if (!seen.has(key)) seen.set(key, { harness, sessionId });
	};
	for (const key of (await store.scopeKeys?.()) ?? []) {
		const session = sessionOfScopeKey(key);
		if (session) add(session.harness, session.sessionId);
	}
	const works = await (store.peekWorks ? store.peekWorks() : store.readWorks());
	if (works.kind === "ok") {
		for (const work of Object.values(works.value.works)) {
			for (const session of work.sessions) add(session.harness, session.sessionId);
		}
	}
	if (options.log !== false) {
		for (const record of await store.readDecisions({ limit: LOG_LINES_READ })) add(record.harness, record.session);
	}
	return [...seen.values()].sort(
		(a, b) => a.harness.localeCompare(b.harness) || a.sessionId.localeCompare(b.sessionId),
	);
}

export type SessionMatch =
	| { kind: "found"; session: KnownSession }
	| { kind: "ambiguous"; candidates: KnownSession[] }
	| { kind: "unknown"; candidates: KnownSession[] };

/** Pure: an exact id wins; otherwise a prefix that only one session's id starts with. */
export function matchSession(known: readonly KnownSession[], sessionId: string, harness?: string): SessionMatch {
	const pool = harness === undefined ? known : known.filter((session) => session.harness === harness);
	const exact = pool.filter((session) => session.sessionId === sessionId);
	if (exact.length === 1 && exact[0]) return { kind: "found", session: exact[0] };
	if (exact.length > 1) return { kind: "ambiguous", candidates: exact };
	const prefixed = sessionId === "" ? [] : pool.filter((session) => session.sessionId.startsWith(sessionId));
	if (prefixed.length === 1 && prefixed[0]) return { kind: "found", session: prefixed[0] };
	if (prefixed.length > 1) return { kind: "ambiguous", candidates: prefixed };
	return { kind: "unknown", candidates: [...pool] };
}

/**
 * The session `sessionId` (an id or a unique prefix of one) names here.
 * Contract: throws `BoulderError("usage")` (exit 2) naming the candidates
 * when it names none or several.
 */
export async function resolveSession(
	store: Store,
	sessionId: string,
	harness?: string,
	options: { anyHarness?: boolean } = {},
): Promise<KnownSession> {
	// The state files and works name almost every session; the log is read only when they do not.
	const quick = matchSession(await knownSessions(store, { log: false }), sessionId, harness);
	if (quick.kind === "found" && quick.session.sessionId === sessionId) return quick.session;
	const match = matchSession(await knownSessions(store), sessionId, harness);
	if (match.kind === "found") return match.session;
	const whose = harness ? `${harness} session` : "session";
	if (match.kind === "ambiguous") {
		const [first] = match.candidates;
		const oneId = first !== undefined && match.candidates.every((c) => c.sessionId === first.sessionId);
		// One id in several harnesses: a command that reads by id alone (`why`) means all of them.
		if (oneId && options.anyHarness) return first;
		throw new BoulderError(
			"usage",
			`--session ${JSON.stringify(sessionId)} names ${match.candidates.length} ${whose}s: ${listed(match.candidates)}; ${oneId ? "add --harness" : "give more of the id"}`,
		);
	}
	throw new BoulderError(
		"usage",
		match.candidates.length === 0
			? `--session ${JSON.stringify(sessionId)}: boulder has seen no ${whose} in ${store.worktree}; nothing changed`
			: `--session ${JSON.stringify(sessionId)}: no ${whose} boulder has seen in ${store.worktree} has that id; nothing changed. Known: ${listed(match.candidates)}`,
	);
}

function listed(sessions: readonly KnownSession[]): string {
	const shown = sessions.slice(0, LISTED).map((session) => `${session.sessionId} (${session.harness})`);
	const more = sessions.length - shown.length;
	return `${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}
