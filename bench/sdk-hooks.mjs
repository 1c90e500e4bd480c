/**
 * What one event costs boulder's Claude Agent SDK hooks (`boulder-agent/sdk/claude`),
 * called in process as the SDK calls them: no process start, no module load, so
 * the time is the engine's own (reading the input, the state file under its lock,
 * the config, the transcript for a Stop, the decision and its log line).
 *
 * The session is the one the command-hook benchmarks use
 * (`fixtures/hook-session.mjs`): 20 todos (15 open), a 2 MB transcript whose
 * last turn is short, and a Stop that ends in a nudge. The state is restored
 * before every Stop, outside the timing, so every Stop does the same work.
 * The other events are timed as they come in a turn: the prompt
 * (UserPromptSubmit), a file edit asked (PreToolUse), the agent's list written
 * (PostToolUse TodoWrite).
 *
 * Run after `npm run build`: `node bench/sdk-hooks.mjs [runs]`. Writes
 * `bench/results/sdk-hooks.json`. Timings are reported, never asserted.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createHookSession, DONE, SESSION, TODOS } from "./fixtures/hook-session.mjs";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
const entry = path.join(repoRoot, "dist", "sdk", "claude.js");
for (const file of [bundle, entry]) {
	if (!existsSync(file)) {
		console.error(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first.`);
		process.exit(1);
	}
}
const { boulderHooks } = await import(entry);

const RUNS = Math.max(30, Number(process.argv[2]) || 200);
const WARMUP = 10;
const root = mkdtempSync(path.join(os.tmpdir(), "boulder-sdk-hooks-"));

try {
	const { project, transcript, env, stopInput, restore } = createHookSession(root, bundle);
	const hooks = boulderHooks({ env });
	const signal = new AbortController().signal;
	const call = (event, input) => hooks[event][0].hooks[0](input, undefined, { signal });
	const base = { session_id: SESSION, transcript_path: transcript, cwd: project, permission_mode: "default" };
	const todos = Array.from({ length: TODOS }, (_, index) => ({
		content: `Item ${index + 1}: update the module and its tests`,
		status: index < DONE ? "completed" : index === DONE ? "in_progress" : "pending",
		activeForm: `Working on item ${index + 1}`,
	}));
	const events = {
		Stop: { input: JSON.parse(stopInput), before: restore },
		UserPromptSubmit: { input: { ...base, hook_event_name: "UserPromptSubmit", prompt: "Carry on.", source: "sdk" } },
		PreToolUse: {
			input: {
				...base,
				hook_event_name: "PreToolUse",
				tool_name: "Edit",
				tool_input: { file_path: path.join(project, "src", "a.ts"), old_string: "a", new_string: "b" },
			},
		},
		PostToolUse: {
			input: {
				...base,
				hook_event_name: "PostToolUse",
				tool_name: "TodoWrite",
				tool_input: { todos },
				tool_response: { newTodos: todos },
			},
		},
	};
	const times = Object.fromEntries(Object.keys(events).map((name) => [name, []]));
	let nudges = 0;
	for (let run = 0; run < WARMUP + RUNS; run++) {
		for (const [name, { input, before }] of Object.entries(events)) {
			before?.();
			const start = performance.now();
			const output = await call(name, input);
			const ms = performance.now() - start;
			if (name === "Stop" && output.decision === "block") nudges++;
			if (run >= WARMUP) times[name].push(ms);
		}
		restore();
	}
	if (nudges !== WARMUP + RUNS) throw new Error(`the Stop nudged in ${nudges} of ${WARMUP + RUNS} runs, not every one`);
	const perEvent = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, stats(values)]));
	const all = stats(Object.values(times).flat());
	const commandHook = readCommandHook();
	const result = {
		what: "time of one boulderHooks() callback, called in process as the Claude Agent SDK calls it",
		command: `node bench/sdk-hooks.mjs ${RUNS}`,
		at: new Date().toISOString(),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		load: os.loadavg().map(round),
		runs: RUNS,
		warmup: WARMUP,
		input: {
			todos: TODOS,
			openTodos: TODOS - DONE,
			transcriptBytes: readFileSync(transcript).length,
			stop: "inject (every run)",
		},
		perEventMs: perEvent,
		allEventsMs: all,
		commandHookStopMs: commandHook,
	};
	const out = path.join(repoRoot, "bench", "results", "sdk-hooks.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`Claude Agent SDK hooks in process, ${RUNS} runs (20 todos, 2 MB transcript):`);
	for (const [name, figures] of Object.entries(perEvent)) {
		console.log(`  ${name.padEnd(17)} median ${figures.median} ms  (p90 ${figures.p90}, min ${figures.min})`);
	}
	console.log(`  every event       median ${all.median} ms`);
	if (commandHook)
		console.log(
			`  (the command hook's Stop, a process per event: median ${commandHook.median} ms, bench/results/hook-latency.json)`,
		);
} finally {
	rmSync(root, { recursive: true, force: true });
}

/** The command hook's Stop from the last `bench/hook-latency.mjs` run, for comparison; null when there is none. */
function readCommandHook() {
	try {
		return JSON.parse(readFileSync(path.join(repoRoot, "bench", "results", "hook-latency.json"), "utf8")).hookMs;
	} catch {
		return null;
	}
}
