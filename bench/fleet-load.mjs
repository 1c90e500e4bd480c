/**
 * The fleet under load (docs/fleet.md): M simulated machines — processes,
 * each with its own state folder, worktree and shipper — × S sessions,
 * writing R decisions a minute in all for T seconds into one PostgreSQL on
 * loopback (a throwaway cluster). Each machine appends decision lines
 * through the real file store and runs the real shipper (lingering, as the
 * hook starts it). At the end: rows against records written (they must be
 * equal), shipping lag p50/p99 (row stored − record written), PostgreSQL's
 * CPU time over the run and its bytes per decision row.
 *
 * Faults, each on request: `--pg-down S` stops PostgreSQL S seconds in the
 * middle of the run and starts it again; `--kills K` SIGKILLs machines'
 * shippers K times in all during the run (each time the next machine whose
 * shipper runs; another starts as the next hook would start it); `--skew` sets every other machine's clock an hour
 * ahead and the others an hour behind (records' `at`), and checks order per
 * machine by sequence; `--proxy` puts a loopback proxy
 * (`fixtures/flaky-proxy.mjs`) between the shippers and PostgreSQL and
 * cycles it through passing, resetting every connection and stalling them
 * (holding every byte), and `--hooks` times the real Claude Code `Stop`
 * hook meanwhile (the fleet on through that proxy, its shippers started by
 * the hooks, against the fleet off, alternating), by the proxy's mode at
 * the time. After the writers stop, the shippers catch up, then rows =
 * records is checked: 0 lost, 0 duplicated.
 *
 * Run after `npm run build`:
 *   node bench/fleet-load.mjs [--machines 100] [--sessions 10] [--rate 1000] [--seconds 600]
 *        [--pg-down 300] [--kills 100] [--skew] [--proxy] [--hooks] [--linger-ms 20000] [--out NAME]
 * Writes `bench/results/<NAME or fleet-load>.json`. Figures are reported, never asserted.
 */
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startFlakyProxy } from "./fixtures/flaky-proxy.mjs";
import { createHookSession } from "./fixtures/hook-session.mjs";
import { startPgCluster } from "./fixtures/pg-cluster.mjs";
import { stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = (file) => path.join(repoRoot, "dist", file);

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return fallback;
	const value = process.argv[at + 1];
	return value === undefined || value.startsWith("--") ? true : Number.isNaN(Number(value)) ? value : Number(value);
}

if (process.argv[2] === "--child") await child();
else await parent();

/**
 * One machine: writes its share of decisions at a steady pace, while a
 * shipper runs as the hook starts it (`boulder fleet ship --background`, a
 * process of its own), started again whenever the hook would start one
 * (none runs, and the last one is not backing off after a failure). Told `kill`, it
 * SIGKILLs the running shipper wherever it is (mid-batch, mid-linger).
 */
