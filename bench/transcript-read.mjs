/**
 * What reading a Claude Code transcript costs the Stop hook, by the shape of
 * the transcript. Claude Code never trims a session's transcript, so a long
 * session's file reaches hundreds of MB; the hook reads it on every Stop.
 * What a decision needs is the current turn only (from the last real prompt
 * to the end), so the cost should follow the length of that turn, not of the
 * conversation.
 *
 * Shapes, each about 200 MB:
 * - `conversation`: many ordinary turns (lines of about 1.5 KB), a short last turn;
 * - `big-lines`: the same, but the last turn holds four tool results of 8 MB each;
 * - `no-newline`: one 200 MB line (not a transcript at all: what a hostile or
 *   broken file looks like);
 * - `long-turn`: a last turn that began 24 MB before the end (a long unattended run).
 *
 * For each: `readTurn` in this process (median of the runs, after two warm-up
 * runs), and the bundled Stop hook end to end (start to exit, with boulder
 * state for an active plan) on `conversation` and `no-newline`, beside a bare
 * `node -e 0` in the same runs.
 *
 * Run after `npm run build`: `node bench/transcript-read.mjs [runs]` (at
 * least 30). Writes `bench/results/transcript-read.json`. Timings are
 * reported, never asserted.
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
import { fileURLToPath, pathToFileURL } from "node:url";
import { stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
const reader = path.join(repoRoot, "dist", "adapters", "claude-code", "transcript.js");
if (!existsSync(bundle) || !existsSync(reader)) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const { readTurn } = await import(pathToFileURL(reader).href);

const RUNS = Math.max(30, Number(process.argv[2]) || 30);
const WARMUP = 2;
const MB = 1024 * 1024;
const SIZE = 200 * MB;
const SESSION = "5d0c8a5e-bench-4c1b-9a51-transcript01";
const LAST_REPLY = "Item 5 is done and its tests pass.";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-transcript-read-"));
const project = path.join(root, "project");
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	CLAUDE_PROJECT_DIR: project,
};

try {
	const shapes = {
		conversation: writeConversation("conversation.jsonl", { lastTurnBytes: 0, bigResults: 0 }),
		"big-lines": writeConversation("big-lines.jsonl", { lastTurnBytes: 0, bigResults: 4 }),
		"no-newline": writeNoNewline("no-newline.jsonl"),
		"long-turn": writeConversation("long-turn.jsonl", { lastTurnBytes: 24 * MB, bigResults: 0 }),
	};
	const inProcess = {};
	for (const [name, file] of Object.entries(shapes)) {
		const times = [];
		let reading = null;
		for (let run = 0; run < WARMUP + RUNS; run++) {
			const start = performance.now();
			reading = await readTurn(file, { expectLastText: LAST_REPLY, sleep: async () => {} });
			const ms = performance.now() - start;
			if (run >= WARMUP) times.push(ms);
		}
		inProcess[name] = {
			fileBytes: statSync(file).size,
			readTurnMs: stats(times),
			reading: {
				foundStart: reading.foundStart,
				calls: reading.calls,
				spend: reading.spend,
				skippedLines: reading.skippedLines,
				lagging: reading.lagging,
				limit: reading.limit ?? null,
			},
		};
		console.log(
			`readTurn ${name.padEnd(12)} ${(statSync(file).size / MB).toFixed(0)} MB: median ${inProcess[name].readTurnMs.median} ms (p90 ${inProcess[name].readTurnMs.p90}, min ${inProcess[name].readTurnMs.min}); start found: ${reading.foundStart}, calls: ${reading.calls}`,
		);
	}

	prepareProject();
	const hookShapes = ["conversation", "no-newline"];
	const hookTimes = Object.fromEntries(hookShapes.map((name) => [name, []]));
	const firstAnswers = {};
	const bareTimes = [];
	// Hook runs of each shape and of bare node alternate, so a busy machine slows them alike.
	for (let run = 0; run < WARMUP + RUNS; run++) {
		for (const name of hookShapes) {
			const input = JSON.stringify({
				session_id: SESSION,
				transcript_path: shapes[name],
				cwd: project,
				hook_event_name: "Stop",
				stop_hook_active: false,
				last_assistant_message: LAST_REPLY,
				background_tasks: [],
			});
			const { ms, stdout } = timed([bundle, "Stop"], input);
			firstAnswers[name] ??= stdout === "" ? "(nothing: the agent may stop)" : stdout.slice(0, 80);
			if (run >= WARMUP) hookTimes[name].push(ms);
		}
		const bare = timed(["-e", "0"], "");
		if (run >= WARMUP) bareTimes.push(bare.ms);
	}
	const hook = { bareNodeMs: stats(bareTimes) };
	console.log(`node -e 0              median ${hook.bareNodeMs.median} ms (p90 ${hook.bareNodeMs.p90})`);
	for (const name of hookShapes) {
		hook[name] = { stopHookMs: stats(hookTimes[name]), firstAnswer: firstAnswers[name] };
		console.log(
			`Stop hook ${name.padEnd(12)} median ${hook[name].stopHookMs.median} ms (p90 ${hook[name].stopHookMs.p90}); first answer: ${firstAnswers[name]}`,
		);
	}

	const result = {
		what: "reading the current turn of a ~200 MB Claude Code transcript: readTurn in process, and the bundled Stop hook end to end",
		command: "node bench/transcript-read.mjs",
		at: new Date().toISOString(),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		runs: RUNS,
		warmup: WARMUP,
		goal: "under 100 ms for a 200 MB conversation; the cost follows the current turn, not the file",
		inProcess,
		hook,
	};
	const out = path.join(repoRoot, "bench", "results", "transcript-read.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}

function timed(args, input) {
	const start = performance.now();
	const child = spawnSync(process.execPath, args, { input, env, cwd: project, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	return { ms, stdout: child.stdout };
}

/** A worktree with an active plan, so the Stop hook reads the transcript and decides. */
function prepareProject() {
	mkdirSync(path.join(project, ".git"), { recursive: true });
	writeFileSync(path.join(project, "PLAN.md"), "# Bench\n\n- [x] one\n- [ ] two\n- [ ] three\n");
	execFileSync(process.execPath, [path.join(repoRoot, "bin", "boulder.js"), "start", "PLAN.md"], {
		env,
		cwd: project,
		stdio: "ignore",
	});
}

