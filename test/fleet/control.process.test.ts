/**
 * Remote control and the fleet view against a real PostgreSQL, with two
 * simulated machines (own state folders and names) on one host: a command
 * is a row the target applies through its own engine the next time its
 * shipper runs, logged "by the fleet, from <machine>"; a target that is
 * offline applies a stop when it comes back, and a go that waited too long
 * expires instead. `boulder status --fleet --json` lists every machine with
 * the local view's words, filtered by machine, state and harness.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Todo } from "../../src/core/todos.js";
import { openWorkspace } from "../../src/engine/open.js";
import { settingsFrom } from "../../src/fleet/config.js";
import { runShipper } from "../../src/fleet/shipper.js";
import { type Machine, makeMachine, removeMachines } from "./support/machine.js";
import { type PgCluster, startPgCluster } from "./support/pg-cluster.js";

let cluster: PgCluster;
let admin: pg.Client;
let laptop: Machine;
let runner: Machine;
let rootB: string;

const SESSION = { harness: "claude-code", sessionId: "sess-runner-1" };
const todos = (done: number, total: number): Todo[] =>
	Array.from({ length: total }, (_, i) => ({ content: `item ${i + 1}`, status: i < done ? "completed" : "pending" }));

function ship(machine: Machine, lingerMs = 0) {
	return runShipper({ env: machine.env, settings: settingsFrom(machine.env, null), lingerMs, pollMs: 50 });
}

/** One turn of the runner's session ending idle: the engine's decision on it. */
async function idle(): Promise<{ kind: string; reason: string }> {
	const { engine } = await openWorkspace({ cwd: rootB, env: runner.env });
	await engine.turnEnded(SESSION, { outcome: "end", spend: { input: 10, output: 10, cacheWrite: 0 } });
	return engine.onIdle(SESSION, { lastAssistantText: "Working on it." });
}

beforeAll(async () => {
	cluster = await startPgCluster();
	admin = new pg.Client({ connectionString: cluster.url });
	await admin.connect();
	laptop = await makeMachine("laptop", cluster.url);
	runner = await makeMachine("runner", cluster.url);
	await laptop.worktree("app");
	rootB = await runner.worktree("svc");
	const { engine } = await openWorkspace({ cwd: rootB, env: runner.env });
	await engine.turnStarted(SESSION, "user");
	await engine.todosChanged(SESSION, todos(1, 4));
	await ship(laptop);
	await ship(runner);
});

afterAll(async () => {
	await admin?.end();
	cluster?.destroy();
	await removeMachines();
});

