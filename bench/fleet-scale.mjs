/**
 * The fleet view at scale (docs/fleet.md): a throwaway PostgreSQL filled
 * with M machines, W worktrees (one work each, with a bound session and a
 * list session) and D decision rows (made inside the server), then:
 *
 * - `boulder status --fleet --json` (the built bin, as a person runs it),
 *   start to exit, median of N runs;
 * - the fleet dashboard's first screen in headless Chromium: from
 *   `page.goto` to every machine rendered, median of N loads;
 * - a live update: from a snapshot row changed plus its `NOTIFY` to the page
 *   showing the new words, median of N.
 *
 * Run after `npm run build`:
 *   node bench/fleet-scale.mjs [--machines 100] [--worktrees 1000] [--rows 1000000] [--runs 5]
 * Writes `bench/results/fleet-scale.json`. Timings are reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { chromium } from "playwright-core";
import { startPgCluster } from "./fixtures/pg-cluster.mjs";
import { stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = (file) => path.join(repoRoot, "dist", file);

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at < 0 ? fallback : Number(process.argv[at + 1]);
}
const MACHINES = option("machines", 100);
const WORKTREES = option("worktrees", 1000);
const ROWS = option("rows", 1_000_000);
const RUNS = option("runs", 5);

function snapshot(root, i, note) {
	const now = Date.now();
	const decision = {
		v: 1,
		at: now,
		worktree: root,
		scope: "claude-code-s",
		harness: "claude-code",
		session: `sess-${i}`,
		work: `work-${i}`,
		kind: i % 4 === 0 ? "skip" : "inject",
		reason: i % 4 === 0 ? "awaiting-user" : "continue",
		detail: note,
		figures: { open: 3, done: 4 },
	};
	return {
		worktree: root,
		stopped: null,
		works: [
			{
				id: `work-${i}`,
				name: `Work ${i}`,
				status: "active",
				active: true,
				planPath: "PLAN.md",
				startedAt: now - 3_600_000,
				endedAt: null,
				elapsedMs: 3_600_000,
				progress: { total: 7, done: 4, open: 3, blocked: 0, cancelled: 0 },
				next: "Write the parser",
				planProblem: null,
				sessions: [{ harness: "claude-code", sessionId: `sess-${i}`, how: "direct", stoppedBy: null }],
				lastDecision: decision,
				lastVerification: null,
			},
		],
		lastDecision: decision,
		sessions: [
			{
				harness: i % 2 ? "codex" : "claude-code",
				sessionId: `list-${i}`,
				counts: { total: 4, open: 2, done: 2, blocked: 0, cancelled: 0 },
				next: "item 3",
				items: [],
				stoppedBy: null,
				lastDecision: decision,
				lastActive: now,
			},
		],
		problem: null,
		configProblem: null,
	};
}

const loadBefore = os.loadavg().map((value) => Math.round(value * 100) / 100);
const cluster = await startPgCluster();
const db = new pg.Client({ connectionString: cluster.url });
let browser = null;
let ui = null;
const tmp = mkdtempSync(path.join(os.tmpdir(), "boulder-fleet-scale-"));
try {
	await db.connect();
	const { migrate } = await import(dist("fleet/schema.js"));
	await migrate(db);
	const fillStarted = performance.now();
	await db.query(
		"INSERT INTO boulder_machines (machine) SELECT 'm' || lpad(g::text, 3, '0') FROM generate_series(0, $1 - 1) g",
		[MACHINES],
	);
	// Each snapshot stored as the shipper stores it (with its summary).
	const { storeSnapshot } = await import(dist("fleet/shipper.js"));
	for (let i = 0; i < WORKTREES; i++) {
		const machine = `m${String(i % MACHINES).padStart(3, "0")}`;
		const root = `/home/dev/projects/repo-${i}`;
		const view = snapshot(root, i, `decision ${i}`);
		await storeSnapshot(db, { machine, id: `wt${i}`, root, view, text: JSON.stringify(view), now: Date.now() });
	}
	await db.query(
		`INSERT INTO boulder_decisions (machine, worktree_id, rec_key, seq, at, kind, reason, harness, session, work, record)
		 SELECT 'm' || lpad((g % $2)::text, 3, '0'), 'wt' || (g % $3), 'e:' || g, g / $3, $4::bigint + g, 'inject', 'continue', 'claude-code', 'sess-' || (g % $3), 'work-' || (g % $3),
		        jsonb_build_object('v', 1, 'at', $4::bigint + g, 'kind', 'inject', 'reason', 'continue', 'detail', 'nudge ' || g, 'figures', jsonb_build_object('open', 3, 'done', 4))
		 FROM generate_series(0, $1 - 1) g`,
		[ROWS, MACHINES, WORKTREES, Date.now() - ROWS],
	);
	// The rows were made inside the server, not by shippers: their tallies are made from them once.
	const { REBUILD_TALLIES } = await import(dist("fleet/schema.js"));
	await db.query(`BEGIN; ${REBUILD_TALLIES} COMMIT;`);
	await db.query("ANALYZE");
	const fillMs = performance.now() - fillStarted;

	const env = {
		PATH: process.env.PATH,
		HOME: tmp,
		BOULDER_STATE_HOME: path.join(tmp, "state"),
		BOULDER_FLEET_URL: cluster.url,
		BOULDER_MACHINE: "bench",
		BOULDER_FLEET_AUTOSHIP: "off",
		NO_COLOR: "1",
	};
	const statusTimes = [];
	let statusBytes = 0;
	for (let run = 0; run < RUNS + 1; run++) {
		const start = performance.now();
		const result = spawnSync(
			process.execPath,
			[path.join(repoRoot, "bin", "boulder.js"), "status", "--fleet", "--json"],
			{
				env,
				encoding: "utf8",
				maxBuffer: 1024 * 1024 * 1024,
			},
		);
		const ms = performance.now() - start;
		if (result.status !== 0) throw new Error(`status --fleet failed: ${result.stderr}`);
		const report = JSON.parse(result.stdout);
		if (report.machines.length !== MACHINES)
			throw new Error(`expected ${MACHINES} machines, got ${report.machines.length}`);
		statusBytes = result.stdout.length;
		if (run > 0) statusTimes.push(ms);
	}
	// The same command's CPU time (user + system), which a busy machine does not stretch as it does the wall time.
	const statusCpu = [];
	if (existsSync("/usr/bin/time")) {
		for (let run = 0; run < RUNS; run++) {
			const result = spawnSync(
				"/usr/bin/time",
				["-f", "cpu %U %S", process.execPath, path.join(repoRoot, "bin", "boulder.js"), "status", "--fleet", "--json"],
				{ env, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024 },
			);
			const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
			if (result.status === 0 && cpu) statusCpu.push((Number(cpu[1]) + Number(cpu[2])) * 1000);
		}
	}

	const { startFleetDashboard } = await import(dist("ui/index.js"));
	const { settingsFrom } = await import(dist("fleet/config.js"));
	ui = await startFleetDashboard({ settings: settingsFrom(env, null), clock: { now: () => Date.now() } });
	browser = await chromium.launch({
		executablePath: process.env.BOULDER_CHROMIUM ?? "/usr/bin/chromium",
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
	});
	const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
	const firstScreen = [];
	for (let run = 0; run < RUNS + 1; run++) {
		const start = performance.now();
		await page.goto(ui.url);
		await page.waitForFunction((n) => document.querySelectorAll("section.machine").length === n, MACHINES, {
			timeout: 60_000,
		});
		if (run > 0) firstScreen.push(performance.now() - start);
	}
	const live = [];
	for (let run = 0; run < RUNS; run++) {
		const note = `live update ${run}`;
		const start = performance.now();
		const view = snapshot("/home/dev/projects/repo-0", 0, note);
		await storeSnapshot(db, {
			machine: "m000",
			id: "wt0",
			root: view.worktree,
			view,
			text: JSON.stringify(view),
			now: Date.now(),
		});
		await db.query("SELECT pg_notify('boulder_fleet', 'm000')");
		await page.waitForFunction(
			(text) => document.querySelector("[data-worktree=wt0]")?.textContent?.includes(text),
			note,
			{
				timeout: 60_000,
			},
		);
		live.push(performance.now() - start);
	}
	const size = await db.query("SELECT pg_total_relation_size('boulder_decisions') AS bytes");
	// The read alone, in process (what the command and the page wait on the database and the summaries for).
	const { readFleet } = await import(dist("fleet/read.js"));
	const reads = [];
	for (let run = 0; run < RUNS; run++) {
		const start = performance.now();
		await readFleet(db, {}, Date.now());
		reads.push(performance.now() - start);
	}
	const result = {
		at: new Date().toISOString(),
		scale: { machines: MACHINES, worktrees: WORKTREES, works: WORKTREES, decisionRows: ROWS },
		load: os.loadavg().map((value) => Math.round(value * 100) / 100),
		cores: os.cpus().length,
		fillSeconds: Math.round(fillMs / 100) / 10,
		decisionTableBytes: Number(size.rows[0].bytes),
		loadBefore,
		readFleetInProcessMs: stats(reads),
		statusFleetJsonMs: stats(statusTimes),
		statusFleetJsonCpuMs: statusCpu.length > 0 ? stats(statusCpu) : null,
		statusFleetJsonBytes: statusBytes,
		dashboardFirstScreenMs: stats(firstScreen),
		dashboardLiveUpdateMs: stats(live),
	};
	mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
	writeFileSync(path.join(repoRoot, "bench", "results", "fleet-scale.json"), `${JSON.stringify(result, null, 2)}\n`);
	console.log(JSON.stringify(result, null, 2));
} finally {
	await browser?.close();
	await ui?.close();
	await db.end().catch(() => {});
	cluster.destroy();
	rmSync(tmp, { recursive: true, force: true });
}