/** A transcript shaped like Claude Code's: one line per content block, tool results as user lines. */
function writeConversation(name, { lastTurnBytes, bigResults }) {
	const file = path.join(root, name);
	const fd = openSync(file, "w");
	let size = 0;
	let parent = null;
	let n = 0;
	let pending = [];
	let pendingBytes = 0;
	const flush = () => {
		writeSync(fd, pending.join(""));
		pending = [];
		pendingBytes = 0;
	};
	const push = (line) => {
		const uuid = `00000000-0000-4000-8000-${String(n++).padStart(12, "0")}`;
		const text = `${JSON.stringify({
			parentUuid: parent,
			isSidechain: false,
			...line,
			uuid,
			timestamp: new Date(Date.UTC(2026, 10, 30, 9, 0, 0) + n * 1000).toISOString(),
			sessionId: SESSION,
			cwd: project,
			version: "2.1.197",
		})}\n`;
		parent = uuid;
		pending.push(text);
		pendingBytes += text.length;
		size += Buffer.byteLength(text);
		if (pendingBytes > 4 * MB) flush();
	};
	const usage = {
		input_tokens: 1200,
		cache_creation_input_tokens: 300,
		cache_read_input_tokens: 40000,
		output_tokens: 250,
	};
	const assistant = (id, content) =>
		push({
			type: "assistant",
			message: { id, type: "message", role: "assistant", model: "claude-opus-4-8", content, usage },
		});
	const filler = "x".repeat(1500);
	const calls = (turn, count, content) => {
		for (let call = 0; call < count; call++) {
			const id = `msg_${turn}_${call}`;
			const tool = `toolu_${turn}_${call}`;
			assistant(id, [{ type: "text", text: "Let me look at the next file." }]);
			assistant(id, [{ type: "tool_use", id: tool, name: "Bash", input: { command: `cat src/file${call}.ts` } }]);
			push({
				type: "user",
				message: { role: "user", content: [{ type: "tool_result", tool_use_id: tool, content }] },
				toolUseResult: { stdout: content, stderr: "" },
			});
		}
	};
	let turn = 0;
	const lastTurnFrom = SIZE - Math.max(lastTurnBytes, bigResults * 8 * MB) - 64 * 1024;
	while (size < lastTurnFrom) {
		push({ type: "user", promptId: `p${turn}`, message: { role: "user", content: `Turn ${turn}: carry on.` } });
		calls(turn, 6, filler);
		assistant(`msg_${turn}_end`, [{ type: "text", text: "Done for this turn." }]);
		turn++;
	}
	push({ type: "user", promptId: "p-last", message: { role: "user", content: "Carry on with the list." } });
	const lastStart = size;
	let call = 0;
	while (size - lastStart < lastTurnBytes) calls(`last_${call++}`, 1, filler);
	for (let index = 0; index < bigResults; index++) calls(`big_${index}`, 1, "y".repeat(4 * MB));
	calls("last_edit", 1, "ok");
	assistant("msg_last_end", [{ type: "text", text: LAST_REPLY }]);
	flush();
	closeSync(fd);
	return file;
}

function writeNoNewline(name) {
	const file = path.join(root, name);
	const fd = openSync(file, "w");
	const block = Buffer.alloc(4 * MB, "z");
	for (let written = 0; written < SIZE; written += block.length) writeSync(fd, block);
	closeSync(fd);
	return file;
}
