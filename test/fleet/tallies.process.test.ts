/**
 * The fleet view's read model against a real PostgreSQL: each work's and
 * session's tally (`boulder_tallies`) is kept in the statement that inserts
 * the decision rows, so it always equals what the rows add up to — whatever
 * is delivered again, in whatever order batches arrive, and after a shipper
 * lost its cursor and shipped a whole log again. A database of schema 1 is
 * brought to 2 with its tallies made from the rows it has, and its
 * snapshots (stored without summaries) still read.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { eventRecord } from "../../src/core/decision-record.js";
import { settingsFrom } from "../../src/fleet/config.js";
import { readFleet } from "../../src/fleet/read.js";
import { FLEET_SCHEMA_VERSION, INSERT_DECISIONS, migrate } from "../../src/fleet/schema.js";
import { runShipper } from "../../src/fleet/shipper.js";
import { fleetHome } from "../../src/state/fleet-files.js";
import { makeMachine, removeMachines } from "./support/machine.js";
import { type PgCluster, startPgCluster } from "./support/pg-cluster.js";

let cluster: PgCluster;

beforeAll(async () => {
	cluster = await startPgCluster();
});

afterAll(async () => {
	cluster?.destroy();
	await removeMachines();
});

async function client(name: string): Promise<pg.Client> {
	const db = new pg.Client({ connectionString: await cluster.database(name) });
	await db.connect();
	return db;
}

interface Rec {
	key: string;
	seq: number;
	kind: string;
	session: string | null;
	work: string | null;
	detail: string;
}

/** A batch as the shipper passes it to `INSERT_DECISIONS`. */
function params(machine: string, worktree: string, recs: Rec[]): unknown[] {
	return [
		machine,
		worktree,
		recs.map((r) => r.key),
		recs.map((r) => r.seq),
		recs.map((r) => 1_000 + r.seq),
		recs.map((r) => r.kind),
		recs.map((r) => (r.kind === "inject" ? "continue" : "duplicate")),
		recs.map(() => "claude-code"),
		recs.map((r) => r.session),
		recs.map((r) => r.work),
		recs.map((r) =>
			JSON.stringify({ v: 1, at: 1_000 + r.seq, kind: r.kind, detail: r.detail, session: r.session, work: r.work }),
		),
	];
}

/** What the rows add up to, per subject, computed here (not by the SQL under test). */
function expected(
	recs: Rec[],
): Record<string, { decisions: number; nudges: number; last_seq: number; last_detail: string }> {
	const out: Record<string, { decisions: number; nudges: number; last_seq: number; last_detail: string }> = {};
	for (const r of recs) {
		const subject = r.work ? `work:${r.work}` : r.session ? `session:claude-code:${r.session}` : "worktree";
		out[subject] ??= { decisions: 0, nudges: 0, last_seq: -1, last_detail: "" };
		const one = out[subject];
		one.decisions++;
		if (r.kind === "inject") one.nudges++;
		if (r.seq > one.last_seq) {
			one.last_seq = r.seq;
			one.last_detail = r.detail;
		}
	}
	return out;
}

async function tallies(db: pg.Client, machine: string): Promise<Record<string, unknown>> {
	const result = await db.query(
		"SELECT subject, decisions::int, nudges::int, last_seq::int, last_detail FROM boulder_tallies WHERE machine = $1",
		[machine],
	);
	return Object.fromEntries(
		result.rows.map((row) => [
			row.subject,
			{ decisions: row.decisions, nudges: row.nudges, last_seq: row.last_seq, last_detail: row.last_detail },
		]),
	);
}

