/**
 * What the Claude Code `PreToolUse` hook on the file tools (Edit, MultiEdit,
 * Write, NotebookEdit) costs per edit, and what todo hygiene adds to it.
 * Claude Code starts a process for every such tool call, in every session,
 * since orchestrate mode installed the hook; todo hygiene rides on the same
 * process and adds a 16-byte append to the scope's tally per edit, with a
 * read of the marks before it (and, once per stretch, a line in the decision
 * log); it never takes a lock or rewrites the session's record.
 *
 * Five cases, interleaved run by run so a busy machine slows all alike:
 *
 * - `node -e 0`: a bare node start, the floor of any hook;
 * - hygiene off (`hygiene.editsBeforeReminder: 0`): the hook as orchestrate
 *   mode alone has it, for a session that is not orchestrating (reads the
 *   works file, answers nothing);
 * - hygiene counting (the default, 8): the same edit in the same session,
 *   the first of a stretch;
 * - hygiene within a stretch: the fourth edit of one: every edit but a
 *   stretch's first and the one that reminds;
 * - hygiene reminding: the eighth edit of a stretch, whose answer carries the
 *   reminder and which logs the decision.
 *
 * The session is the one the Stop benchmark uses (20 todos, 15 open;
 * `fixtures/hook-session.mjs`); the state is restored before every run,
 * outside the timing, so every run does the same work.
 *
 * Run after `npm run build`: `node bench/pretool-latency.mjs [runs]` (at
 * least 30). Writes `bench/results/pretool-latency.json`. Timings are
 * reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createHookSession, SESSION, TODOS } from "./fixtures/hook-session.mjs";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
if (!existsSync(bundle)) {
	console.error(`${path.relative(repoRoot, bundle)} is missing: run \`npm run build\` first.`);
	process.exit(1);
}

const RUNS = Math.max(30, Number(process.argv[2]) || 30);
const WARMUP = 3;
const THRESHOLD = 8;
const REMINDER = "[boulder · todo list]";
const ENGINE_CALLS = 200;

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-pretool-latency-"));

try {
	const counting = session("counting");
	const within = session("within", 3);
	const reminding = session("reminding", THRESHOLD - 1);
	const cases = [
		{ name: "bare", run: () => timed(["-e", "0"], "", counting).ms },
		{ name: "hygieneOff", run: () => edit(counting, 0, false) },
		{ name: "hygieneCounting", run: () => edit(counting, THRESHOLD, false) },
		{ name: "hygieneWithin", run: () => edit(within, THRESHOLD, false) },
		{ name: "hygieneReminding", run: () => edit(reminding, THRESHOLD, true) },
	];
	const times = Object.fromEntries(cases.map((one) => [one.name, []]));
	for (let run = 0; run < WARMUP + RUNS; run++) {
		for (const one of cases) {
			const ms = one.run();
			if (run >= WARMUP) times[one.name].push(ms);
		}
	}
	const ms = Object.fromEntries(cases.map((one) => [one.name, stats(times[one.name])]));
	const engine = await inProcess();
	const median = (name) => ms[name].median;
	const result = {
		what: "wall time of the bundled Claude Code PreToolUse hook on a file tool (start to exit), with todo hygiene off, counting and reminding, beside `node -e 0` in the same run",
		command: `node ${path.relative(repoRoot, bundle)} PreToolUse < pre-tool-use-input.json`,
		at: new Date().toISOString(),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		runs: RUNS,
		warmup: WARMUP,
		input: { todos: TODOS, tool: "Edit", threshold: THRESHOLD },
		ms,
		hygieneAddsMs: {
			counting: round(median("hygieneCounting") - median("hygieneOff")),
			within: round(median("hygieneWithin") - median("hygieneOff")),
			reminding: round(median("hygieneReminding") - median("hygieneOff")),
		},
		ratioToBareNode: Object.fromEntries(cases.map((one) => [one.name, round(median(one.name) / median("bare"))])),
		engine,
	};
	const out = path.join(repoRoot, "bench", "results", "pretool-latency.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`PreToolUse (Edit) hook, ${RUNS} interleaved runs, medians:`);
	for (const one of cases) {
		const { median: m, p90 } = ms[one.name];
		console.log(`  ${one.name.padEnd(18)} ${m} ms  (p90 ${p90}; ${result.ratioToBareNode[one.name]} × node -e 0)`);
	}
	console.log(
		`  hygiene adds      ${result.hygieneAddsMs.counting} ms starting a stretch, ${result.hygieneAddsMs.within} ms within one, ${result.hygieneAddsMs.reminding} ms reminding`,
	);
	console.log(
		`  in process        ${engine.ms.hygieneOff.median} ms off, ${engine.ms.hygieneCounting.median} ms counting (the engine's answer alone, ${ENGINE_CALLS} calls each)`,
	);
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}

/**
 * A session of its own under `root/name`, with `edits` file changes already
 * counted in its tally; returns what a run needs, with a `restore` to that
 * state.
 */
