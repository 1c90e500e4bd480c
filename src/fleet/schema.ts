/**
 * The fleet's tables, versioned like the state files: one row in
 * `boulder_schema` says the version; each step below brings a database one
 * version forward, in a transaction under an advisory lock (two shippers
 * starting at once migrate once). A database of a newer version is refused,
 * clearly, and left untouched.
 */
import type { Client } from "pg";
import { BoulderError } from "../core/errors.js";

export const FLEET_SCHEMA_VERSION = 2;

/** The advisory lock migrations hold ("boul"). */
const MIGRATION_LOCK = 0x626f756c;

/**
 * What a decision row tallies under: its work when it has one, else its
 * session (a list session), else the worktree. `summary.ts` names the same
 * subjects (`workSubject`, `sessionSubject`).
 */
const SUBJECT = `CASE WHEN work IS NOT NULL THEN 'work:' || work
	WHEN session IS NOT NULL THEN 'session:' || coalesce(harness, '') || ':' || session
	ELSE 'worktree' END`;

/** From decision rows named `src` (the table, or the rows a statement just inserted): the tallies they add up to. */
function talliesOf(src: string): string {
	return `s AS (
	SELECT machine, worktree_id, ${SUBJECT} AS subject, seq, at, kind, reason, left(record->>'detail', 240) AS detail FROM ${src}
), agg AS (
	SELECT machine, worktree_id, subject, count(*) AS decisions, count(*) FILTER (WHERE kind = 'inject') AS nudges FROM s GROUP BY 1, 2, 3
), latest AS (
	SELECT DISTINCT ON (machine, worktree_id, subject) machine, worktree_id, subject, seq, at, kind, reason, detail
	FROM s ORDER BY machine, worktree_id, subject, seq DESC
)
INSERT INTO boulder_tallies (machine, worktree_id, subject, decisions, nudges, last_seq, last_at, last_kind, last_reason, last_detail)
SELECT agg.machine, agg.worktree_id, agg.subject, agg.decisions, agg.nudges, latest.seq, latest.at, latest.kind, latest.reason, latest.detail
FROM agg JOIN latest USING (machine, worktree_id, subject)`;
}

/** Every tally again from the decision rows (the migration to 2; benches that fill the table by hand). */
export const REBUILD_TALLIES = `DELETE FROM boulder_tallies;
WITH ${talliesOf("boulder_decisions")};`;

/**
 * Inserts decision rows (parameters as `shipper.ts` passes them) and adds
 * only the rows it inserted to their tallies, in one statement: a row
 * delivered again is not inserted, so it is not counted again; the latest
 * is the highest sequence, whatever order batches arrive in.
 */
export const INSERT_DECISIONS = `WITH ins AS (
	INSERT INTO boulder_decisions (machine, worktree_id, rec_key, seq, at, kind, reason, harness, session, work, record)
	SELECT $1, $2, k, s, a, kd, r, h, se, w, rec
	FROM unnest($3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[])
	  AS t(k, s, a, kd, r, h, se, w, rec)
	ON CONFLICT DO NOTHING
	RETURNING machine, worktree_id, seq, at, kind, reason, harness, session, work, record
), ${talliesOf("ins")}
ON CONFLICT (machine, worktree_id, subject) DO UPDATE SET
	decisions = boulder_tallies.decisions + EXCLUDED.decisions,
	nudges = boulder_tallies.nudges + EXCLUDED.nudges,
	last_seq = greatest(boulder_tallies.last_seq, EXCLUDED.last_seq),
	last_at = CASE WHEN EXCLUDED.last_seq > boulder_tallies.last_seq THEN EXCLUDED.last_at ELSE boulder_tallies.last_at END,
	last_kind = CASE WHEN EXCLUDED.last_seq > boulder_tallies.last_seq THEN EXCLUDED.last_kind ELSE boulder_tallies.last_kind END,
	last_reason = CASE WHEN EXCLUDED.last_seq > boulder_tallies.last_seq THEN EXCLUDED.last_reason ELSE boulder_tallies.last_reason END,
	last_detail = CASE WHEN EXCLUDED.last_seq > boulder_tallies.last_seq THEN EXCLUDED.last_detail ELSE boulder_tallies.last_detail END`;