describe("remote control", () => {
	it("stops one session: the row waits, the target's next shipper applies it, its next idle is disabled", async () => {
		expect((await idle()).kind).toBe("inject");
		const sent = await laptop.cli(["fleet", "stop", "runner", "--session", SESSION.sessionId]);
		expect(sent.code).toBe(0);
		expect(sent.out).toContain("applies it when its shipper next runs");
		const pending = await admin.query("SELECT state FROM boulder_commands WHERE machine = 'runner'");
		expect(pending.rows.map((row) => row.state)).toEqual(["pending"]);
		expect((await ship(runner)).commands).toBe(1);
		const decision = await idle();
		expect(decision.reason).toBe("disabled");
		const row = await admin.query(
			"SELECT state, result FROM boulder_commands WHERE machine = 'runner' ORDER BY id DESC LIMIT 1",
		);
		expect(row.rows[0]).toMatchObject({ state: "applied" });
		expect(row.rows[0].result).toContain("stopped claude-code session sess-runner-1");
		const why = await runner.cli(["why", "-n", "5"], rootB);
		expect(why.out).toContain("by the fleet, from laptop");
		await laptop.cli(["fleet", "go", "runner", "--session", SESSION.sessionId]);
		await ship(runner);
		expect((await idle()).reason).not.toBe("disabled");
	});

	it("waits for a target that is offline and applies the stop when it comes back; a stale go expires", async () => {
		const stop = await laptop.cli(["fleet", "stop", "runner"]);

		expect(stop.code).toBe(0);
		const status = await laptop.cli(["status", "--fleet", "--json"]);
		expect(
			JSON.parse(status.out).machines.find((m: { machine: string }) => m.machine === "runner").pendingCommands,
		).toBe(1);
		// The runner is offline (no shipper) for as long as it takes; it comes back and ships.
		await ship(runner);
		expect((await idle()).reason).toBe("disabled");
		const works = await runner.store(rootB).readWorks();
		expect(works.kind === "ok" && works.value.stopped?.by).toBe("the fleet, from laptop");
		await laptop.cli(["fleet", "go", "runner"]);
		await admin.query("UPDATE boulder_commands SET expires_at = now() - interval '1 minute' WHERE state = 'pending'");
		await ship(runner);
		const last = await admin.query("SELECT state FROM boulder_commands ORDER BY id DESC LIMIT 1");
		expect(last.rows[0].state).toBe("expired");
		expect((await idle()).reason).toBe("disabled");
		await laptop.cli(["fleet", "go", "runner"]);
		await ship(runner);
		expect((await idle()).reason).not.toBe("disabled");
	});

	it("pauses and resumes a work by its id", async () => {
		const works = await runner.store(rootB).readWorks();
		const id = works.kind === "ok" ? (works.value.activeWorkId as string) : "";
		await laptop.cli(["fleet", "pause", "runner", "--work", id]);
		await ship(runner);
		const paused = await runner.store(rootB).readWorks();
		expect(paused.kind === "ok" && paused.value.works[id]?.status).toBe("paused");
		await laptop.cli(["fleet", "resume", "runner", "--work", id]);
		await ship(runner);
		const resumed = await runner.store(rootB).readWorks();
		expect(resumed.kind === "ok" && resumed.value.works[id]?.status).toBe("active");
	});

	it("is applied within a notification when the target's shipper is running (--wait)", async () => {
		const lingering = ship(runner, 8_000);
		await new Promise((resolve) => setTimeout(resolve, 500));
		const sent = await laptop.cli(["fleet", "stop", "runner", "--wait", "20"]);
		expect(sent.out).toContain("Applied: stop runner");
		await laptop.cli(["fleet", "go", "runner", "--wait", "20"]);
		await lingering;
	});

	it("refuses a machine that never shipped, and a bad target", async () => {
		const typo = await laptop.cli(["fleet", "stop", "runnr"]);
		expect(typo.code).toBe(1);
		expect(typo.err).toContain('no machine named "runnr"');
		const missing = await laptop.cli(["fleet", "stop", "runner", "--session", "nope"]);
		await ship(runner);
		const row = await admin.query("SELECT state, result FROM boulder_commands ORDER BY id DESC LIMIT 1");
		expect(row.rows[0]).toMatchObject({ state: "failed", result: "no session nope on this machine" });
		expect(missing.code).toBeLessThanOrEqual(1);
	});
});

describe("boulder status --fleet", () => {
	it("lists every machine with its worktrees in the local view's words", async () => {
		await ship(runner);
		const json = await laptop.cli(["status", "--fleet", "--json"]);
		const report = JSON.parse(json.out);
		expect(report.machines.map((m: { machine: string }) => m.machine)).toEqual(["laptop", "runner"]);
		const runnerView = report.machines[1].worktrees[0];
		expect(runnerView.root).toBe(rootB);
		expect(runnerView.works[0]).toMatchObject({ status: "active", name: expect.any(String), state: "rolling" });
		const detail = JSON.parse((await laptop.cli(["status", "--fleet", "--json", "--machine", "runner"])).out);
		expect(detail.machines[0].worktrees[0].view.works[0]).toMatchObject({ status: "active", planPath: "PLAN.md" });
		const text = await laptop.cli(["status", "--fleet"]);
		expect(text.out).toContain("runner");
		expect(text.out).toContain("Ship it (ship-it)  active  1/3 done");
		expect(text.out).toMatch(/runner · last shipped/);
	});

	it("filters by machine, state and harness", async () => {
		const one = JSON.parse((await laptop.cli(["status", "--fleet", "--json", "--machine", "runner"])).out);
		expect(one.machines.map((m: { machine: string }) => m.machine)).toEqual(["runner"]);
		const done = JSON.parse((await laptop.cli(["status", "--fleet", "--json", "--state", "done"])).out);
		expect(done.machines).toEqual([]);
		const rolling = JSON.parse((await laptop.cli(["status", "--fleet", "--json", "--state", "rolling"])).out);
		expect(rolling.machines.length).toBeGreaterThan(0);
		const codex = JSON.parse((await laptop.cli(["status", "--fleet", "--json", "--harness", "codex"])).out);
		expect(codex.machines).toEqual([]);
		const bad = await laptop.cli(["status", "--fleet", "--state", "sleepy"]);
		expect(bad.code).toBe(2);
		expect(bad.err).toContain("needs-person, stuck, rolling, done");
	});
});