function session(name, edits = 0) {
	const base = path.join(root, name);
	mkdirSync(base);
	const made = createHookSession(base, bundle);
	configure(made, THRESHOLD);
	const input = JSON.stringify({
		session_id: SESSION,
		transcript_path: made.transcript,
		cwd: made.project,
		permission_mode: "default",
		hook_event_name: "PreToolUse",
		tool_name: "Edit",
		tool_input: { file_path: path.join(made.project, "src", "a.ts"), old_string: "a", new_string: "b" },
		tool_use_id: "toolu_bench",
	});
	for (let edit = 0; edit < edits; edit++) timed([bundle, "PreToolUse"], input, made);
	const pristine = path.join(base, "pristine-with-edits");
	cpSync(path.join(made.project, ".boulder"), pristine, { recursive: true });
	const restore = () => {
		rmSync(path.join(made.project, ".boulder"), { recursive: true, force: true });
		cpSync(pristine, path.join(made.project, ".boulder"), { recursive: true });
	};
	return { ...made, input, restore };
}

/** The project's boulder.config.json, so every case reads one: only the threshold differs. */
function configure(one, threshold) {
	writeFileSync(
		path.join(one.project, "boulder.config.json"),
		JSON.stringify({ hygiene: { editsBeforeReminder: threshold } }),
	);
}

/** One timed edit with this threshold, checking the answer is the one the case is about. */
function edit(one, threshold, reminds) {
	one.restore();
	configure(one, threshold);
	const { ms, stdout } = timed([bundle, "PreToolUse"], one.input, one);
	if (stdout.includes(REMINDER) !== reminds) {
		throw new Error(`expected ${reminds ? "a reminder" : "no reminder"}, the hook printed: ${stdout || "(nothing)"}`);
	}
	return ms;
}

/**
 * The engine's answer alone, in one process over the file store (what the
 * hook does after node has started, and what OpenCode pays in process):
 * hygiene off, and counting every call (a threshold never reached, so every
 * call is a mark in the tally), interleaved.
 */
async function inProcess() {
	const { Engine } = await import(path.join(repoRoot, "dist", "engine", "engine.js"));
	const { FileStore } = await import(path.join(repoRoot, "dist", "state", "file-store.js"));
	const { Config } = await import(path.join(repoRoot, "dist", "core", "config.js"));
	const { filePlans } = await import(path.join(repoRoot, "dist", "engine", "plan-files.js"));
	const worktree = path.join(root, "in-process");
	mkdirSync(worktree);
	const ref = { harness: "claude-code", sessionId: SESSION };
	const engineWith = (threshold) =>
		new Engine({
			store: new FileStore(worktree),
			config: Config.parse({ hygiene: { editsBeforeReminder: threshold } }),
			plans: filePlans,
		});
	const off = engineWith(0);
	const counting = engineWith(10_000);
	const todos = Array.from({ length: TODOS }, (_, index) => ({
		content: `Item ${index + 1}`,
		status: index < 5 ? "completed" : "pending",
	}));
	await off.todosChanged(ref, todos);
	const change = { tool: "Edit", files: [path.join(worktree, "src", "a.ts")] };
	const times = { hygieneOff: [], hygieneCounting: [] };
	for (let call = 0; call < ENGINE_CALLS; call++) {
		for (const [name, engine] of [
			["hygieneOff", off],
			["hygieneCounting", counting],
		]) {
			const start = performance.now();
			await engine.fileChangeAsked(ref, change);
			times[name].push(performance.now() - start);
		}
	}
	return {
		what: "engine.fileChangeAsked alone, in one process, over the file store",
		calls: ENGINE_CALLS,
		ms: { hygieneOff: stats(times.hygieneOff), hygieneCounting: stats(times.hygieneCounting) },
	};
}

function timed(args, input, { env, project }) {
	const start = performance.now();
	const child = spawnSync(process.execPath, args, { input, env, cwd: project, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	return { ms, stdout: child.stdout };
}
