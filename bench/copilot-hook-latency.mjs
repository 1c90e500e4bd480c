/**
 * How long the Copilot CLI `agentStop` hook takes (`boulder-hook.cjs copilot
 * agentStop`), next to a bare `node -e 0` measured in the same run. Copilot
 * starts a new process for every hook event, so this start-to-exit time is
 * what every turn of the agent pays.
 *
 * The input is realistic: a session database holding the agent's todo list
 * (the fixture shaped like Copilot 1.0.102's, two items open), a ~2 MB event
 * log of earlier turns whose last turn is short, and a stop that ends in a
 * nudge (the most work the hook does short of running verify commands: it
 * reads the turn, the database and the chain of earlier blocks). The state
 * is restored before every run, outside the timing. Runs of the hook and of
 * bare node alternate, so a busy machine slows both alike; warm-up runs
 * create the hook's V8 code cache, as a user's first hook run does.
 *
 * Run after `npm run build`: `node bench/copilot-hook-latency.mjs [runs]`.
 * Writes `bench/results/copilot-hook-latency.json`. Timings are reported,
 * never asserted.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const hook = path.join(repoRoot, "dist", "hook", "boulder-hook.cjs");
if (!existsSync(hook)) {
	console.error("dist/hook/boulder-hook.cjs is missing: run `npm run build` first.");
	process.exit(1);
}

const RUNS = Math.max(30, Number(process.argv[2]) || 40);
const WARMUP = 3;
const LOG_BYTES = 2 * 1024 * 1024;
const SESSION = "5d0c8a5e-bench-4c1b-9a51-copilot00001";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-copilot-latency-"));
const project = path.join(root, "project");
const sessionDir = path.join(root, "copilot-home", "session-state", SESSION);
const log = path.join(sessionDir, "events.jsonl");
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	XDG_CACHE_HOME: path.join(root, "cache"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	COPILOT_PROJECT_DIR: project,
};

let id = 0;
const line = (type, data) => JSON.stringify({ type, data, id: `e${++id}`, timestamp: new Date(0).toISOString() });
function turn(prompt, reply) {
	return [
		line("user.message", { content: prompt, delivery: "idle" }),
		line("assistant.turn_start", { turnId: "0" }),
		line("session.usage_record", { usage: { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 900 } }),
		line("assistant.message", { content: reply, toolRequests: [] }),
		line("assistant.turn_end", { turnId: "0" }),
		line("hook.start", { hookType: "agentStop", input: {} }),
		line("hook.end", { hookType: "agentStop", success: true }),
	];
}

mkdirSync(path.join(project, ".git"), { recursive: true });
mkdirSync(sessionDir, { recursive: true });
cpSync(path.join(repoRoot, "test", "fixtures", "copilot", "session-small.db"), path.join(sessionDir, "session.db"));
const earlier = [];
let size = 0;
for (let index = 0; size < LOG_BYTES; index++) {
	const lines = turn(
		`Earlier request ${index}: ${"context ".repeat(40)}`,
		`Earlier answer ${index}. ${"detail ".repeat(60)}`,
	);
	size += lines.reduce((sum, one) => sum + one.length + 1, 0);
	earlier.push(...lines);
}
const stopAt = Date.now();
// Copilot writes the hook's own `hook.start` line, its input with the same `timestamp`, before it runs the hook.
const current = [
	...turn("Work through the list.", "I made a start.").slice(0, 5),
	line("hook.start", { hookType: "agentStop", input: { timestamp: stopAt } }),
];
writeFileSync(log, `${[...earlier, ...current].join("\n")}\n`);
const input = JSON.stringify({
	sessionId: SESSION,
	timestamp: stopAt,
	cwd: project,
	transcriptPath: log,
	stopReason: "end_turn",
	stop_hook_active: false,
});

// The state a nudge starts from: the user's prompt seen, nothing decided yet. Restored before every run.
const prompt = JSON.stringify({
	sessionId: SESSION,
	timestamp: Date.now(),
	cwd: project,
	prompt: "Work through the list.",
});
const first = spawnSync(process.execPath, [hook, "copilot", "userPromptSubmitted"], {
	input: prompt,
	env,
	cwd: project,
});
if (first.status !== 0) throw new Error(`the hook failed: ${first.stderr}`);
const snapshot = path.join(root, "boulder-snapshot");
cpSync(path.join(project, ".boulder"), snapshot, { recursive: true });

function restore() {
	rmSync(path.join(project, ".boulder"), { recursive: true, force: true });
	cpSync(snapshot, path.join(project, ".boulder"), { recursive: true });
}

function time(command, args, stdin) {
	const start = performance.now();
	const result = spawnSync(command, args, { input: stdin, env, cwd: project });
	const elapsed = performance.now() - start;
	if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
	return { elapsed, stdout: result.stdout.toString() };
}

const hookTimes = [];
const nodeTimes = [];
for (let run = 0; run < WARMUP + RUNS; run++) {
	restore();
	const stop = time(process.execPath, [hook, "copilot", "agentStop"], input);
	if (!stop.stdout.includes('"decision":"block"'))
		throw new Error(`expected a nudge, got ${JSON.stringify(stop.stdout)}`);
	const bare = time(process.execPath, ["-e", "0"], "");
	if (run < WARMUP) continue;
	hookTimes.push(stop.elapsed);
	nodeTimes.push(bare.elapsed);
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (ms) => Math.round(ms * 10) / 10;
const result = {
	benchmark: "copilot-hook-latency",
	node: process.version,
	runs: RUNS,
	logBytes: size,
	medianMs: { agentStopHook: round(median(hookTimes)), bareNode: round(median(nodeTimes)) },
	overheadMs: round(median(hookTimes) - median(nodeTimes)),
};
mkdirSync(path.join(here, "results"), { recursive: true });
writeFileSync(path.join(here, "results", "copilot-hook-latency.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
rmSync(root, { recursive: true, force: true });
