/**
 * The shipper behind a misbehaving network: a loopback proxy between it and
 * a real PostgreSQL resets every connection mid-run, or stalls them (holds
 * every byte) for a while. After catch-up, every record is exactly one row
 * and the tallies equal the rows; while the network stalls, a hook's
 * decisions are still made and logged (the hook never waits on it).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventRecord } from "../../src/core/decision-record.js";
import { settingsFrom } from "../../src/fleet/config.js";
import { readBacklog, runShipper } from "../../src/fleet/shipper.js";
import { type FlakyProxy, startFlakyProxy } from "./support/flaky-proxy.js";
import { type Machine, makeMachine, removeMachines } from "./support/machine.js";
import { type PgCluster, startPgCluster } from "./support/pg-cluster.js";

let cluster: PgCluster;
let proxy: FlakyProxy;
let admin: pg.Client;

beforeAll(async () => {
	cluster = await startPgCluster();
	proxy = await startFlakyProxy({ port: cluster.port });
	admin = new pg.Client({ connectionString: cluster.url });
	await admin.connect();
});

afterAll(async () => {
	await admin?.end();
	await proxy?.close();
	cluster?.destroy();
	await removeMachines();
});

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`still not ${what} after ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** Rows, distinct keys, and whether every tally equals what its rows add up to. */
async function exactness(machine: string): Promise<{ rows: number; distinct: number; talliesOff: number }> {
	const counts = await admin.query(
		"SELECT count(*)::int AS rows, count(DISTINCT rec_key)::int AS distinct FROM boulder_decisions WHERE machine = $1",
		[machine],
	);
	const off = await admin.query(
		`SELECT count(*)::int AS n FROM (
		   SELECT subject, count(*) AS decisions, max(seq) AS last_seq FROM (
		     SELECT seq, CASE WHEN work IS NOT NULL THEN 'work:' || work
		       WHEN session IS NOT NULL THEN 'session:' || coalesce(harness, '') || ':' || session ELSE 'worktree' END AS subject
		     FROM boulder_decisions WHERE machine = $1) d GROUP BY subject) rows
		 FULL JOIN (SELECT subject, decisions, last_seq FROM boulder_tallies WHERE machine = $1) t USING (subject)
		 WHERE rows.decisions IS DISTINCT FROM t.decisions OR rows.last_seq IS DISTINCT FROM t.last_seq`,
		[machine],
	);
	return { rows: counts.rows[0].rows, distinct: counts.rows[0].distinct, talliesOff: off.rows[0].n };
}

async function through(name: string, extra: NodeJS.ProcessEnv = {}): Promise<{ m: Machine; root: string }> {
	const m = await makeMachine(name, proxy.url(cluster.url), extra);
	const root = await m.worktree("wt");
	return { m, root };
}

describe("the shipper behind a flaky network", () => {
	it("loses and doubles nothing when every connection is reset mid-run", async () => {
		proxy.set("pass");
		const { m, root } = await through("drop-a");
		await m.log(root, 150);
		const settings = settingsFrom(m.env, null);
		let batches = 0;
		// Reset everything after the third batch is inserted and before its cursor moves.
		const cut = runShipper({
			env: m.env,
			settings,
			lingerMs: 0,
			batch: 20,
			afterInsert: () => {
				if (++batches === 3) proxy.set("drop");
			},
		});
		await expect(cut).rejects.toMatchObject({ code: expect.stringMatching(/fleet-unreachable|ECONNRESET|57P01/) });
		const half = await exactness("drop-a");
		expect(half.rows).toBeGreaterThanOrEqual(60);
		expect((await readBacklog(m.env)).total).toBeGreaterThan(0);
		// While it drops, a shipper fails at once (and backs off), shipping nothing.
		await expect(runShipper({ env: m.env, settings, lingerMs: 0 })).rejects.toMatchObject({
			code: "fleet-unreachable",
		});
		proxy.set("pass");
		await runShipper({ env: m.env, settings, lingerMs: 0, batch: 20 });
		expect((await readBacklog(m.env)).total).toBe(0);
		const after = await exactness("drop-a");
		expect(after.rows).toBe(after.distinct);
		expect(after.rows).toBeGreaterThanOrEqual(150);
		expect(after.talliesOff).toBe(0);
	});

	it("loses and doubles nothing when the connections stall and then flow again", async () => {
		proxy.set("pass");
		const { m, root } = await through("stall-a");
		await m.log(root, 80);
		proxy.set("stall");
		const settings = settingsFrom(m.env, null);
		const shipping = runShipper({ env: m.env, settings, lingerMs: 0, batch: 20 });
		await until("stalled", () => proxy.stats.stalledChunks > 0);
		await m.log(root, 40);
		proxy.set("pass");
		await shipping;
		await runShipper({ env: m.env, settings, lingerMs: 0 });
		expect((await readBacklog(m.env)).total).toBe(0);
		const after = await exactness("stall-a");
		expect(after.rows).toBe(after.distinct);
		expect(after.rows).toBeGreaterThanOrEqual(120);
		expect(after.talliesOff).toBe(0);
	});

	it("never makes the hook wait: decisions are logged while its shipper is stuck on a stalled network", {
		timeout: 90_000,
	}, async () => {
		proxy.set("pass");
		const { m, root } = await through("hook-a", { BOULDER_FLEET_AUTOSHIP: "on", BOULDER_FLEET_LINGER_MS: "500" });
		proxy.set("stall");
		const { openState } = await import("../../src/engine/open.js");
		const { store } = await openState({ cwd: root, env: m.env });
		const record = (detail: string) => eventRecord({ at: Date.now(), worktree: root, reason: "user-turn", detail });
		await store.appendDecision(record("first"));
		// The hook's store started a detached shipper, now stuck: the proxy holds its bytes.
		const before = proxy.stats.accepted;
		await until("connected through the stalled proxy", () => proxy.stats.accepted > before || proxy.open() > 0);
		await until("stalled", () => proxy.stats.stalledChunks > 0);
		for (let i = 0; i < 20; i++) await store.appendDecision(record(`while stalled ${i}`));
		expect(proxy.mode).toBe("stall");
		const waiting = (await readBacklog(m.env)).total;
		expect(waiting).toBeGreaterThanOrEqual(21);
		proxy.set("pass");
		// Catch-up: the stuck shipper goes on once the bytes flow (or, if its connect timed out meanwhile,
		// it backed off and one is run here, as the next hook after the back-off would start it).
		const settings = settingsFrom(m.env, null);
		await until(
			"caught up",
			async () => {
				if ((await readBacklog(m.env)).total === 0) return true;
				await runShipper({ env: m.env, settings, lingerMs: 0 }).catch(() => {});
				return (await readBacklog(m.env)).total === 0;
			},
			60_000,
		);
		const after = await exactness("hook-a");
		expect(after.rows).toBe(after.distinct);
		const mine = await admin.query(
			"SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'hook-a' AND record->>'detail' LIKE 'while stalled %'",
		);
		expect(mine.rows[0].n).toBe(20);
	});
});
