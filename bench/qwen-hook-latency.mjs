/**
 * How long the bundled hook program takes for a Qwen Code `Stop`
 * (`node dist/hook/boulder-hook.cjs qwen Stop`), next to a bare `node -e 0`
 * measured in the same run: Qwen Code starts a process per hook event, so this
 * is what every turn pays. The Stop ends in a nudge (a list with open items,
 * a short transcript), the most work the hook does short of verify commands.
 * The state is reset before every run, outside the timing; hook and bare node
 * runs alternate, so a busy machine slows both alike.
 *
 * Run after `npm run build`: `node bench/qwen-hook-latency.mjs [runs]`. Writes
 * `bench/results/qwen-hook-latency.json`. Timings are reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(repoRoot, "dist", "hook", "boulder-hook.cjs");
if (!existsSync(bundle)) {
	console.error("dist/hook/boulder-hook.cjs is missing: run `npm run build` first.");
	process.exit(1);
}
const runs = Number(process.argv[2] ?? 21);
const root = mkdtempSync(path.join(os.tmpdir(), "boulder-qwen-bench-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
mkdirSync(path.join(project, ".git"), { recursive: true });
mkdirSync(home, { recursive: true });
const transcript = path.join(root, "chat.jsonl");
const todos = [1, 2, 3, 4, 5].map((n) => ({
	id: String(n),
	content: `Item ${n}`,
	status: n === 1 ? "in_progress" : "pending",
}));
const record = (type, message, extra = {}) => JSON.stringify({ uuid: `u${Math.random()}`, type, message, ...extra });
writeFileSync(
	transcript,
	`${[
		record("user", { role: "user", parts: [{ text: "Work through the list." }] }, { provenance: "real_user" }),
		record("assistant", {
			role: "model",
			parts: [{ functionCall: { id: "c1", name: "todo_write", args: { todos } } }],
		}),
		record("tool_result", {
			role: "user",
			parts: [{ functionResponse: { id: "c1", name: "todo_write", response: {} } }],
		}),
		record("assistant", { role: "model", parts: [{ text: "Started." }] }, { usageMetadata: { promptTokenCount: 100 } }),
	].join("\n")}\n`,
);
const env = { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, "state"), QWEN_PROJECT_DIR: project };
const base = {
	session_id: "bench",
	transcript_path: transcript,
	cwd: project,
	permission_mode: "yolo",
	prompt_id: "bench########0",
};
const run = (event, input) =>
	spawnSync(process.execPath, [bundle, "qwen", event], {
		input: JSON.stringify({ ...base, hook_event_name: event, ...input }),
		env,
	});

function reset() {
	rmSync(path.join(project, ".boulder"), { recursive: true, force: true });
	run("UserPromptSubmit", { prompt: "Work through the list.", submitted_prompt: "Work through the list." });
	run("PostToolUse", { tool_name: "todo_write", tool_input: { todos } });
}

const stopInput = { stop_hook_active: false, last_assistant_message: "Started.", background_tasks: [], crons: [] };
const time = (fn) => {
	const start = performance.now();
	fn();
	return performance.now() - start;
};
const hook = [];
const bare = [];
for (let i = 0; i < runs + 2; i++) {
	reset();
	const hookMs = time(() => {
		const result = run("Stop", stopInput);
		if (!result.stdout.toString().includes('"decision":"block"'))
			throw new Error(`no nudge: ${result.stdout}${result.stderr}`);
	});
	const bareMs = time(() => spawnSync(process.execPath, ["-e", "0"]));
	if (i >= 2) {
		hook.push(hookMs);
		bare.push(bareMs);
	}
}
rmSync(root, { recursive: true, force: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const result = {
	runs,
	node: process.version,
	hookStopMedianMs: Math.round(median(hook)),
	nodeBareMedianMs: Math.round(median(bare)),
};
mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
writeFileSync(
	path.join(repoRoot, "bench", "results", "qwen-hook-latency.json"),
	`${JSON.stringify(result, null, 2)}\n`,
);
console.log(
	`qwen Stop hook (ends in a nudge): median ${result.hookStopMedianMs} ms; node -e 0: median ${result.nodeBareMedianMs} ms (${runs} runs, ${process.version})`,
);
