/**
 * How long the bundled Claude Code `Stop` hook takes, next to a bare `node -e 0`
 * measured in the same run. Claude Code starts a new process for every hook
 * event, so this start-to-exit time is what every turn of the agent pays.
 *
 * It also times the two forms of the installed command, each run as Claude
 * Code runs it (`sh -c <command>`): pinned (this node and this hook program by
 * absolute path, for user and local settings) and portable (no path of this
 * machine, for the committed project settings; `hook-config.ts`), the latter
 * through each of its three ways of finding boulder: the project's
 * devDependency, the user's link, a global install on the PATH.
 *
 * The input is realistic: a session whose state holds 20 todos (15 open), a
 * 2 MB transcript whose last turn is short, and a Stop that ends in a nudge
 * (the most work the hook does short of running verify commands). The state
 * is restored before every run, outside the timing, so every run does the
 * same work. Runs of the hook and of bare node alternate, so a busy machine
 * slows both alike. The warm-up runs create the hook's V8 code cache (in the
 * throwaway HOME), as a user's first hook run does; the timed runs use it.
 *
 * Run after `npm run build`: `node bench/hook-latency.mjs [runs]`. Writes
 * `bench/results/hook-latency.json`. Timings are reported, never asserted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
if (!existsSync(bundle)) {
	console.error(`${path.relative(repoRoot, bundle)} is missing: run \`npm run build\` first.`);
	process.exit(1);
}
const { hookCommand, PORTABLE, HOOK_BIN, HOOK_LINK } = await import(
	path.join(repoRoot, "dist", "adapters", "claude-code", "hook-config.js")
);
const { hookLinkText } = await import(path.join(repoRoot, "dist", "adapters", "claude-code", "install.js"));

const RUNS = Math.max(30, Number(process.argv[2]) || 40);
const WARMUP = 3;
const TODOS = 20;
const DONE = 5;
const TRANSCRIPT_BYTES = 2 * 1024 * 1024;
const SESSION = "5d0c8a5e-bench-4c1b-9a51-latency00001";
const LAST_REPLY = "Item 5 is done and its tests pass. Moving on next time.";

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-hook-latency-"));
const project = path.join(root, "project");
const transcript = path.join(root, "home", ".claude", "projects", "-bench-project", `${SESSION}.jsonl`);
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	CLAUDE_PROJECT_DIR: project,
};

try {
	mkdirSync(path.join(project, ".git"), { recursive: true });
	mkdirSync(path.dirname(transcript), { recursive: true });
	writeTranscript();
	prepareState();
	const pristine = path.join(root, "pristine-state");
	cpSync(path.join(project, ".boulder"), pristine, { recursive: true });
	const stopInput = JSON.stringify({
		session_id: SESSION,
		transcript_path: transcript,
		cwd: project,
		prompt_id: "bench-prompt",
		permission_mode: "default",
		effort: { level: "high" },
		hook_event_name: "Stop",
		stop_hook_active: false,
		last_assistant_message: LAST_REPLY,
		background_tasks: [],
		session_crons: [],
	});
	const restore = () => {
		rmSync(path.join(project, ".boulder"), { recursive: true, force: true });
		cpSync(pristine, path.join(project, ".boulder"), { recursive: true });
	};

	const forms = installedForms();
	const hookTimes = [];
	const bareTimes = [];
	const formTimes = Object.fromEntries(forms.map((form) => [form.name, []]));
	let nudges = 0;
	for (let run = 0; run < WARMUP + RUNS; run++) {
		restore();
		const hook = timed(process.execPath, [bundle, "Stop"], stopInput);
		const bare = timed(process.execPath, ["-e", "0"], "");
		if (hook.stdout.includes('"decision":"block"')) nudges++;
		const ofForms = forms.map((form) => {
			restore();
			form.before?.();
			const result = timed("/bin/sh", ["-c", form.command], stopInput, form.env);
			form.after?.();
			if (!result.stdout.includes('"decision":"block"'))
				throw new Error(`${form.name} did not nudge: ${result.stdout}`);
			return result.ms;
		});
		if (run < WARMUP) continue;
		hookTimes.push(hook.ms);
		bareTimes.push(bare.ms);
		for (const [index, form] of forms.entries()) formTimes[form.name].push(ofForms[index]);
	}
	const memory = peakMemory(stopInput, restore);
	const hookStats = stats(hookTimes);
	const bareStats = stats(bareTimes);
	const formStats = Object.fromEntries(forms.map((form) => [form.name, stats(formTimes[form.name])]));
	const pinnedMedian = formStats.pinned.median;
	const result = {
		what: "wall time of the bundled Claude Code Stop hook (start to exit), beside `node -e 0` in the same run",
		command: `node ${path.relative(repoRoot, bundle)} Stop < stop-input.json`,
		at: new Date().toISOString(),
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		runs: RUNS,
		warmup: WARMUP,
		input: {
			todos: TODOS,
			openTodos: TODOS - DONE,
			transcriptBytes: statSync(transcript).size,
			decision: `inject (${nudges} of ${WARMUP + RUNS} runs nudged)`,
		},
		hookMs: hookStats,
		bareNodeMs: bareStats,
		ratio: round(hookStats.median / bareStats.median),
		goal: "median below 1.5 × bare node start-up",
		peakMemoryKb: memory,
		bundleBytes: statSync(bundle).size + statSync(path.join(path.dirname(bundle), "claude-code-main.cjs")).size,
		codeCache: "warm: the warm-up runs write V8's code cache, as a user's first hook run does",
		installedForms: {
			what: "the Stop hook as Claude Code runs an installed command: `sh -c <command>`, interleaved with the runs above",
			commands: Object.fromEntries(forms.map((form) => [form.name, withoutMachinePaths(form.command)])),
			ms: formStats,
			ratioToPinned: Object.fromEntries(
				forms.map((form) => [form.name, round(formStats[form.name].median / pinnedMedian)]),
			),
		},
	};
	const out = path.join(repoRoot, "bench", "results", "hook-latency.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(
		`Stop hook, ${RUNS} runs (20 todos, ${(result.input.transcriptBytes / 1048576).toFixed(1)} MB transcript):`,
	);
	console.log(`  hook       median ${hookStats.median} ms  (p90 ${hookStats.p90}, min ${hookStats.min})`);
	console.log(`  node -e 0  median ${bareStats.median} ms  (p90 ${bareStats.p90}, min ${bareStats.min})`);
	console.log(`  ratio      ${result.ratio} × (goal: below 1.5 ×)`);
	console.log(`  peak RSS   hook ${memory.hook} KB, bare node ${memory.bare} KB (${memory.how})`);
	console.log(`  nudged in  ${nudges} of ${WARMUP + RUNS} runs`);
	console.log("Installed command, run as `sh -c <command>` (medians):");
	for (const form of forms) {
		const { median, p90 } = formStats[form.name];
		const ratio = result.installedForms.ratioToPinned[form.name];
		console.log(`  ${form.name.padEnd(18)} ${median} ms  (p90 ${p90}; ${ratio} × pinned)`);
	}
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	rmSync(root, { recursive: true, force: true });
}

/**
 * The installed command in each form, with the environment that makes the
 * portable one find boulder one way: a devDependency (the project's
 * node_modules holds this package, only while that form runs), the user's
 * link, the PATH.
 */
