/**
 * How long boulder's Codex `Stop` hook takes, next to a bare `node -e 0`
 * measured in the same run. Codex starts a new process for every hook event
 * (`boulder-hook.cjs codex <Event>`), so this start-to-exit time is what every
 * continuation pays. The installed pinned command, run as Codex runs it
 * (`sh -c <command>`), is timed beside it.
 *
 * The input is realistic: a session whose state holds 20 plan steps (15
 * open, from `update_plan`), a 2 MB rollout whose last turn is short, and a
 * Stop that ends in a nudge. The state is restored before every run, outside
 * the timing; runs of the hook and of bare node alternate, so a busy machine
 * slows both alike. The warm-up runs write the hook's V8 code cache.
 *
 * Run after `npm run build`: `node bench/codex-hook-latency.mjs [runs]`.
 * Writes `bench/results/codex-hook-latency.json`. Timings are reported, never
 * asserted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { machineFacts, round, stats } from "./fixtures/stats.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(repoRoot, "dist", "hook", "boulder-hook.cjs");
if (!existsSync(bundle)) {
	console.error(`${path.relative(repoRoot, bundle)} is missing: run \`npm run build\` first.`);
	process.exit(1);
}
const { hookCommand } = await import(path.join(repoRoot, "dist", "adapters", "codex", "hook-config.js"));

const RUNS = Math.max(30, Number(process.argv[2]) || 40);
const WARMUP = 3;
const STEPS = 20;
const DONE = 5;
const ROLLOUT_BYTES = 2 * 1024 * 1024;
const SESSION = "01a23189-e670-7682-b662-04236aa9bench";
const LAST_REPLY = "Step 5 is done and its tests pass.";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-codex-latency-"));
const project = path.join(root, "project");
const rollout = path.join(root, "home", ".codex", "sessions", `rollout-${SESSION}.jsonl`);
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	CODEX_HOME: path.join(root, "home", ".codex"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	XDG_CACHE_HOME: path.join(root, "cache"),
	BOULDER_STATE_HOME: path.join(root, "state"),
};
const base = { session_id: SESSION, turn_id: "turn-1", transcript_path: rollout, cwd: project, model: "gpt-5.5" };

try {
	mkdirSync(path.join(project, ".git"), { recursive: true });
	mkdirSync(path.dirname(rollout), { recursive: true });
	writeRollout();
	const hook = (event, fields) =>
		execFileSync(process.execPath, [bundle, "codex", event], {
			input: JSON.stringify({ ...base, hook_event_name: event, permission_mode: "default", ...fields }),
			env,
			cwd: project,
		});
	hook("UserPromptSubmit", { prompt: "Carry on with the plan." });
	const plan = Array.from({ length: STEPS }, (_, index) => ({
		step: `Step ${index + 1}: update the module and its tests`,
		status: index < DONE ? "completed" : index === DONE ? "in_progress" : "pending",
	}));
	hook("PostToolUse", { tool_name: "update_plan", tool_use_id: "call_1", tool_input: { plan }, tool_response: "ok" });
	const pristine = path.join(root, "pristine-state");
	cpSync(path.join(project, ".boulder"), pristine, { recursive: true });
	const restore = () => {
		rmSync(path.join(project, ".boulder"), { recursive: true, force: true });
		cpSync(pristine, path.join(project, ".boulder"), { recursive: true });
	};
	const stopInput = JSON.stringify({
		...base,
		hook_event_name: "Stop",
		permission_mode: "default",
		stop_hook_active: false,
		last_assistant_message: LAST_REPLY,
	});
	const pinned = hookCommand({ node: process.execPath, bundle, version: "bench" }, "Stop");
	const times = { hook: [], bare: [], pinned: [] };
	let nudges = 0;
	for (let run = 0; run < WARMUP + RUNS; run++) {
		restore();
		const one = timed(process.execPath, [bundle, "codex", "Stop"], stopInput);
		const bare = timed(process.execPath, ["-e", "0"], "");
		restore();
		const installed = timed("/bin/sh", ["-c", pinned], stopInput);
		if (one.stdout.includes('"decision":"block"') && installed.stdout.includes('"decision":"block"')) nudges++;
		if (run < WARMUP) continue;
		times.hook.push(one.ms);
		times.bare.push(bare.ms);
		times.pinned.push(installed.ms);
	}
	const hookMs = stats(times.hook);
	const bareNodeMs = stats(times.bare);
	const result = {
		what: "wall time of boulder's Codex Stop hook (start to exit), beside `node -e 0` in the same run",
		command: `node ${path.relative(repoRoot, bundle)} codex Stop < stop-input.json`,
		...machineFacts(),
		runs: RUNS,
		warmup: WARMUP,
		input: {
			planSteps: STEPS,
			openSteps: STEPS - DONE,
			rolloutBytes: statSync(rollout).size,
			decision: `inject (${nudges} of ${WARMUP + RUNS} runs nudged)`,
		},
		hookMs,
		bareNodeMs,
		ratio: round(hookMs.median / bareNodeMs.median),
		installedPinnedMs: stats(times.pinned),
	};
	const out = path.join(repoRoot, "bench", "results", "codex-hook-latency.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(
		`Codex Stop hook, ${RUNS} runs (20 plan steps, ${(result.input.rolloutBytes / 1048576).toFixed(1)} MB rollout):`,
	);
	console.log(`  hook            median ${hookMs.median} ms  (p90 ${hookMs.p90}, min ${hookMs.min})`);
	console.log(`  node -e 0       median ${bareNodeMs.median} ms  (p90 ${bareNodeMs.p90}, min ${bareNodeMs.min})`);
	console.log(`  ratio           ${result.ratio} ×`);
	console.log(`  sh -c (pinned)  median ${result.installedPinnedMs.median} ms`);
	console.log(`  nudged in       ${nudges} of ${WARMUP + RUNS} runs`);
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}

function timed(command, args, input) {
	const start = performance.now();
	const child = spawnSync(command, args, { input, env, cwd: project, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	return { ms, stdout: child.stdout };
}

/** A rollout shaped like Codex 0.171's: many earlier turns, then a short last one. */
function writeRollout() {
	const lines = [];
	let size = 0;
	let ordinal = 0;
	const push = (type, payload) => {
		const text = JSON.stringify({
			timestamp: new Date(Date.UTC(2026, 11, 1, 12) + ordinal * 1000).toISOString(),
			ordinal: ordinal++,
			type,
			payload,
		});
		lines.push(text);
		size += text.length + 1;
	};
	const filler = "x".repeat(1500);
	const usage = (response) => ({
		response_id: response,
		usage: { input_tokens: 40000, cached_input_tokens: 38000, cache_write_input_tokens: 0, output_tokens: 250 },
	});
	let turn = 0;
	const userTurn = (id, text) => {
		push("event_msg", { type: "task_started", turn_id: `turn-${id}` });
		push("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
		push("event_msg", { type: "item_completed", item: { type: "UserMessage", id: `user-${id}` } });
	};
	while (size < ROLLOUT_BYTES - 8000) {
		userTurn(turn, `Turn ${turn}: carry on.`);
		for (let call = 0; call < 6; call++) {
			const callId = `call_${turn}_${call}`;
			push("response_item", {
				type: "function_call",
				name: "exec_command",
				call_id: callId,
				arguments: '{"cmd":"cat a.ts"}',
			});
			push("token_usage_record", usage(`resp_${turn}_${call}`));
			push("response_item", { type: "function_call_output", call_id: callId, output: filler });
		}
		push("response_item", {
			type: "message",
			role: "assistant",
			content: [{ type: "output_text", text: "Done for this turn." }],
		});
		turn++;
	}
	userTurn("last", "Carry on with the plan.");
	push("token_usage_record", usage("resp_last"));
	push("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: LAST_REPLY }] });
	writeFileSync(rollout, `${lines.join("\n")}\n`);
}
