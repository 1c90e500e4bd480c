/**
 * Whether the fleet changes what a hook costs (docs/fleet.md): the bundled
 * Claude Code `Stop` hook of `bench/hook-latency.mjs` (same session, same
 * nudge, state restored before every run), timed with the fleet off, and
 * with the fleet configured while PostgreSQL is down (`BOULDER_FLEET_URL`
 * pointing at a closed loopback port), alternating run by run so a busy
 * machine slows both alike. With `--base <dist/hook/claude-code.cjs of
 * another build>` the same two are timed for that build too (the build
 * before the fleet: it ignores the variable).
 *
 * While PostgreSQL is down, the first hook starts a shipper, which fails and
 * backs off (5 s, doubling); the hooks in between start none. The number of
 * shippers started is reported (the shipper's failure count).
 *
 * Run after `npm run build`: `node bench/fleet-hook-latency.mjs [runs] [--base FILE]`.
 * Writes `bench/results/fleet-hook-latency.json`. Timings are reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createHookSession } from "./fixtures/hook-session.mjs";
import { stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
if (!existsSync(bundle)) {
	console.error("dist/hook/claude-code.cjs is missing: run `npm run build` first.");
	process.exit(1);
}
const args = process.argv.slice(2);
const baseAt = args.indexOf("--base");
const base = baseAt >= 0 ? path.resolve(args[baseAt + 1] ?? "") : null;
const RUNS = Math.max(10, Number(args.find((arg) => /^\d+$/.test(arg))) || 40);
const WARMUP = 3;

async function closedPort() {
	return new Promise((resolve) => {
		const server = createServer();
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

function timed(file, input, env, cwd) {
	const start = performance.now();
	const result = spawnSync(process.execPath, [file, "Stop"], { input, env, cwd, encoding: "utf8" });
	const ms = performance.now() - start;
	if (result.status !== 0) throw new Error(`hook exited ${result.status}: ${result.stderr}`);
	if (!result.stdout.includes('"decision":"block"')) throw new Error(`the hook did not nudge: ${result.stdout}`);
	return ms;
}

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-fleet-hook-"));
try {
	const session = createHookSession(root, bundle);
	const port = await closedPort();
	const down = {
		...session.env,
		BOULDER_FLEET_URL: `postgres://boulder@127.0.0.1:${port}/fleet`,
		BOULDER_MACHINE: "bench",
	};
	const variants = [
		{ name: "fleet off", file: bundle, env: session.env },
		{ name: "fleet on, PostgreSQL down", file: bundle, env: down },
		...(base
			? [
					{ name: "base build, fleet off", file: base, env: session.env },
					{ name: "base build, BOULDER_FLEET_URL set", file: base, env: down },
				]
			: []),
	];
	const times = Object.fromEntries(variants.map((variant) => [variant.name, []]));
	for (let run = 0; run < WARMUP + RUNS; run++) {
		for (const variant of variants) {
			session.restore();
			const ms = timed(variant.file, session.stopInput, variant.env, session.project);
			if (run >= WARMUP) times[variant.name].push(ms);
		}
	}
	const shipperFile = path.join(session.env.BOULDER_STATE_HOME, "fleet", "shipper.json");
	const shipper = existsSync(shipperFile) ? JSON.parse(readFileSync(shipperFile, "utf8")) : null;
	const result = {
		at: new Date().toISOString(),
		runs: RUNS,
		load: os.loadavg().map((value) => Math.round(value * 100) / 100),
		cores: os.cpus().length,
		node: process.version,
		base,
		variants: Object.fromEntries(Object.entries(times).map(([name, samples]) => [name, stats(samples)])),
		shippersStarted: shipper?.failures ?? 0,
		lastShipperError: shipper?.lastError?.message ?? null,
	};
	mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
	writeFileSync(
		path.join(repoRoot, "bench", "results", "fleet-hook-latency.json"),
		`${JSON.stringify(result, null, 2)}\n`,
	);
	console.log(
		`Claude Code Stop hook, ${RUNS} runs each, alternating (load ${result.load.join(" ")}, ${result.cores} cores):`,
	);
	for (const [name, s] of Object.entries(result.variants)) {
		console.log(`  ${name.padEnd(36)} median ${s.median} ms  (p90 ${s.p90}, min ${s.min})`);
	}
	console.log(`  shippers started while PostgreSQL was down: ${result.shippersStarted}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}