function installedForms() {
	const stop = (form) => hookCommand(form, "Stop");
	const modules = path.join(project, "node_modules");
	const linked = path.join(root, "linked-data");
	mkdirSync(path.dirname(path.join(linked, HOOK_LINK)), { recursive: true });
	writeFileSync(path.join(linked, HOOK_LINK), hookLinkText(bundle));
	const bin = path.join(root, "global-bin");
	mkdirSync(bin);
	symlinkSync(bundle, path.join(bin, HOOK_BIN));
	const nothing = path.join(root, "no-data");
	return [
		{ name: "pinned", command: stop({ node: process.execPath, bundle, version: "bench" }), env },
		{
			name: "portable-devdep",
			command: stop(PORTABLE),
			env: { ...env, XDG_DATA_HOME: nothing },
			before: () => {
				mkdirSync(modules);
				symlinkSync(repoRoot, path.join(modules, "boulder-agent"), "junction");
			},
			after: () => rmSync(modules, { recursive: true, force: true }),
		},
		{ name: "portable-link", command: stop(PORTABLE), env: { ...env, XDG_DATA_HOME: linked } },
		{
			name: "portable-global",
			command: stop(PORTABLE),
			env: { ...env, XDG_DATA_HOME: nothing, PATH: `${bin}${path.delimiter}${env.PATH}` },
		},
	];
}

