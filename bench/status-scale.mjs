/**
 * How long `boulder status --all --json` takes with 1,000 works across 100
 * worktrees. Builds the fixture in a temp folder (real plan files, works
 * files, scope files, decision logs and a user-level worktree index, plus a
 * few worktrees that vanished), then times the real bin as a child process
 * (what a person waits for), interleaved with `boulder --version` and a bare
 * `node -e 0` so a busy machine slows them alike, and `main()` in-process (the
 * reading itself). Each worktree keeps what status read of its plans
 * (`.boulder/plan-summaries.json`), so the timed runs parse no plan; a few
 * runs with those caches removed first time what the first status after every
 * plan changed costs.
 *
 * Run after `npm run build`: `node bench/status-scale.mjs`. Writes
 * `bench/results/status-scale.json`. Timings are reported, never asserted.
 * BENCH_RUNS sets the number of timed runs (default and least 30); BENCH_KEEP=1
 * keeps the fixture folder for a closer look and prints where it is.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = path.join(repoRoot, "dist");
if (!existsSync(path.join(dist, "cli", "main.js"))) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const { FileStore, recordWorktree, STATE_DIR_NAME, PLAN_SUMMARIES_FILE } = await import(
	path.join(dist, "state", "index.js")
);
const { SETTLE_MS } = await import(path.join(dist, "engine", "plan-files.js"));
const { main } = await import(path.join(dist, "cli", "main.js"));

const WORKTREES = 100;
const WORKS_PER_WORKTREE = 10;
const ITEMS_PER_PLAN = 20;
const DECISIONS_PER_WORKTREE = 300;
const VANISHED = 3;
const RUNS = Math.max(30, Number(process.env.BENCH_RUNS ?? 30) || 30);
const WARMUP = 2;
const COLD_RUNS = 5;
const STATUSES = ["active", "paused", "paused", "completed", "completed", "completed", "completed", "completed"];

const root = await mkdtemp(path.join(os.tmpdir(), "boulder-status-scale-"));
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	NO_COLOR: "1",
};
const start = Date.now() - 6 * 3600_000;

try {
	for (let w = 0; w < WORKTREES + VANISHED; w++) await buildWorktree(w);
	for (let v = 0; v < VANISHED; v++) await rm(worktreeDir(WORKTREES + v), { recursive: true, force: true });
	// A plan changed within the settle time is never kept: wait, as a person's plans have long settled.
	await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

	const cold = [];
	for (let run = 0; run < WARMUP + COLD_RUNS; run++) {
		for (let w = 0; w < WORKTREES; w++) {
			await rm(path.join(worktreeDir(w), STATE_DIR_NAME, PLAN_SUMMARIES_FILE), { force: true });
		}
		const ms = await timeBin(["status", "--all", "--json"]);
		if (run >= WARMUP) cold.push(ms);
	}

	const bin = [];
	const startup = [];
	const bare = [];
	// The warm-up runs write the CLI's code cache, as a user's first commands do.
	for (let run = 0; run < WARMUP + RUNS; run++) {
		const times = [
			await timeBin(["status", "--all", "--json"]),
			await timeBin(["--version"]),
			await timed(["-e", "0"]),
		];
		if (run < WARMUP) continue;
		bin.push(times[0]);
		startup.push(times[1]);
		bare.push(times[2]);
	}
	const inProcess = [];
	let report = null;
	for (let run = 0; run < RUNS + 1; run++) {
		const timed = await timeInProcess();
		report = timed.report;
		// The first in-process run loads modules and warms caches; it is not counted.
		if (run > 0) inProcess.push(timed.ms);
	}
	const works = report.worktrees.reduce((sum, worktree) => sum + worktree.works.length, 0);
	if (report.worktrees.length !== WORKTREES || works !== WORKTREES * WORKS_PER_WORKTREE) {
		throw new Error(`the report read ${report.worktrees.length} worktrees and ${works} works; the fixture is wrong`);
	}
	const results = {
		command: "boulder status --all --json",
		measuredAt: new Date().toISOString(),
		node: process.version,
		platform: `${os.platform()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		fixture: {
			worktrees: WORKTREES,
			works: works,
			itemsPerPlan: ITEMS_PER_PLAN,
			decisionsPerWorktree: DECISIONS_PER_WORKTREE,
			vanishedWorktrees: report.vanished.length,
		},
		bin: summary(bin, "node bin/boulder.js status --all --json, as a child process (includes Node start-up)"),
		binPlansChanged: summary(
			cold,
			"the same, with every worktree's plan-summary cache removed first: each plan is parsed, as after all of them changed",
		),
		binStartup: summary(startup, "node bin/boulder.js --version: Node and module start-up alone, for comparison"),
		bareNode: summary(bare, "node -e 0, interleaved with the two above"),
		binRatioToBareNode: Math.round((median(bin) / median(bare)) * 100) / 100,
		goal: "status --all under 300 ms as a process on an idle machine; on a loaded one, read binRatioToBareNode against bare node's idle start-up",
		inProcess: summary(inProcess, "main(['status', '--all', '--json']) in-process, after one warm-up run"),
	};
	await mkdir(path.join(here, "results"), { recursive: true });
	await writeFile(path.join(here, "results", "status-scale.json"), `${JSON.stringify(results, null, 2)}\n`);
	console.log(JSON.stringify(results, null, 2));
} finally {
	if (process.env.BENCH_KEEP === "1") console.error(`fixture kept in ${root}`);
	else await rm(root, { recursive: true, force: true });
}

function worktreeDir(w) {
	return path.join(root, "worktrees", `wt-${String(w).padStart(3, "0")}`);
}

async function buildWorktree(w) {
	const dir = worktreeDir(w);
	await mkdir(path.join(dir, ".git"), { recursive: true });
	const clock = { now: () => start + w * 1000 };
	const store = new FileStore(dir, { clock });
	const works = {};
	let activeWorkId = null;
	for (let k = 0; k < WORKS_PER_WORKTREE; k++) {
		const id = `plan-${k}`;
		const planPath = `plans/plan-${k}.md`;
		await mkdir(path.join(dir, "plans"), { recursive: true });
		await writeFile(path.join(dir, planPath), plan(k));
		const status = STATUSES[k % STATUSES.length];
		const live = status === "active" || status === "paused";
		if (status === "active") activeWorkId = id;
		const startedAt = start + k * 60_000;
		works[id] = {
			id,
			planPath,
			name: `Plan ${k} of worktree ${w}`,
			status,
			startedAt,
			endedAt: live ? null : startedAt + 3600_000,
			elapsedMs: live ? null : 3600_000,
			sessions: live ? [{ harness: "claude-code", sessionId: `session-${w}-${k}`, how: "direct", at: startedAt }] : [],
			agent: null,
			worktree: dir,
			subagentSessions: {},
			verify: [],
			verifyTimeoutMs: null,
			lastVerification: null,
		};
	}
	await store.updateWorks(() => ({
		result: undefined,
		next: { schemaVersion: 2, activeWorkId, stopped: null, works },
	}));
	for (let d = 0; d < DECISIONS_PER_WORKTREE; d++) {
		const k = d % WORKS_PER_WORKTREE;
		await store.appendDecision({
			v: 1,
			at: start + d * 10_000,
			worktree: dir,
			scope: `session.claude-code.session-${w}-${k}`,
			harness: "claude-code",
			session: `session-${w}-${k}`,
			work: `plan-${k}`,
			kind: d % 3 === 0 ? "inject" : "skip",
			reason: d % 3 === 0 ? "continue" : "awaiting-user",
			detail: d % 3 === 0 ? "5 item(s) still open; continuing with: item 6" : "a question is waiting for the user",
			figures: { open: 5, done: 15, blocked: 0, total: 20, stagnation: 0 },
			key: null,
			retryAt: null,
		});
	}
	await recordWorktree(dir, { env, clock });
}

function plan(k) {
	const items = [];
	for (let i = 0; i < ITEMS_PER_PLAN; i++) {
		const mark = i < ITEMS_PER_PLAN - 5 - (k % 3) ? "x" : i === ITEMS_PER_PLAN - 1 ? "~" : " ";
		items.push(`- [${mark}] item ${i + 1} of plan ${k}\n  - [ ] a criterion`);
	}
	return `---\nverify: npm test\n---\n# Plan ${k}\n\n${items.join("\n")}\n`;
}

async function timeBin(args) {
	return timed([path.join(repoRoot, "bin", "boulder.js"), ...args], (stdout) => {
		if (args[0] === "status") JSON.parse(stdout);
	});
}

async function timed(args, check = () => {}) {
	const began = performance.now();
	const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
	const ms = performance.now() - began;
	check(stdout);
	return ms;
}

function median(samples) {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function timeInProcess() {
	let out = "";
	const began = performance.now();
	const code = await main(["status", "--all", "--json"], {
		stdout: { write: (chunk) => (out += chunk) },
		stderr: { write: (chunk) => process.stderr.write(chunk) },
		env,
		cwd: root,
	});
	const ms = performance.now() - began;
	if (code !== 0) throw new Error(`boulder status --all exited ${code}`);
	return { ms, report: JSON.parse(out) };
}

function summary(samples, how) {
	const sorted = [...samples].sort((a, b) => a - b);
	const round = (value) => Math.round(value * 10) / 10;
	return {
		how,
		runs: sorted.length,
		medianMs: round(median(samples)),
		minMs: round(sorted[0]),
		maxMs: round(sorted[sorted.length - 1]),
	};
}
