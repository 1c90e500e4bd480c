/**
 * The fleet's tables, versioned like the state files: one row in
 * `boulder_schema` says the version; each step below brings a database one
 * version forward, in a transaction under an advisory lock (two shippers
 * starting at once migrate once). A database of a newer version is refused,
 * clearly, and left untouched.
 */
import type { Client } from "pg";
import { BoulderError } from "../core/errors.js";

export const FLEET_SCHEMA_VERSION = 1;

/** The advisory lock migrations hold ("boul"). */
const MIGRATION_LOCK = 0x626f756c;

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

/** Contract: throws `fleet-schema-newer` for a newer database; changes nothing then. */
export async function migrate(client: Client, target = FLEET_SCHEMA_VERSION): Promise<{ from: number; to: number }> {
	await client.query("BEGIN");
	try {
		await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
		await client.query(
			"CREATE TABLE IF NOT EXISTS boulder_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL)",
		);
		const from = await schemaVersion(client);
		if (from > FLEET_SCHEMA_VERSION) {
			throw new BoulderError(
				"fleet-schema-newer",
				`the fleet's database has schema version ${from}, newer than this boulder knows (${FLEET_SCHEMA_VERSION}): upgrade boulder on this machine; nothing was shipped or changed`,
			);
		}
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
