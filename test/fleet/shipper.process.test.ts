/**
 * The shipper against a real PostgreSQL (a throwaway cluster): every record
 * becomes exactly one row, whatever crashes or repeats in between; rotated
 * logs ship whole and in order; a torn line is skipped; a newer schema is
 * refused; a server that is down is a redacted error and a back-off; one
 * shipper runs at a time.
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFrom } from "../../src/fleet/config.js";
import { FLEET_SCHEMA_VERSION } from "../../src/fleet/schema.js";
import { readBacklog, runShipper, ShipperBusy } from "../../src/fleet/shipper.js";
import { fleetHome, readShipperStatus, worktreeId } from "../../src/state/fleet-files.js";
import { makeMachine, removeMachines } from "./support/machine.js";
import { type PgCluster, startPgCluster } from "./support/pg-cluster.js";

let cluster: PgCluster;
let admin: pg.Client;

beforeAll(async () => {
	cluster = await startPgCluster();
	admin = new pg.Client({ connectionString: cluster.url });
	await admin.connect();
});

afterAll(async () => {
	await admin?.end();
	cluster?.destroy();
	await removeMachines();
});

async function rows(machine: string): Promise<{ rec_key: string; seq: string; record: { detail: string } }[]> {
	const result = await admin.query(
		"SELECT rec_key, seq, record FROM boulder_decisions WHERE machine = $1 ORDER BY seq",
		[machine],
	);
	return result.rows;
}

function ship(machine: Awaited<ReturnType<typeof makeMachine>>, extra: Partial<Parameters<typeof runShipper>[0]> = {}) {
	return runShipper({ env: machine.env, settings: settingsFrom(machine.env, null), lingerMs: 0, ...extra });
}

describe("the shipper", () => {
	it("ships every record once, and shipping again adds nothing", async () => {
		const m = await makeMachine("exact-a", cluster.url);
		const root = await m.worktree("wt");
		await m.log(root, 120);
		const first = await ship(m, { batch: 50 });
		expect(first.shipped).toBeGreaterThanOrEqual(120);
		const shipped = await rows("exact-a");
		expect(shipped.length).toBe(first.shipped);
		expect(new Set(shipped.map((row) => row.rec_key)).size).toBe(shipped.length);
		expect((await ship(m)).shipped).toBe(0);
		expect((await readBacklog(m.env)).total).toBe(0);
		await m.log(root, 5);
		expect((await readBacklog(m.env)).total).toBe(5);
		expect((await ship(m)).shipped).toBe(5);
		expect((await rows("exact-a")).length).toBe(shipped.length + 5);
	});

	it("keeps one row per record when it dies after inserting and before moving its cursor", async () => {
		const m = await makeMachine("crash-a", cluster.url);
		const root = await m.worktree("wt");
		await m.log(root, 40);
		await expect(
			ship(m, {
				afterInsert: () => {
					throw new Error("killed mid-batch");
				},
			}),
		).rejects.toThrow("killed mid-batch");
		const afterCrash = (await rows("crash-a")).length;
		expect(afterCrash).toBeGreaterThanOrEqual(40);
		expect((await readBacklog(m.env)).total).toBe(afterCrash);
		await ship(m);
		expect((await rows("crash-a")).length).toBe(afterCrash);
		expect((await readBacklog(m.env)).total).toBe(0);
	});

	it("dedupes by the record's place in its log when the cursor is lost, and keeps the order by sequence", async () => {
		const m = await makeMachine("lost-a", cluster.url);
		const root = await m.worktree("wt");
		await m.log(root, 30);
		await ship(m);
		const before = await rows("lost-a");
		await rm(path.join(fleetHome(m.env), "cursors"), { recursive: true });
		await m.log(root, 3);
		await ship(m);
		const after = await rows("lost-a");
		expect(after.length).toBe(before.length + 3);
		const seqs = after.map((row) => Number(row.seq));
		expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
		expect(after.slice(-3).map((row) => row.record.detail)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^line \d+$/)]),
		);
	});

	it("ships records across a rotation of the log, none twice and none lost", async () => {
		const m = await makeMachine("rotate-a", cluster.url);
		const root = await m.worktree("wt");
		await m.log(root, 10);
		await ship(m);
		const store = m.store(root);
		// Rotate by hand as the log does: the current file becomes decisions.1.jsonl.
		const { rename } = await import("node:fs/promises");
		await m.log(root, 7);
		await rename(store.paths.decisions, store.paths.decisions.replace(/\.jsonl$/, ".1.jsonl"));
		await m.log(root, 4);
		const result = await ship(m);
		expect(result.shipped).toBe(11);
		const details = (await rows("rotate-a")).map((row) => row.record.detail).filter((d) => d.startsWith("line "));
		expect(details).toEqual(Array.from({ length: 21 }, (_, i) => `line ${i + 1}`));
	});

	it("skips a torn line and leaves a line still being written for the next run", async () => {
		const m = await makeMachine("torn-a", cluster.url);
		const root = await m.worktree("wt");
		await ship(m);
		const store = m.store(root);
		const { appendFile } = await import("node:fs/promises");
		await appendFile(store.paths.decisions, '{"v":1,"at":1,"torn\n');
		await m.log(root, 1);
		await appendFile(store.paths.decisions, '{"v":1,"at":2,"worktree"');
		const result = await ship(m);
		expect(result.shipped).toBe(1);
		expect(result.skipped).toBe(1);
		expect((await readBacklog(m.env)).total).toBe(0);
	});

	it("refuses a database whose schema is newer, changing nothing, and says so in fleet status", async () => {
		const url = await cluster.database("newer");
		const m = await makeMachine("newer-a", url);
		const root = await m.worktree("wt");
		await ship(m);
		const db = new pg.Client({ connectionString: url });
		await db.connect();
		await db.query("UPDATE boulder_schema SET version = 99");
		await m.log(root, 2);
		await expect(ship(m)).rejects.toMatchObject({ code: "fleet-schema-newer" });
		const count = await db.query("SELECT count(*)::int AS n FROM boulder_decisions");
		await db.end();
		const status = await m.cli(["fleet", "status", "--json"]);
		const report = JSON.parse(status.out);
		expect(report.backlog).toBe(2);
		expect(report.lastError.message).toContain(
			`schema version 99, newer than this boulder knows (${FLEET_SCHEMA_VERSION})`,
		);
		expect(count.rows[0].n).toBeGreaterThan(0);
	});

	it("fails fast when the server is down, backs off, and never shows the password", async () => {
		const port = cluster.port + 1;
		const url = `postgres://boulder:s3cret-pw@127.0.0.1:${port}/fleet`;
		const m = await makeMachine("down-a", url);
		const root = await m.worktree("wt");
		await m.log(root, 3);
		await expect(ship(m)).rejects.toMatchObject({ code: "fleet-unreachable" });
		const status = await readShipperStatus(m.env);
		expect(status.retryAt).toBeGreaterThan(Date.now());
		expect(status.lastError?.message).not.toContain("s3cret-pw");
		const printed = await m.cli(["fleet", "status"]);
		const ship2 = await m.cli(["fleet", "ship"]);
		for (const text of [printed.out, printed.err, ship2.out, ship2.err]) expect(text).not.toContain("s3cret-pw");
		expect(printed.out).toContain("postgres://boulder:***@127.0.0.1");
		expect(printed.out).toMatch(/backlog: \d+ records? not yet shipped/);
		expect(ship2.code).toBe(1);
	});

	it("runs one shipper at a time", async () => {
		const m = await makeMachine("lock-a", cluster.url);
		const root = await m.worktree("wt");
		await m.log(root, 5);
		let release: () => void = () => {};
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const first = ship(m, { afterInsert: () => held });
		await new Promise((resolve) => setTimeout(resolve, 300));
		await expect(ship(m)).rejects.toBeInstanceOf(ShipperBusy);
		release();
		await first;
		const busy = await m.cli(["fleet", "ship"]);
		expect(busy.code).toBe(0);
	});

	it("sends each worktree's status snapshot, with the local view's words", async () => {
		const m = await makeMachine("snap-a", cluster.url);
		const root = await m.worktree("wt");
		await ship(m);
		const result = await admin.query(
			"SELECT root, snapshot FROM boulder_worktrees WHERE machine = $1 AND worktree_id = $2",
			["snap-a", worktreeId(root)],
		);
		expect(result.rows[0].root).toBe(root);
		expect(result.rows[0].snapshot.works[0]).toMatchObject({ status: "active", progress: { done: 1, open: 2 } });
	});

	it("is started by the hook's store only when the fleet is configured, and ships in the background", {
		timeout: 60_000,
	}, async () => {
		const m = await makeMachine("kick-a", cluster.url, { BOULDER_FLEET_LINGER_MS: "0", BOULDER_FLEET_AUTOSHIP: "on" });
		const root = await m.worktree("wt");
		const { openState } = await import("../../src/engine/open.js");
		const { store } = await openState({ cwd: root, env: m.env });
		const { eventRecord } = await import("../../src/core/decision-record.js");
		await store.appendDecision(eventRecord({ at: Date.now(), worktree: root, reason: "user-turn", detail: "kicked" }));
		const deadline = Date.now() + 30_000;
		let found = 0;
		while (Date.now() < deadline) {
			const r = await admin
				.query(
					"SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'kick-a' AND record->>'detail' = 'kicked'",
				)
				.catch(() => ({ rows: [{ n: 0 }] }));
			found = r.rows[0]?.n ?? 0;
			if (found > 0) break;
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		expect(found).toBe(1);
	});
});

describe("boulder fleet join and leave", () => {
	it("records the URL and the name, and ships with them", async () => {
		const m = await makeMachine("join-a", null);
		const root = await m.worktree("wt");
		const joined = await m.cli([
			"fleet",
			"join",
			cluster.url.replace("boulder@", "boulder:pw-never-shown@"),
			"--machine",
			"joined-name",
		]);
		expect(joined.out).toContain("postgres://boulder:***@");
		expect(joined.out).not.toContain("pw-never-shown");
		const { BOULDER_MACHINE: _, ...env } = m.env;
		const main = (await import("../../src/cli/main.js")).main;
		let out = "";
		const code = await main(["fleet", "ship"], {
			env,
			cwd: root,
			stdout: { write: (t: string) => (out += t) },
			stderr: { write: () => true },
		});
		expect(code).toBe(0);
		expect(out).toContain("as joined-name");
		await writeFile(path.join(root, "x"), "");
		const left = await m.cli(["fleet", "leave"]);
		expect(left.out).toContain("Left the fleet");
		const after = await main(["fleet", "ship"], {
			env,
			cwd: root,
			stdout: { write: () => true },
			stderr: { write: () => true },
		});
		expect(after).toBe(2);
	});
});
