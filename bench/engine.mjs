/**
 * The engine's own cost, beside a baseline measured in the same run:
 *
 * 1. one `onIdle` (decide + persist under the lock + log) with the file
 *    store, against a bare temp-write-rename of the same bytes (with and
 *    without fsync, since boulder's writes fsync the file and the folder);
 * 2. read-modify-write updates per second with 8 processes contending for one
 *    scope, against 8 processes doing bare temp-write-renames (no lock).
 *
 * Run after `npm run build`: `node bench/engine.mjs [runs]`. Writes
 * `bench/results/engine.json`. Reported, never asserted.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = path.join(repoRoot, "dist");
if (!existsSync(path.join(dist, "engine", "engine.js"))) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const { Engine } = await import(path.join(dist, "engine", "engine.js"));
const { filePlans } = await import(path.join(dist, "engine", "plan-files.js"));
const { FileStore } = await import(path.join(dist, "state", "file-store.js"));
const { Config } = await import(path.join(dist, "core", "config.js"));

const RUNS = Number(process.argv[2] ?? 200);
const WORKERS = 8;
const CONTENTION_MS = 3000;
const root = await mkdtemp(path.join(os.tmpdir(), "boulder-engine-bench-"));

try {
	const idle = await measureIdle();
	const contention = await measureContention();
	const result = {
		what: "engine onIdle with the file store, and 8-way contention, each beside a bare temp-write-rename of the same bytes",
		command: `node bench/engine.mjs ${RUNS}`,
		at: new Date().toISOString(),
		node: process.version,
		cpus: os.cpus().length,
		onIdle: idle,
		contention,
	};
	const out = path.join(repoRoot, "bench", "results", "engine.json");
	await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`onIdle (decide + persist + log), ${RUNS} runs: median ${idle.onIdleMs.median} ms`);
	console.log(
		`  bare temp-write-rename: ${idle.bareMs.median} ms; with fsync of file and folder: ${idle.bareFsyncMs.median} ms`,
	);
	console.log(`  ratio to the fsync'd baseline: ${idle.ratioToFsyncBaseline} ×`);
	console.log(`contention, ${WORKERS} processes × ${CONTENTION_MS} ms on one scope:`);
	console.log(
		`  locked updates: ${contention.lockedPerSecond}/s (final counter ${contention.finalCounter} = ${contention.totalUpdates} updates, none lost: ${contention.noneLost})`,
	);
	console.log(`  bare temp-write-renames (no lock): ${contention.barePerSecond}/s`);
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	await rm(root, { recursive: true, force: true });
}

async function measureIdle() {
	const worktree = path.join(root, "idle");
	await mkdir(path.join(worktree, ".git"), { recursive: true });
	const config = Config.parse({ stagnationLimit: 20, budgets: { autoTurns: 1000 } });
	const engine = new Engine({ store: new FileStore(worktree), config, plans: filePlans });
	const ref = { harness: "bench", sessionId: "ses_bench" };
	const list = (done) =>
		Array.from({ length: 20 }, (_, i) => ({ content: `Item ${i + 1}`, status: i < done ? "completed" : "pending" }));
	await engine.turnStarted(ref, "user");
	const times = [];
	let done = 0;
	for (let run = 0; run < RUNS + 5; run++) {
		done = done >= 19 ? 0 : done + 1;
		if (done === 0) await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, list(done));
		await engine.turnEnded(ref, { outcome: "end" });
		const start = performance.now();
		const decision = await engine.onIdle(ref, { lastAssistantText: "Done with one item." });
		const ms = performance.now() - start;
		if (decision.kind === "inject") await engine.delivered(ref, decision.key);
		if (run >= 5) times.push(ms);
	}
	const scopeFile = new FileStore(worktree).scopeFile(engine.scopeOf(ref));
	const bytes = await readFile(scopeFile);
	const bare = [];
	const bareFsync = [];
	const target = path.join(root, "bare.json");
	for (let run = 0; run < RUNS; run++) {
		bare.push(timeWrite(target, bytes, false));
		bareFsync.push(timeWrite(target, bytes, true));
	}
	const onIdleMs = stats(times);
	const bareFsyncMs = stats(bareFsync);
	return {
		onIdleMs,
		bareMs: stats(bare),
		bareFsyncMs,
		ratioToFsyncBaseline: round(onIdleMs.median / bareFsyncMs.median),
		stateBytes: bytes.length,
	};
}

function timeWrite(target, bytes, sync) {
	const start = performance.now();
	const temp = `${target}.tmp`;
	const fd = openSync(temp, "w", 0o600);
	writeSync(fd, bytes);
	if (sync) fsyncSync(fd);
	closeSync(fd);
	renameSync(temp, target);
	if (sync) {
		const dir = openSync(path.dirname(target), "r");
		fsyncSync(dir);
		closeSync(dir);
	}
	return performance.now() - start;
}

async function measureContention() {
	const worktree = path.join(root, "contention");
	await mkdir(path.join(worktree, ".git"), { recursive: true });
	const child = path.join(here, "children", "contend.mjs");
	const run = (mode) =>
		Promise.all(
			Array.from(
				{ length: WORKERS },
				() =>
					new Promise((resolve, reject) => {
						const proc = spawn(process.execPath, [child, mode, worktree, String(CONTENTION_MS)], {
							stdio: ["ignore", "pipe", "inherit"],
						});
						let out = "";
						proc.stdout.on("data", (chunk) => {
							out += chunk;
						});
						proc.on("close", (code) =>
							code === 0 ? resolve(Number(out)) : reject(new Error(`worker exited ${code}`)),
						);
					}),
			),
		);
	const locked = await run("locked");
	const totalUpdates = locked.reduce((a, b) => a + b, 0);
	const state = JSON.parse(await readFile(new FileStore(worktree).scopeFile("bench.contention"), "utf8"));
	const bare = await run("bare");
	const bareTotal = bare.reduce((a, b) => a + b, 0);
	return {
		workers: WORKERS,
		ms: CONTENTION_MS,
		totalUpdates,
		finalCounter: state.state.seq,
		noneLost: state.state.seq === totalUpdates,
		lockedPerSecond: Math.round(totalUpdates / (CONTENTION_MS / 1000)),
		barePerSecond: Math.round(bareTotal / (CONTENTION_MS / 1000)),
	};
}