async function child() {
	const { spawn } = await import("node:child_process");
	const { FileStore } = await import(dist("state/file-store.js"));
	const { recordWorktree } = await import(dist("state/worktree-index.js"));
	const { runShipper, readBacklog } = await import(dist("fleet/shipper.js"));
	const { settingsFrom } = await import(dist("fleet/config.js"));
	const { shipperWanted } = await import(dist("state/fleet-files.js"));
	const [, , , name, home, url, perSecond, seconds, sessions, skewMs, lingerMs] = process.argv;
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		BOULDER_STATE_HOME: path.join(home, "state"),
		BOULDER_MACHINE: name,
		BOULDER_FLEET_URL: url,
		BOULDER_FLEET_AUTOSHIP: "off",
		BOULDER_FLEET_LINGER_MS: lingerMs,
	};
	const root = path.join(home, "wt");
	mkdirSync(path.join(root, ".git"), { recursive: true });
	const store = new FileStore(root, { stateHome: env.BOULDER_STATE_HOME });
	await store.appendDecision(event(root, 0, Number(skewMs), "s0"));
	await recordWorktree(root, { env });
	let writing = true;
	let written = 1;
	let current = null;
	let killed = 0;
	process.on("message", (message) => {
		if (!message.kill) return;
		const landed = Boolean(current);
		if (current) {
			current.kill("SIGKILL");
			killed++;
		}
		process.send?.({ killAnswer: landed });
	});
	// As the hook does after each decision: a shipper is started when none runs and the last is not backing off.
	const shipper = (async () => {
		while (writing) {
			if (shipperWanted(env, Date.now())) {
				current = spawn(process.execPath, [path.join(repoRoot, "bin", "boulder.js"), "fleet", "ship", "--background"], {
					env,
					stdio: "ignore",
				});
				await new Promise((resolve) => current.once("exit", resolve));
				current = null;
			}
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	})();
	const every = 1000 / Number(perSecond);
	const start = Date.now();
	const end = start + Number(seconds) * 1000;
	let next = start;
	while (Date.now() < end) {
		const session = `s${written % Number(sessions)}`;
		await store.appendDecision(event(root, written, Number(skewMs), session));
		written++;
		next += every;
		const wait = next - Date.now();
		if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
	}
	writing = false;
	await shipper;
	// Catch up until nothing is left (a killed shipper's lock goes stale first).
	const settings = settingsFrom(env, null);
	for (let round = 0; round < 120; round++) {
		await runShipper({ env, settings, lingerMs: 0 }).catch(() => new Promise((resolve) => setTimeout(resolve, 1000)));
		if ((await readBacklog(env)).total === 0) break;
	}
	process.send?.({ done: true, written, killed });
	process.exit(0);
}

function event(root, n, skewMs, session) {
	return {
		v: 1,
		at: Date.now() + skewMs,
		worktree: root,
		scope: null,
		harness: "claude-code",
		session,
		work: null,
		kind: "skip",
		reason: n % 3 === 0 ? "continue" : "duplicate",
		detail: `decision ${n} of ${session}`,
		figures: { open: 5, done: 3, stagnation: 0, turnsLeft: 30 },
	};
}

