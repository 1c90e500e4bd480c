/**
 * How long the Qwen Code `Stop` hook takes (`boulder-hook.cjs qwen Stop`,
 * start to exit), next to a bare `node -e 0` measured in the same run. Qwen
 * Code starts a new process for every hook event, so this is what the end of
 * every turn pays.
 *
 * The input is realistic: a session whose state holds 20 todos (15 open), a
 * 2 MB transcript whose last turn is short, and a Stop that ends in a nudge
 * (the most work the hook does short of verify commands). The state is
 * restored before every run, outside the timing. The hook and bare node are
 * started alike and alternately (`fixtures/hook-bench.mjs`): the same node,
 * folder and small environment, not this process's.
 *
 * Run after `npm run build`: `node bench/qwen-hook-latency.mjs [runs]`. Writes
 * `bench/results/qwen-hook-latency.json`. Timings are reported, never asserted.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchEnv, hookVsBare, keepState, report, runNode } from "./fixtures/hook-bench.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(repoRoot, "dist", "hook", "boulder-hook.cjs");
if (!existsSync(bundle)) {
	console.error(`${path.relative(repoRoot, bundle)} is missing: run \`npm run build\` first.`);
	process.exit(1);
}

const RUNS = Math.max(30, Number(process.argv[2]) || 40);
const WARMUP = 3;
const TODOS = 20;
const DONE = 5;
const TRANSCRIPT_BYTES = 2 * 1024 * 1024;
const SESSION = "5d0c8a5e-bench-4c1b-9a51-qwen00000001";
const PROMPT = "Work through the list.";
const REPLY = "Item 6 is done and its tests pass.";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-qwen-hook-latency-"));
const project = path.join(root, "project");
const transcript = path.join(root, "home", ".qwen", "projects", "project", "chats", `${SESSION}.jsonl`);
const env = benchEnv(root, { QWEN_PROJECT_DIR: project });
const base = {
	session_id: SESSION,
	transcript_path: transcript,
	cwd: project,
	permission_mode: "yolo",
	prompt_id: `${SESSION}########0`,
};
const todos = Array.from({ length: TODOS }, (_, index) => ({
	id: String(index + 1),
	content: `Item ${index + 1}: a realistic description of the work to do`,
	status: index < DONE ? "completed" : index === DONE ? "in_progress" : "pending",
}));

try {
	mkdirSync(path.join(project, ".git"), { recursive: true });
	mkdirSync(path.dirname(transcript), { recursive: true });
	writeTranscript();
	hook("UserPromptSubmit", { prompt: PROMPT, submitted_prompt: PROMPT });
	hook("PostToolUse", { tool_name: "todo_write", tool_input: { todos }, tool_response: {} });
	const restore = keepState(project, path.join(root, "pristine-state"));
	const stop = JSON.stringify({
		...base,
		hook_event_name: "Stop",
		stop_hook_active: false,
		last_assistant_message: REPLY,
		background_tasks: [],
		crons: [],
	});
	const measured = hookVsBare({
		runs: RUNS,
		warmup: WARMUP,
		restore,
		args: [bundle, "qwen", "Stop"],
		input: stop,
		place: { env, cwd: project },
		nudged: (stdout) => stdout.includes('"decision":"block"'),
	});
	const transcriptBytes = statSync(transcript).size;
	report(
		repoRoot,
		"qwen-hook-latency",
		`Qwen Code Stop hook, ${RUNS} runs (${TODOS} todos, ${(transcriptBytes / 1048576).toFixed(1)} MB transcript):`,
		{
			what: "wall time of the bundled Qwen Code Stop hook (start to exit), beside `node -e 0` in the same run",
			command: `node ${path.relative(repoRoot, bundle)} qwen Stop < stop-input.json`,
			runs: RUNS,
			warmup: WARMUP,
			input: {
				todos: TODOS,
				openTodos: TODOS - DONE,
				transcriptBytes,
				decision: `block (${measured.nudges} of ${WARMUP + RUNS} runs nudged)`,
			},
		},
		measured,
	);
} finally {
	rmSync(root, { recursive: true, force: true });
}

function hook(event, input) {
	runNode([bundle, "qwen", event], JSON.stringify({ ...base, hook_event_name: event, ...input }), {
		env,
		cwd: project,
	});
}

/** Earlier prompts and final replies up to about 2 MB, then the current turn: the prompt, a todo_write call, and a finished reply. */
function writeTranscript() {
	let id = 0;
	const record = (type, message, extra = {}) =>
		JSON.stringify({
			uuid: `u${id++}`,
			sessionId: SESSION,
			timestamp: new Date(0).toISOString(),
			type,
			message,
			...extra,
		});
	const usage = { usageMetadata: { promptTokenCount: 4000, candidatesTokenCount: 300, totalTokenCount: 4300 } };
	const filler = "x".repeat(1500);
	const lines = [];
	let size = 0;
	while (size < TRANSCRIPT_BYTES) {
		const prompt = record("user", { role: "user", parts: [{ text: `Earlier prompt ${filler}` }] });
		const reply = record("assistant", { role: "model", parts: [{ text: `Earlier reply ${filler}` }] }, usage);
		lines.push(prompt, reply);
		size += prompt.length + reply.length + 2;
	}
	lines.push(
		record("user", { role: "user", parts: [{ text: PROMPT }] }),
		record(
			"assistant",
			{ role: "model", parts: [{ functionCall: { id: "c1", name: "todo_write", args: { todos } } }] },
			usage,
		),
		record("tool_result", {
			role: "user",
			parts: [{ functionResponse: { id: "c1", name: "todo_write", response: {} } }],
		}),
		record("assistant", { role: "model", parts: [{ text: REPLY }] }, usage),
	);
	writeFileSync(transcript, `${lines.join("\n")}\n`);
}