describe("the tallies of decision rows", () => {
	it("equal what the rows add up to after redelivered, overlapping and out-of-order batches", async () => {
		const db = await client("tallies");
		await migrate(db);
		const recs: Rec[] = Array.from({ length: 60 }, (_, i) => ({
			key: `k${i}`,
			seq: i,
			kind: i % 3 === 0 ? "inject" : "skip",
			session: i % 4 === 3 ? null : `s${i % 2}`,
			work: i % 5 === 0 ? "ship-it" : null,
			detail: `decision ${i}`,
		}));
		// The newest batch first, then the oldest, then both again, then an overlap of all three.
		const batches = [recs.slice(40), recs.slice(0, 20), recs.slice(40), recs.slice(0, 20), recs.slice(10, 50)];
		for (const batch of batches) await db.query(INSERT_DECISIONS, params("m1", "wt1", batch));
		const rows = await db.query("SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'm1'");
		expect(rows.rows[0].n).toBe(60);
		expect(await tallies(db, "m1")).toEqual(expected(recs));
		// Delivering everything once more changes nothing.
		await db.query(INSERT_DECISIONS, params("m1", "wt1", recs));
		expect(await tallies(db, "m1")).toEqual(expected(recs));
		await db.end();
	});

	it("stay equal to the rows when a shipper that lost its cursor ships the whole log again", async () => {
		const url = await cluster.database("reship");
		const m = await makeMachine("reship-a", url);
		const root = await m.worktree("wt");
		const store = m.store(root);
		// A list session (its own todo list), so the fleet view shows it with its tally.
		const { openWorkspace } = await import("../../src/engine/open.js");
		const { engine } = await openWorkspace({ cwd: root, env: m.env });
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ content: "first thing", status: "completed" },
			{ content: "second thing", status: "pending" },
		]);
		for (let i = 0; i < 30; i++) {
			await store.appendDecision({
				...eventRecord({ at: 1_000 + i, worktree: root, reason: "user-turn", detail: `turn ${i}` }),
				kind: i % 2 ? "inject" : "skip",
				reason: "continue",
				session: "s1",
				harness: "claude-code",
				work: null,
			});
		}
		const settings = settingsFrom(m.env, null);
		await runShipper({ env: m.env, settings, lingerMs: 0, batch: 7 });
		const db = new pg.Client({ connectionString: url });
		await db.connect();
		onTestFinished(() => db.end());
		const before = await tallies(db, "reship-a");
		const shipped = await db.query("SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'reship-a'");
		expect(before["session:claude-code:s1"]).toMatchObject({ nudges: 15, last_detail: "turn 29" });
		await rm(path.join(fleetHome(m.env), "cursors"), { recursive: true, force: true });
		await runShipper({ env: m.env, settings, lingerMs: 0, batch: 7 });
		expect(await tallies(db, "reship-a")).toEqual(before);
		const count = await db.query("SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'reship-a'");
		expect(count.rows[0].n).toBe(shipped.rows[0].n);
		// The fleet view carries the tally beside the session.
		const report = await readFleet(db, { machine: "reship-a" }, Date.now());
		const session = report.machines[0]?.worktrees[0]?.sessions.find((s) => s.sessionId === "s1");
		expect(session?.tally).toMatchObject({
			decisions: (before["session:claude-code:s1"] as { decisions: number }).decisions,
			nudges: 15,
			last: { detail: "turn 29" },
		});
	});

	it("are made from the rows of a schema-1 database brought to 2, whose snapshots still read", async () => {
		const db = await client("from-one");
		await migrate(db, 1);
		const recs: Rec[] = Array.from({ length: 12 }, (_, i) => ({
			key: `k${i}`,
			seq: i,
			kind: i % 2 ? "inject" : "skip",
			session: "s9",
			work: null,
			detail: `old ${i}`,
		}));
		const p = params("old", "wt9", recs);
		await db.query(
			`INSERT INTO boulder_decisions (machine, worktree_id, rec_key, seq, at, kind, reason, harness, session, work, record)
			 SELECT $1, $2, k, s, a, kd, r, h, se, w, rec
			 FROM unnest($3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[])
			   AS t(k, s, a, kd, r, h, se, w, rec)`,
			p,
		);
		const view = {
			worktree: "/old",
			stopped: null,
			works: [],
			lastDecision: null,
			sessions: [
				{
					harness: "claude-code",
					sessionId: "s9",
					counts: { total: 2, open: 1, done: 1, blocked: 0, cancelled: 0 },
					next: "b",
					items: [],
					stoppedBy: null,
					lastDecision: null,
					lastActive: 5,
				},
			],
			problem: null,
			configProblem: null,
		};
		await db.query("INSERT INTO boulder_machines (machine) VALUES ('old')");
		await db.query(
			"INSERT INTO boulder_worktrees (machine, worktree_id, root, snapshot, snapshot_at) VALUES ('old', 'wt9', '/old', $1::jsonb, 5)",
			[JSON.stringify(view)],
		);
		expect(await migrate(db)).toEqual({ from: 1, to: FLEET_SCHEMA_VERSION });
		expect(await tallies(db, "old")).toEqual(expected(recs));
		const report = await readFleet(db, { state: "rolling" }, Date.now());
		expect(report.machines[0]?.worktrees[0]?.sessions[0]).toMatchObject({
			sessionId: "s9",
			state: "rolling",
			tally: { decisions: 12, nudges: 6 },
		});
		await db.end();
	});
});