function timed(command, args, input, environment = env) {
	const start = performance.now();
	const child = spawnSync(command, args, { input, env: environment, cwd: project, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	return { ms, stdout: child.stdout };
}

/** Peak resident memory in KB, from `/usr/bin/time` when there is one, else from the process itself. */
function peakMemory(stopInput, restore) {
	const runs = 5;
	const time = ["/usr/bin/time", "/bin/time"].find((candidate) => existsSync(candidate));
	const measure = (args, input) => {
		let peak = 0;
		for (let run = 0; run < runs; run++) {
			restore();
			if (time) {
				const child = spawnSync(time, ["-f", "%M", process.execPath, ...args], { input, env, cwd: project });
				const lines = child.stderr.toString().trim().split("\n");
				peak = Math.max(peak, Number(lines.at(-1)) || 0);
			} else {
				const wrapper = `process.on("exit",()=>process.stderr.write("\\n"+process.resourceUsage().maxRSS));process.argv.splice(1,${args.length},...${JSON.stringify(args)});${
					args[0] === "-e" ? "" : `await import(${JSON.stringify(`file://${args[0]}`)});`
				}`;
				const child = spawnSync(process.execPath, ["--input-type=module", "-e", wrapper], { input, env, cwd: project });
				peak = Math.max(peak, Number(child.stderr.toString().trim().split("\n").at(-1)) || 0);
			}
		}
		return peak;
	};
	return {
		hook: measure([bundle, "Stop"], stopInput),
		bare: measure(["-e", "0"], ""),
		how: time ? `${time} -f %M, max of ${runs} runs` : `process.resourceUsage().maxRSS, max of ${runs} runs`,
	};
}

function stats(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
	const median =
		sorted.length % 2 === 1
			? sorted[(sorted.length - 1) / 2]
			: (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	return {
		median: round(median),
		p90: round(at(0.9)),
		min: round(sorted[0]),
		max: round(sorted.at(-1)),
		mean: round(values.reduce((sum, value) => sum + value, 0) / values.length),
	};
}

function round(value) {
	return Math.round(value * 100) / 100;
}

/** Runs the hook for the events that come before a Stop: a user prompt, then the agent's list. */
function prepareState() {
	const base = { session_id: SESSION, transcript_path: transcript, cwd: project };
	const todos = Array.from({ length: TODOS }, (_, index) => ({
		content: `Item ${index + 1}: update the module and its tests`,
		status: index < DONE ? "completed" : index === DONE ? "in_progress" : "pending",
		activeForm: `Working on item ${index + 1}`,
	}));
	const hook = (event, fields) =>
		execFileSync(process.execPath, [bundle, event], {
			input: JSON.stringify({ ...base, hook_event_name: event, ...fields }),
			env,
			cwd: project,
		});
	hook("UserPromptSubmit", { prompt: "Carry on with the list." });
	hook("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos }, tool_response: { newTodos: todos } });
}

/** A transcript shaped like Claude Code's: one line per content block, tool results as user lines. */
function writeTranscript() {
	const lines = [];
	let size = 0;
	let parent = null;
	let n = 0;
	const push = (line) => {
		const uuid = `00000000-0000-4000-8000-${String(n++).padStart(12, "0")}`;
		const full = {
			parentUuid: parent,
			isSidechain: false,
			...line,
			uuid,
			timestamp: new Date(Date.UTC(2026, 10, 30, 9, 0, 0) + n * 1000).toISOString(),
			sessionId: SESSION,
			cwd: project,
			version: "2.1.197",
		};
		parent = uuid;
		const text = JSON.stringify(full);
		lines.push(text);
		size += text.length + 1;
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
	let turn = 0;
	while (size < TRANSCRIPT_BYTES - 8000) {
		push({ type: "user", promptId: `p${turn}`, message: { role: "user", content: `Turn ${turn}: carry on.` } });
		for (let call = 0; call < 6; call++) {
			const id = `msg_${turn}_${call}`;
			const tool = `toolu_${turn}_${call}`;
			assistant(id, [{ type: "text", text: "Let me look at the next file." }]);
			assistant(id, [{ type: "tool_use", id: tool, name: "Bash", input: { command: `cat src/file${call}.ts` } }]);
			push({
				type: "user",
				message: { role: "user", content: [{ type: "tool_result", tool_use_id: tool, content: filler }] },
				toolUseResult: { stdout: filler, stderr: "" },
			});
		}
		assistant(`msg_${turn}_end`, [{ type: "text", text: "Done for this turn." }]);
		turn++;
	}
	push({ type: "user", promptId: "p-last", message: { role: "user", content: "Carry on with the list." } });
	assistant("msg_last_1", [{ type: "text", text: "Working on item 5." }]);
	assistant("msg_last_1", [{ type: "tool_use", id: "toolu_last", name: "Edit", input: { file_path: "a.ts" } }]);
	push({
		type: "user",
		message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_last", content: "ok" }] },
	});
	assistant("msg_last_2", [{ type: "text", text: LAST_REPLY }]);
	writeFileSync(transcript, `${lines.join("\n")}\n`);
}

/** The results name no path of the machine they ran on: this node and this copy of boulder are named by role. */
function withoutMachinePaths(command) {
	return command.replaceAll(process.execPath, "node").replaceAll(repoRoot, "<boulder>");
}
