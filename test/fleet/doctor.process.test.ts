/**
 * `boulder doctor`'s fleet check against a real PostgreSQL: not in a fleet,
 * reachable (with the schema version there), down (a short time-out, a
 * problem), a newer schema, and the backlog with the last shipper's error —
 * and never the password, in the text or the JSON.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFrom } from "../../src/fleet/config.js";
import { FLEET_SCHEMA_VERSION } from "../../src/fleet/schema.js";
import { runShipper } from "../../src/fleet/shipper.js";
import { type Machine, makeMachine, removeMachines } from "./support/machine.js";
import { freePort, type PgCluster, startPgCluster } from "./support/pg-cluster.js";

const SECRET = "doctor-pw-never-shown";
let cluster: PgCluster;

beforeAll(async () => {
	cluster = await startPgCluster();
});

afterAll(async () => {
	cluster?.destroy();
	await removeMachines();
});

interface Finding {
	check: string;
	level: string;
	message: string;
	fix: string | null;
}

async function doctor(m: Machine, root: string): Promise<{ fleet: Finding[]; text: string; json: string }> {
	const json = await m.cli(["doctor", "--json"], root);
	const text = await m.cli(["doctor"], root);
	const fleet = (JSON.parse(json.out).findings as Finding[]).filter((finding) => finding.check === "fleet");
	return { fleet, text: text.out + text.err, json: json.out + json.err };
}

function withSecret(url: string): string {
	return url.replace("boulder@", `boulder:${SECRET}@`);
}

describe("boulder doctor's fleet check", () => {
	it("says when the machine is in no fleet", async () => {
		const m = await makeMachine("doc-none", null);
		const root = await m.worktree("wt");
		const { fleet } = await doctor(m, root);
		expect(fleet).toEqual([
			expect.objectContaining({ level: "ok", message: expect.stringContaining("not in a fleet") }),
		]);
	});

	it("says where, that it answers, its schema version and the backlog, without the password", async () => {
		const url = withSecret(await cluster.database("doc_ok"));
		const m = await makeMachine("doc-ok", url);
		const root = await m.worktree("wt");
		await m.log(root, 4);
		const fresh = await doctor(m, root);
		expect(fresh.fleet[0]).toMatchObject({ level: "ok", message: expect.stringContaining("no boulder tables yet") });
		expect(fresh.fleet[0]?.message).toContain("boulder:***@");
		expect(fresh.fleet[1]?.message).toMatch(/backlog: \d+ records not yet shipped/);
		await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 });
		const shipped = await doctor(m, root);
		expect(shipped.fleet[0]).toMatchObject({
			level: "ok",
			message: expect.stringContaining(`schema version ${FLEET_SCHEMA_VERSION}`),
		});
		expect(shipped.fleet[0]?.message).toContain('as machine "doc-ok"');
		expect(shipped.fleet[1]?.message).toContain("backlog: 0 records not yet shipped");
		for (const out of [fresh.text, fresh.json, shipped.text, shipped.json]) expect(out).not.toContain(SECRET);
	});

	it("is a problem when the database does not answer, and shows the last shipper's error redacted", async () => {
		const port = await freePort();
		const m = await makeMachine("doc-down", `postgres://boulder:${SECRET}@127.0.0.1:${port}/fleet`);
		const root = await m.worktree("wt");
		await m.log(root, 3);
		await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 }).catch(() => {});
		const { fleet, text, json } = await doctor(m, root);
		expect(fleet[0]).toMatchObject({ level: "problem", message: expect.stringContaining("cannot reach") });
		expect(fleet[1]).toMatchObject({ level: "warn", message: expect.stringContaining("the last shipper failed") });
		expect(fleet[1]?.fix).toContain("boulder fleet ship");
		expect(text).toContain("cannot reach");
		expect(text).not.toContain(SECRET);
		expect(json).not.toContain(SECRET);
	});

	it("is a problem when the database's schema is newer than this boulder", async () => {
		const url = await cluster.database("doc_newer");
		const m = await makeMachine("doc-newer", url);
		const root = await m.worktree("wt");
		await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 });
		const db = new pg.Client({ connectionString: url });
		await db.connect();
		await db.query("UPDATE boulder_schema SET version = 99");
		await db.end();
		const { fleet } = await doctor(m, root);
		expect(fleet[0]).toMatchObject({ level: "problem", fix: "upgrade boulder on this machine" });
		expect(fleet[0]?.message).toContain(`schema version 99 is newer than this boulder knows (${FLEET_SCHEMA_VERSION})`);
	});
});