/** CPU seconds used so far by the postmaster and its children (from /proc). */
function postgresCpu(clusterDir) {
	const pid = Number(readFileSync(path.join(clusterDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
	const tick = 100;
	let total = 0;
	for (const entry of readdirSync("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			const ppid = Number(fields[1]);
			if (Number(entry) !== pid && ppid !== pid) continue;
			total += (Number(fields[11]) + Number(fields[12])) / tick;
			// Backends that ended (a shipper's connection closed) are counted in the postmaster's children's times.
			if (Number(entry) === pid) total += (Number(fields[13]) + Number(fields[14])) / tick;
		} catch {
			// The process ended between the listing and the read.
		}
	}
	return total;
}

async function parent() {
	const machines = Number(option("machines", 100));
	const sessions = Number(option("sessions", 10));
	const rate = Number(option("rate", 1000));
	const seconds = Number(option("seconds", 600));
	const pgDown = Number(option("pg-down", 0));
	const kills = Number(option("kills", 0));
	const skew = option("skew", false) === true;
	const useProxy = option("proxy", false) === true;
	const hooks = option("hooks", false) === true;
	const lingerMs = Number(option("linger-ms", 2000));
	const outName = String(option("out", "fleet-load"));
	const loadBefore = os.loadavg().map((value) => Math.round(value * 100) / 100);
	const cluster = await startPgCluster();
	const proxy = useProxy ? await startFlakyProxy({ port: cluster.port }) : null;
	const shipTo = proxy ? proxy.url(cluster.url) : cluster.url;
	const root = mkdtempSync(path.join(os.tmpdir(), "boulder-fleet-load-"));
	const admin = new pg.Client({ connectionString: cluster.url });
	try {
		const cpuBefore = postgresCpu(cluster.dir);
		const started = Date.now();
		const children = [];
		const answers = new Map();
		let written = 0;
		let shippersKilled = 0;
		const done = [];
		for (let i = 0; i < machines; i++) {
			const name = `m${String(i).padStart(3, "0")}`;
			const skewMs = skew ? (i % 2 === 0 ? 3_600_000 : -3_600_000) : 0;
			const proc = fork(
				fileURLToPath(import.meta.url),
				[
					"--child",
					name,
					path.join(root, name),
					shipTo,
					String(rate / 60 / machines),
					String(seconds),
					String(sessions),
					String(skewMs),
					String(lingerMs),
				],
				{ stdio: ["ignore", "ignore", "inherit", "ipc"] },
			);
			children.push(proc);
			done.push(
				new Promise((resolve) =>
					proc.on("message", (message) => {
						if ("killAnswer" in message) answers.get(proc)?.(message.killAnswer);
						if (message.done) {
							written += message.written;
							shippersKilled += message.killed;
							resolve();
						}
					}),
				),
			);
		}
		const faults = [];
		let pgIsDown = false;
		if (pgDown > 0) {
			faults.push(
				(async () => {
					await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 3));
					cluster.stop();
					pgIsDown = true;
					const at = Date.now();
					await new Promise((resolve) => setTimeout(resolve, pgDown * 1000));
					cluster.start();
					pgIsDown = false;
					return { pgDownMs: Date.now() - at };
				})(),
			);
		}
		let killed = 0;
		let killTries = 0;
		/** Asks a machine to SIGKILL its shipper; whether one was running to kill. */
		const askKill = (proc) =>
			new Promise((resolve) => {
				answers.set(proc, (landed) => {
					answers.delete(proc);
					resolve(landed);
				});
				proc.send({ kill: true });
			});
		if (kills > 0) {
			faults.push(
				(async () => {
					const every = (seconds * 1000 * 0.8) / kills;
					for (let k = 0; k < kills; k++) {
						await new Promise((resolve) => setTimeout(resolve, every));
						// The next machine whose shipper runs (while PostgreSQL is down, most are backing off).
						for (let i = 0; i < machines; i++) {
							killTries++;
							if (await askKill(children[(k + i) % machines])) break;
						}
						killed++;
					}
					return { killsSent: killed, killTries };
				})(),
			);
		}
		let writing = true;
		if (proxy) {
			faults.push(
				(async () => {
					// Pass, reset everything, pass, stall (hold every byte), … until the writers stop.
					const cycle = [
						["pass", 8_000],
						["drop", 4_000],
						["pass", 8_000],
						["stall", 10_000],
					];
					const spent = { pass: 0, drop: 0, stall: 0 };
					const end = started + seconds * 1000;
					for (let i = 0; Date.now() < end; i++) {
						const [mode, ms] = cycle[i % cycle.length];
						proxy.set(mode);
						const wait = Math.min(ms, end - Date.now());
						await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
						spent[mode] += Math.max(0, wait);
					}
					proxy.set("pass");
					return { proxySeconds: Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, Math.round(v / 1000)])) };
				})(),
			);
		}
		const phase = () => (proxy ? `proxy ${proxy.mode}` : pgIsDown ? "PostgreSQL down" : "PostgreSQL up");
		if (hooks) faults.push(hookProbe(root, phase, shipTo, () => writing));
		const writersDone = Promise.all(done).then(() => {
			writing = false;
		});
		const faultResults = Object.assign({}, ...(await Promise.all(faults)));
		writing = false;
		await writersDone;
		await admin.connect();
		const wallMs = Date.now() - started;
		const cpuAfter = postgresCpu(cluster.dir);
		const counts = await admin.query(
			"SELECT count(*)::bigint AS rows, count(DISTINCT (machine, worktree_id, rec_key))::bigint AS distinct_rows FROM boulder_decisions WHERE machine <> 'probe'",
		);
		const lag = await admin.query(
			`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM shipped_at) * 1000 - ((record->>'at')::bigint - CASE WHEN machine ~ '[02468]$' THEN $1::bigint ELSE -$1::bigint END)) AS p50,
			        percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM shipped_at) * 1000 - ((record->>'at')::bigint - CASE WHEN machine ~ '[02468]$' THEN $1::bigint ELSE -$1::bigint END)) AS p99
			 FROM boulder_decisions WHERE machine <> 'probe'`,
			[skew ? 3_600_000 : 0],
		);
		const size = await admin.query("SELECT pg_total_relation_size('boulder_decisions') AS bytes");
		const order = await admin.query(
			`SELECT count(*)::int AS out_of_order FROM (
			   SELECT seq, (regexp_match(record->>'detail', '^decision (\\d+)'))[1]::int AS n,
			          lag((regexp_match(record->>'detail', '^decision (\\d+)'))[1]::int) OVER (PARTITION BY machine, worktree_id ORDER BY seq) AS before
			   FROM boulder_decisions WHERE machine <> 'probe') t WHERE before IS NOT NULL AND n < before`,
		);
		const rows = Number(counts.rows[0].rows);
		const result = {
			at: new Date().toISOString(),
			scale: { machines, sessionsPerMachine: sessions, decisionsPerMinute: rate, seconds },
			faults: { pgDownSeconds: pgDown, kills, skewHours: skew ? 1 : 0, ...faultResults },
			loadBefore,
			load: os.loadavg().map((value) => Math.round(value * 100) / 100),
			cores: os.cpus().length,
			shipperLingerMs: lingerMs,
			written,
			shippersKilled,
			rows,
			distinctRows: Number(counts.rows[0].distinct_rows),
			duplicated: rows - Number(counts.rows[0].distinct_rows),
			lost: written - (rows - (rows - Number(counts.rows[0].distinct_rows))),
			outOfOrderBySeq: order.rows[0].out_of_order,
			shippingLagMs: { p50: Math.round(Number(lag.rows[0].p50)), p99: Math.round(Number(lag.rows[0].p99)) },
			postgresCpuSeconds: Math.round((cpuAfter - cpuBefore) * 100) / 100,
			postgresCpuShare: Math.round(((cpuAfter - cpuBefore) / (wallMs / 1000)) * 1000) / 1000,
			bytesPerDecisionRow: rows > 0 ? Math.round(Number(size.rows[0].bytes) / rows) : null,
			wallSeconds: Math.round(wallMs / 100) / 10,
		};
		mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
		writeFileSync(path.join(repoRoot, "bench", "results", `${outName}.json`), `${JSON.stringify(result, null, 2)}\n`);
		console.log(JSON.stringify(result, null, 2));
	} finally {
		await admin.end().catch(() => {});
		await proxy?.close();
		cluster.destroy();
		rmSync(root, { recursive: true, force: true });
	}
}