/** Step n brings version n-1 to n (index 0: from nothing to 1). */
export const MIGRATIONS: readonly string[] = [
	`
CREATE TABLE boulder_machines (
	machine text PRIMARY KEY,
	first_seen timestamptz NOT NULL DEFAULT now(),
	last_seen timestamptz NOT NULL DEFAULT now(),
	boulder_version text
);
CREATE TABLE boulder_worktrees (
	machine text NOT NULL,
	worktree_id text NOT NULL,
	root text NOT NULL,
	snapshot jsonb NOT NULL,
	snapshot_at bigint NOT NULL,
	shipped_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (machine, worktree_id)
);
CREATE TABLE boulder_decisions (
	machine text NOT NULL,
	worktree_id text NOT NULL,
	rec_key text NOT NULL,
	seq bigint NOT NULL,
	at bigint NOT NULL,
	kind text NOT NULL,
	reason text NOT NULL,
	harness text,
	session text,
	work text,
	record jsonb NOT NULL,
	shipped_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (machine, worktree_id, rec_key)
);
CREATE INDEX boulder_decisions_order ON boulder_decisions (machine, worktree_id, seq);
CREATE INDEX boulder_decisions_session ON boulder_decisions (session, at DESC);
CREATE TABLE boulder_commands (
	id bigserial PRIMARY KEY,
	machine text NOT NULL,
	action text NOT NULL CHECK (action IN ('stop', 'go', 'pause', 'resume')),
	target_kind text NOT NULL CHECK (target_kind IN ('machine', 'worktree', 'session', 'work')),
	target text,
	harness text,
	from_machine text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	expires_at timestamptz,
	state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'applied', 'failed', 'expired')),
	applied_at timestamptz,
	result text
);
CREATE INDEX boulder_commands_pending ON boulder_commands (machine, id) WHERE state = 'pending';
`,
	// 2: the read model. Each worktree's row also holds its summary (what the
	// fleet-wide view shows) and the states and harnesses in it, so the view
	// reads and filters small rows; `boulder_tallies` is the current state of
	// each work and list session from its decision rows, kept up to date in
	// the statement that inserts them.
	`
ALTER TABLE boulder_worktrees
	ADD COLUMN summary jsonb,
	ADD COLUMN states text[] NOT NULL DEFAULT '{}',
	ADD COLUMN harnesses text[] NOT NULL DEFAULT '{}';
CREATE TABLE boulder_tallies (
	machine text NOT NULL,
	worktree_id text NOT NULL,
	subject text NOT NULL,
	decisions bigint NOT NULL,
	nudges bigint NOT NULL,
	last_seq bigint NOT NULL,
	last_at bigint NOT NULL,
	last_kind text NOT NULL,
	last_reason text NOT NULL,
	last_detail text NOT NULL,
	PRIMARY KEY (machine, worktree_id, subject)
);
${REBUILD_TALLIES}
`,
];

/** Reads the version without changing anything; 0 for a database boulder never set up. */
export async function schemaVersion(client: Client): Promise<number> {
	const exists = await client.query<{ present: boolean }>(
		"SELECT to_regclass('boulder_schema') IS NOT NULL AS present",
	);
	if (!exists.rows[0]?.present) return 0;
	const row = await client.query<{ version: number }>("SELECT version FROM boulder_schema");
	return row.rows[0]?.version ?? 0;
}

function newer(from: number): BoulderError {
	return new BoulderError(
		"fleet-schema-newer",
		`the fleet's database has schema version ${from}, newer than this boulder knows (${FLEET_SCHEMA_VERSION}): upgrade boulder on this machine; nothing was shipped or changed`,
	);
}

/** The version in one round trip, null when the table is not there (or cannot be read: the locked path finds out). */
async function quickVersion(client: Client): Promise<number | null> {
	try {
		const row = await client.query<{ version: number }>("SELECT version FROM boulder_schema");
		return row.rows[0]?.version ?? null;
	} catch {
		return null;
	}
}

/** Contract: throws `fleet-schema-newer` for a newer database; changes nothing then. */
export async function migrate(client: Client, target = FLEET_SCHEMA_VERSION): Promise<{ from: number; to: number }> {
	// Every connection migrates: most find the database current, in one query and no lock.
	const seen = target === FLEET_SCHEMA_VERSION ? await quickVersion(client) : null;
	if (seen !== null && seen > FLEET_SCHEMA_VERSION) throw newer(seen);
	if (seen === FLEET_SCHEMA_VERSION) return { from: seen, to: seen };
	await client.query("BEGIN");
	try {
		await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
		await client.query(
			"CREATE TABLE IF NOT EXISTS boulder_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL)",
		);
		const from = await schemaVersion(client);
		if (from > FLEET_SCHEMA_VERSION) throw newer(from);
		for (let version = from + 1; version <= target; version++) {
			await client.query(MIGRATIONS[version - 1] as string);
		}
		if (target > from) {
			await client.query(
				"INSERT INTO boulder_schema (singleton, version) VALUES (true, $1) ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version",
				[target],
			);
		}
		await client.query("COMMIT");
		return { from, to: Math.max(from, target) };
	} catch (error) {
		await client.query("ROLLBACK").catch(() => {});
		throw error;
	}
}
