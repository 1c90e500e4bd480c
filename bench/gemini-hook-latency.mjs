/**
 * How long the Gemini CLI `AfterAgent` hook takes (`boulder-hook.cjs gemini
 * AfterAgent`, start to exit), next to a bare `node -e 0` measured in the same
 * run. Gemini CLI starts a new process for every hook event, so this is what
 * the end of every turn pays; BeforeAgent and AfterTool (write_todos) do less.
 *
 * The input is realistic: a session whose state holds 20 todos (15 open), a
 * 2 MB transcript whose last turn is short (Gemini CLI's transcript is read
 * whole: it is a log of changes to one record), and an AfterAgent that ends in
 * a nudge. The state is restored before every run, outside the timing. Runs of
 * the hook and of bare node alternate, so a busy machine slows both alike.
 *
 * Run after `npm run build`: `node bench/gemini-hook-latency.mjs [runs]`.
 * Writes `bench/results/gemini-hook-latency.json`. Timings are reported, never
 * asserted.
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
const SESSION = "5d0c8a5e-bench-4c1b-9a51-gemini000001";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-gemini-hook-latency-"));
const project = path.join(root, "project");
const transcript = path.join(root, "home", ".gemini", "tmp", "project", "chats", `session-${SESSION}.jsonl`);
const env = benchEnv(root, { GEMINI_PROJECT_DIR: project });
const base = { session_id: SESSION, transcript_path: transcript, cwd: project, timestamp: new Date().toISOString() };
const todos = Array.from({ length: TODOS }, (_, index) => ({
	description: `Item ${index + 1}: a realistic description of the work to do`,
	status: index < DONE ? "completed" : index === DONE ? "in_progress" : "pending",
}));

try {
	mkdirSync(path.join(project, ".git"), { recursive: true });
	mkdirSync(path.dirname(transcript), { recursive: true });
	writeTranscript();
	hook("BeforeAgent", { ...base, hook_event_name: "BeforeAgent", prompt: "Work through the list." });
	hook("AfterTool", {
		...base,
		hook_event_name: "AfterTool",
		tool_name: "write_todos",
		tool_input: { todos },
		tool_response: { llmContent: "ok", returnDisplay: "ok" },
	});
	const restore = keepState(project, path.join(root, "pristine-state"));
	const afterAgent = JSON.stringify({
		...base,
		hook_event_name: "AfterAgent",
		prompt: "Work through the list.",
		prompt_response: "Item 5 is done and its tests pass.",
		stop_hook_active: false,
	});
	const measured = hookVsBare({
		runs: RUNS,
		warmup: WARMUP,
		restore,
		args: [bundle, "gemini", "AfterAgent"],
		input: afterAgent,
		place: { env, cwd: project },
		nudged: (stdout) => stdout.includes('"decision":"deny"'),
	});
	const transcriptBytes = statSync(transcript).size;
	report(
		repoRoot,
		"gemini-hook-latency",
		`Gemini AfterAgent hook, ${RUNS} runs (20 todos, ${(transcriptBytes / 1048576).toFixed(1)} MB transcript):`,
		{
			what: "wall time of the bundled Gemini CLI AfterAgent hook (start to exit), beside `node -e 0` in the same run",
			command: `node ${path.relative(repoRoot, bundle)} gemini AfterAgent < after-agent-input.json`,
			runs: RUNS,
			warmup: WARMUP,
			input: {
				todos: TODOS,
				openTodos: TODOS - DONE,
				transcriptBytes,
				decision: `inject (${measured.nudges} of ${WARMUP + RUNS} runs nudged)`,
			},
		},
		measured,
	);
} finally {
	rmSync(root, { recursive: true, force: true });
}

function hook(event, input) {
	runNode([bundle, "gemini", event], JSON.stringify(input), { env, cwd: project });
}

/** Earlier turns up to about 2 MB, then the current turn: the prompt, a write_todos call, and a finished reply. */
function writeTranscript() {
	const at = new Date().toISOString();
	const lines = [
		JSON.stringify({ sessionId: SESSION, projectHash: "bench", startTime: at, lastUpdated: at, kind: "main" }),
	];
	let size = 0;
	let id = 0;
	const tokens = { input: 4000, output: 300, cached: 2000, thoughts: 50, tool: 0, total: 4350 };
	const filler = "x".repeat(1500);
	while (size < TRANSCRIPT_BYTES) {
		const prompt = JSON.stringify({
			id: `m${id++}`,
			timestamp: at,
			type: "user",
			content: [{ text: `Earlier prompt ${filler}` }],
		});
		const reply = JSON.stringify({
			id: `m${id++}`,
			timestamp: at,
			type: "gemini",
			content: `Earlier reply ${filler}`,
			tokens,
		});
		lines.push(prompt, reply, JSON.stringify({ $set: { lastUpdated: at } }));
		size += prompt.length + reply.length + 40;
	}
	lines.push(
		JSON.stringify({ id: `m${id++}`, timestamp: at, type: "user", content: [{ text: "Work through the list." }] }),
	);
	const call = { id: `m${id++}`, timestamp: at, type: "gemini", content: "", tokens };
	lines.push(JSON.stringify(call));
	lines.push(
		JSON.stringify({ ...call, toolCalls: [{ id: "w1", name: "write_todos", args: { todos }, status: "success" }] }),
	);
	lines.push(
		JSON.stringify({
			id: `m${id++}`,
			timestamp: at,
			type: "user",
			content: [{ functionResponse: { id: "w1", name: "write_todos", response: { output: "ok" } } }],
		}),
	);
	lines.push(
		JSON.stringify({
			id: `m${id++}`,
			timestamp: at,
			type: "gemini",
			content: "Item 5 is done and its tests pass.",
			tokens,
		}),
	);
	writeFileSync(transcript, `${lines.join("\n")}\n`);
}