/**
 * The real Claude Code `Stop` hook (the bundle), again and again while the
 * load runs: once with the fleet on (through the proxy when there is one;
 * its hooks start its shippers) and once with it off, alternating, each
 * timed and filed under the proxy's mode (or whether PostgreSQL was up)
 * when it started.
 */
async function hookProbe(root, phase, url, running) {
	const { spawn } = await import("node:child_process");
	const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
	const session = createHookSession(path.join(root, "probe"), bundle);
	const on = { ...session.env, BOULDER_FLEET_URL: url, BOULDER_MACHINE: "probe", BOULDER_FLEET_LINGER_MS: "2000" };
	const times = {};
	const run = (env) =>
		new Promise((resolve, reject) => {
			session.restore();
			const start = performance.now();
			const child = spawn(process.execPath, [bundle, "Stop"], { env, cwd: session.project });
			let out = "";
			child.stdout.on("data", (chunk) => {
				out += chunk;
			});
			child.stdin.end(session.stopInput);
			child.on("error", reject);
			child.on("exit", (code) => {
				if (code !== 0 || !out.includes('"decision":"block"'))
					reject(new Error(`the hook did not nudge: ${code} ${out}`));
				else resolve(performance.now() - start);
			});
		});
	while (running()) {
		for (const [name, env] of [
			["fleet on", on],
			["fleet off", session.env],
		]) {
			const mode = phase();
			const ms = await run(env);
			const key = name === "fleet off" ? name : `${name}, ${mode}`;
			times[key] ??= [];
			times[key].push(ms);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	return {
		hookLatencyMs: Object.fromEntries(
			Object.entries(times).map(([key, samples]) => [key, { ...stats(samples), runs: samples.length }]),
		),
	};
}
