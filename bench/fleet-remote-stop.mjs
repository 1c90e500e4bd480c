/**
 * Remote stop, measured (docs/fleet.md): a target machine mid-episode — a
 * process whose session has open items and goes idle every `--turn-ms`
 * (each idle a real engine decision, a nudge, through the real file store
 * with the hook's shipper start) — and the fleet dashboard of another
 * machine (in this process). Each round presses Stop on the dashboard
 * (`POST /fleet/command`, as the page's button does) and measures to when the
 * target applied the command (its row's `applied_at`) and to the target's
 * next decision (the first `disabled` after it). Then Turn on, and again.
 *
 * Run after `npm run build`: `node bench/fleet-remote-stop.mjs [--rounds 10] [--turn-ms 1000]`.
 * Writes `bench/results/fleet-remote-stop.json`. Timings are reported, never asserted.
 */
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startPgCluster } from "./fixtures/pg-cluster.mjs";
import { stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = (file) => path.join(repoRoot, "dist", file);

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at < 0 ? fallback : Number(process.argv[at + 1]);
}

function machineEnv(home, name, url) {
	return {
		PATH: process.env.PATH,
		HOME: home,
		XDG_CONFIG_HOME: path.join(home, ".config"),
		BOULDER_STATE_HOME: path.join(home, "state"),
		BOULDER_MACHINE: name,
		BOULDER_FLEET_URL: url,
		BOULDER_FLEET_LINGER_MS: "30000",
	};
}

if (process.argv[2] === "--target") {
	const [, , , home, url, turnMs] = process.argv;
	const env = machineEnv(home, "target", url);
	const root = path.join(home, "wt");
	mkdirSync(path.join(root, ".git"), { recursive: true });
	const { openWorkspace } = await import(dist("engine/open.js"));
	const { recordWorktree } = await import(dist("state/worktree-index.js"));
	await recordWorktree(root, { env });
	const ref = { harness: "claude-code", sessionId: "target-session" };
	const todos = Array.from({ length: 50 }, (_, i) => ({
		content: `item ${i + 1}`,
		status: i < 2 ? "completed" : "pending",
	}));
	const first = await openWorkspace({ cwd: root, env });
	await first.engine.turnStarted(ref, "user");
	await first.engine.todosChanged(ref, todos);
	process.send?.({ ready: true });
	for (;;) {
		// Each turn as a hook does it: open the workspace, end the turn, decide.
		const { engine } = await openWorkspace({ cwd: root, env });
		await engine.turnEnded(ref, { outcome: "end", spend: { input: 100, output: 50, cacheWrite: 0 } });
		const decision = await engine.onIdle(ref, { lastAssistantText: "Working on the next item." });
		process.send?.({ at: Date.now(), reason: decision.reason });
		if (decision.kind === "inject") await engine.turnStarted(ref, "continuation");
		await new Promise((resolve) => setTimeout(resolve, Number(turnMs)));
	}
}

const ROUNDS = option("rounds", 10);
const TURN_MS = option("turn-ms", 1000);
const cluster = await startPgCluster();
const tmp = mkdtempSync(path.join(os.tmpdir(), "boulder-fleet-stop-"));
const db = new pg.Client({ connectionString: cluster.url });
let target = null;
let ui = null;
try {
	await db.connect();
	const decisions = [];
	target = fork(fileURLToPath(import.meta.url), ["--target", path.join(tmp, "target"), cluster.url, String(TURN_MS)], {
		stdio: ["ignore", "ignore", "inherit", "ipc"],
	});
	await new Promise((resolve) =>
		target.on("message", (message) => (message.ready ? resolve() : decisions.push(message))),
	);
	target.on("message", (message) => message.at && decisions.push(message));
	// The target's hooks start its shipper: wait until it has shipped once (the machine is known).
	for (let i = 0; i < 600; i++) {
		const known = await db
			.query("SELECT 1 FROM boulder_machines WHERE machine = 'target'")
			.catch(() => ({ rowCount: 0 }));
		if (known.rowCount) break;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const { startFleetDashboard } = await import(dist("ui/index.js"));
	const { settingsFrom } = await import(dist("fleet/config.js"));
	const laptopEnv = { ...machineEnv(path.join(tmp, "laptop"), "laptop", cluster.url), BOULDER_FLEET_AUTOSHIP: "off" };
	ui = await startFleetDashboard({ settings: settingsFrom(laptopEnv, null), clock: { now: () => Date.now() } });
	const post = (action) =>
		fetch(`http://127.0.0.1:${ui.port}/fleet/command`, {
			method: "POST",
			headers: {
				"content-type": "application/json",
				authorization: `Bearer ${ui.token}`,
				origin: `http://127.0.0.1:${ui.port}`,
			},
			body: JSON.stringify({ machine: "target", action, targetKind: "machine", target: null, harness: null }),
		}).then((response) => response.json());
	const toApplied = [];
	const toNextDecision = [];
	for (let round = 0; round < ROUNDS; round++) {
		// Mid-episode: the last decision was a nudge.
		while (decisions.at(-1)?.reason !== "continue") await new Promise((resolve) => setTimeout(resolve, 20));
		const sentAt = Date.now();
		const answer = await post("stop");
		if (!answer.ok) throw new Error(answer.message);
		let applied = null;
		while (applied === null) {
			const row = await db.query("SELECT applied_at FROM boulder_commands WHERE id = $1", [answer.id]);
			applied = row.rows[0]?.applied_at ?? null;
			if (applied === null) await new Promise((resolve) => setTimeout(resolve, 10));
		}
		let next = null;
		while (next === null) {
			next = decisions.find((decision) => decision.at >= sentAt && decision.reason === "disabled") ?? null;
			if (next === null) await new Promise((resolve) => setTimeout(resolve, 10));
		}
		toApplied.push(applied.getTime() - sentAt);
		toNextDecision.push(next.at - sentAt);
		const on = await post("go");
		while ((await db.query("SELECT state FROM boulder_commands WHERE id = $1", [on.id])).rows[0].state === "pending") {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}
	const result = {
		at: new Date().toISOString(),
		rounds: ROUNDS,
		turnMs: TURN_MS,
		load: os.loadavg().map((value) => Math.round(value * 100) / 100),
		cores: os.cpus().length,
		dashboardToAppliedMs: stats(toApplied),
		dashboardToNextDecisionMs: stats(toNextDecision),
	};
	mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
	writeFileSync(
		path.join(repoRoot, "bench", "results", "fleet-remote-stop.json"),
		`${JSON.stringify(result, null, 2)}\n`,
	);
	console.log(JSON.stringify(result, null, 2));
} finally {
	target?.kill("SIGKILL");
	await ui?.close();
	await db.end().catch(() => {});
	cluster.destroy();
	rmSync(tmp, { recursive: true, force: true });
}
