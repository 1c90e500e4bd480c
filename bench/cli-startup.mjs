/**
 * How long `boulder` commands take as the process a person starts, beside a
 * bare `node -e 0` measured in the same run: `--version`, and `status` and
 * `why` in a project with a work under way, then `why` and `log -n 20` in a
 * project whose decision log has grown to 100 MB (what reading from the end
 * is for). Runs of every command and of bare node alternate, so a busy
 * machine slows them alike; the warm-up runs write the CLI's code cache (in
 * the throwaway HOME), as a user's first commands do.
 *
 * Run after `npm run build`: `node bench/cli-startup.mjs [runs]` (at least
 * 30). Writes `bench/results/cli-startup.json`. Reported, never asserted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bin = path.join(repoRoot, "bin", "boulder.js");
if (!existsSync(path.join(repoRoot, "dist", "cli", "boulder.cjs"))) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const RUNS = Math.max(30, Number(process.argv[2]) || 30);
const WARMUP = 2;
const LOG_BYTES = 100 * 1024 * 1024;

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-cli-startup-"));
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	NO_COLOR: "1",
};

try {
	const project = path.join(root, "project");
	mkdirSync(path.join(project, ".git"), { recursive: true });
	writeFileSync(path.join(project, "PLAN.md"), "# Bench\n\n- [x] one\n- [ ] two\n- [ ] three\n");
	execFileSync(process.execPath, [bin, "start", "PLAN.md"], { env, cwd: project, stdio: "ignore" });
	const bigLog = path.join(root, "big-log");
	mkdirSync(path.join(bigLog, ".git"), { recursive: true });
	writeFileSync(path.join(bigLog, "PLAN.md"), "# Bench\n\n- [x] one\n- [ ] two\n- [ ] three\n");
	execFileSync(process.execPath, [bin, "start", "PLAN.md"], { env, cwd: bigLog, stdio: "ignore" });
	const logFile = writeBigLog(bigLog);

	const subjects = [
		{ name: "node -e 0", args: ["-e", "0"], cwd: project },
		{ name: "boulder --version", args: [bin, "--version"], cwd: project, goal: 2 },
		{ name: "boulder status", args: [bin, "status"], cwd: project, goal: 2 },
		{ name: "boulder why", args: [bin, "why"], cwd: project, goal: 2 },
		{ name: "boulder why (100 MB log)", args: [bin, "why"], cwd: bigLog, goalMs: 150 },
		{ name: "boulder log -n 20 (100 MB log)", args: [bin, "log", "-n", "20"], cwd: bigLog, goalMs: 150 },
	];
	const times = subjects.map(() => []);
	for (let run = 0; run < WARMUP + RUNS; run++) {
		for (const [index, subject] of subjects.entries()) {
			const ms = timed(subject);
			if (run >= WARMUP) times[index].push(ms);
		}
	}
	const bare = stats(times[0]);
	const commands = Object.fromEntries(
		subjects.slice(1).map((subject, index) => {
			const ms = stats(times[index + 1]);
			const ratio = round(ms.median / bare.median);
			const goal = subject.goal
				? `median at most ${subject.goal} × bare node (${ratio <= subject.goal ? "met" : "not met"})`
				: `under ${subject.goalMs} ms as a process on an idle machine`;
			return [subject.name, { ms, ratioToBareNode: ratio, goal }];
		}),
	);
	const result = {
		what: "wall time of `boulder` commands as a process (start to exit), beside `node -e 0` in the same run",
		command: `node bench/cli-startup.mjs ${RUNS}`,
		at: new Date().toISOString(),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		runs: RUNS,
		warmup: WARMUP,
		decisionLogBytes: statSync(logFile).size,
		bareNodeMs: bare,
		commands,
	};
	const out = path.join(here, "results", "cli-startup.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`boulder commands, ${RUNS} runs each, interleaved with node -e 0 (median ${bare.median} ms):`);
	for (const [name, { ms, ratioToBareNode }] of Object.entries(commands)) {
		console.log(`  ${name.padEnd(32)} median ${ms.median} ms  (p90 ${ms.p90}; ${ratioToBareNode} × bare node)`);
	}
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}

function timed(subject) {
	const start = performance.now();
	const child = spawnSync(process.execPath, subject.args, { env, cwd: subject.cwd, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`${subject.name} exited ${child.status}: ${child.stderr}`);
	return ms;
}

/** Appends decision lines to the project's log until it holds LOG_BYTES, as a long-lived worktree's would. */
function writeBigLog(worktree) {
	const file = path.join(worktree, ".boulder", "decisions.jsonl");
	const fd = openSync(file, "a");
	let size = statSync(file).size;
	const start = Date.UTC(2026, 10, 1);
	let n = 0;
	while (size < LOG_BYTES) {
		const lines = [];
		for (let i = 0; i < 5000; i++, n++) {
			lines.push(
				JSON.stringify({
					v: 1,
					at: start + n * 1000,
					worktree,
					scope: `session.claude-code.session-${n % 7}`,
					harness: "claude-code",
					session: `session-${n % 7}`,
					work: "plan",
					kind: n % 3 === 0 ? "inject" : "skip",
					reason: n % 3 === 0 ? "continue" : "awaiting-user",
					detail: n % 3 === 0 ? "2 item(s) still open; continuing with: two" : "a question is waiting for the user",
					figures: { open: 2, done: 1, blocked: 0, total: 3, stagnation: 0 },
					key: null,
					retryAt: null,
				}),
			);
		}
		const text = `${lines.join("\n")}\n`;
		writeSync(fd, text);
		size += Buffer.byteLength(text);
	}
	closeSync(fd);
	return file;
}
