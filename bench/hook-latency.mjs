/**
 * How long the bundled Claude Code `Stop` hook takes, next to a bare `node -e 0`
 * measured in the same run. Claude Code starts a new process for every hook
 * event, so this start-to-exit time is what every turn of the agent pays.
 *
 * The goal figures (`realPath`) time the path a user's hook takes when it
 * continues a plan: a project outside this repository with boulder as a
 * devDependency, the portable command exactly as `boulder install
 * claude-code --project` wrote it into `.claude/settings.json`, run through
 * `sh -c` as Claude Code runs it, on a started plan with open items and the
 * state already there (`fixtures/plan-session.mjs`); and the PreToolUse hook
 * the same way. `stop` and `preToolUse` are the hook that binds the work to
 * its session (a durable, locked write of the works file more): the first
 * Stop or edit of the first session after `boulder start` (or a handover),
 * once per work. The Stop of a session already bound to its work
 * (`stopBound`) is every other Stop, and likewise the PreToolUse of a session
 * already bound (`preToolUseBound`: every other edit), and that
 * bound PreToolUse again in a project with a `boulder.config.json`
 * (`preToolUseBoundConfig`, `PROJECT_CONFIG`: every hook loads it), and the
 * PreToolUse of an edit within a stretch of todo hygiene's count
 * (`preToolUseEditing`: every edit but the first after the list changed,
 * which starts the stretch; both only append a mark to the scope's tally,
 * `core/hygiene.ts`, and neither rewrites the session's record). The figures
 * below them (`hookMs`) start the loader directly (`node <loader> Stop`),
 * which leaves out the shell, the PATH lookup of node
 * and the finder, and read a todo list, not a plan: they measure the bundle,
 * not what a user waits for, and so came out lower than a user's.
 * Where `/proc` has them, each run's CPU time (the child's user and system
 * time, from `/proc/self/stat`, in 10 ms ticks: report the mean) is given
 * too: on a loaded machine it moves much less than the wall time.
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
 * Every Stop also starts the watcher (the second Stop registration,
 * `Watchdog`, run in the background beside the Stop hook): with no subagent
 * running, as here, it reads the input and ends. Its time is reported too.
 *
 * Run after `npm run build`: `node bench/hook-latency.mjs [runs]`. Writes
 * `bench/results/hook-latency.json`. Timings are reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createHookSession, DONE, TODOS } from "./fixtures/hook-session.mjs";
import { createPlanSession, PROJECT_CONFIG } from "./fixtures/plan-session.mjs";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const bundle = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
if (!existsSync(bundle)) {
	console.error(`${path.relative(repoRoot, bundle)} is missing: run \`npm run build\` first.`);
	process.exit(1);
}
const dist = (...parts) => path.join(repoRoot, "dist", "adapters", ...parts);
const { hookCommand, HOOK_BIN, HOOK_LINK, LINK } = await import(dist("claude-code", "dialect.js"));
const { PORTABLE } = await import(dist("shared", "hook-form.js"));
const { hookLinkText } = await import(dist("shared", "hook-link.js"));

const RUNS = Math.max(30, Number(process.argv[2]) || 40);
const WARMUP = 3;

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-hook-latency-"));

try {
	const { project, transcript, env, stopInput, restore } = createHookSession(root, bundle);

	const forms = installedForms(env, project);
	const plan = createPlanSession(root, repoRoot);
	mkdirSync(path.join(root, "configured"));
	const configured = createPlanSession(path.join(root, "configured"), repoRoot, { config: PROJECT_CONFIG });
	const real = {
		stop: [],
		stopBound: [],
		preToolUse: [],
		preToolUseBound: [],
		preToolUseBoundConfig: [],
		preToolUseEditing: [],
		bare: [],
		stopCpu: [],
		stopBoundCpu: [],
		preToolUseCpu: [],
		preToolUseBoundCpu: [],
		preToolUseBoundConfigCpu: [],
		preToolUseEditingCpu: [],
		bareCpu: [],
	};
	const hookTimes = [];
	const bareTimes = [];
	const watcherTimes = [];
	const formTimes = Object.fromEntries(forms.map((form) => [form.name, []]));
	let nudges = 0;
	for (let run = 0; run < WARMUP + RUNS; run++) {
		restore();
		const hook = timed(process.execPath, [bundle, "Stop"], stopInput, env, project);
		const bare = timed(process.execPath, ["-e", "0"], "", env, project);
		if (hook.stdout.includes('"decision":"block"')) nudges++;
		const watcher = timed(process.execPath, [bundle, "Watchdog"], stopInput, env, project);
		const ofForms = forms.map((form) => {
			restore();
			form.before?.();
			const result = timed("/bin/sh", ["-c", form.command], stopInput, form.env, project);
			form.after?.();
			if (!result.stdout.includes('"decision":"block"'))
				throw new Error(`${form.name} did not nudge: ${result.stdout}`);
			return result.ms;
		});
		plan.restore();
		const realStop = timed("/bin/sh", ["-c", plan.stopCommand], plan.stopInput, plan.env, plan.project);
		if (!realStop.stdout.includes('"decision":"block"'))
			throw new Error(`the plan's Stop did not nudge: ${realStop.stdout}`);
		const realBare = timed(process.execPath, ["-e", "0"], "", plan.env, plan.project);
		// Unbound again: the Stop just before bound the session.
		plan.restore();
		const realPre = timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, plan.env, plan.project);
		plan.restoreBound();
		const realBound = timed("/bin/sh", ["-c", plan.stopCommand], plan.stopInput, plan.env, plan.project);
		if (!realBound.stdout.includes('"decision":"block"'))
			throw new Error(`the bound session's Stop did not nudge: ${realBound.stdout}`);
		plan.restoreBound();
		const realPreBound = timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, plan.env, plan.project);
		plan.restoreEditing();
		const realPreEditing = timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, plan.env, plan.project);
		configured.restoreBound();
		const realPreConfig = timed(
			"/bin/sh",
			["-c", configured.preToolCommand],
			configured.preToolInput,
			configured.env,
			configured.project,
		);
		if (run < WARMUP) continue;
		real.preToolUseEditing.push(realPreEditing.ms);
		real.preToolUseEditingCpu.push(realPreEditing.cpuMs);
		real.preToolUseBoundConfig.push(realPreConfig.ms);
		real.preToolUseBoundConfigCpu.push(realPreConfig.cpuMs);
		real.preToolUseBound.push(realPreBound.ms);
		real.preToolUseBoundCpu.push(realPreBound.cpuMs);
		real.stopBound.push(realBound.ms);
		real.stopBoundCpu.push(realBound.cpuMs);
		real.stop.push(realStop.ms);
		real.bare.push(realBare.ms);
		real.preToolUse.push(realPre.ms);
		real.stopCpu.push(realStop.cpuMs);
		real.bareCpu.push(realBare.cpuMs);
		real.preToolUseCpu.push(realPre.cpuMs);
		hookTimes.push(hook.ms);
		bareTimes.push(bare.ms);
		watcherTimes.push(watcher.ms);
		for (const [index, form] of forms.entries()) formTimes[form.name].push(ofForms[index]);
	}
	const memory = peakMemory({ stopInput, restore, env, project });
	const hookStats = stats(hookTimes);
	const bareStats = stats(bareTimes);
	const watcherStats = stats(watcherTimes);
	const formStats = Object.fromEntries(forms.map((form) => [form.name, stats(formTimes[form.name])]));
	const pinnedMedian = formStats.pinned.median;
	const realStats = {
		stop: stats(real.stop),
		stopBound: stats(real.stopBound),
		preToolUse: stats(real.preToolUse),
		preToolUseBound: stats(real.preToolUseBound),
		preToolUseBoundConfig: stats(real.preToolUseBoundConfig),
		preToolUseEditing: stats(real.preToolUseEditing),
		bareNode: stats(real.bare),
	};
	const cpuMean = (values) => (values.includes(null) ? null : round(values.reduce((a, b) => a + b, 0) / values.length));
	const realCpu = {
		stop: cpuMean(real.stopCpu),
		stopBound: cpuMean(real.stopBoundCpu),
		preToolUse: cpuMean(real.preToolUseCpu),
		preToolUseBound: cpuMean(real.preToolUseBoundCpu),
		preToolUseBoundConfig: cpuMean(real.preToolUseBoundConfigCpu),
		preToolUseEditing: cpuMean(real.preToolUseEditingCpu),
		bareNode: cpuMean(real.bareCpu),
	};
	const load = os.loadavg().map(round);
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
		loadAverage: load,
		realPath: {
			what: "a started plan with open items, state already there, the portable command as installed (devDependency), run through `sh -c`; interleaved with `node -e 0` from the same folder. `stop` and `preToolUse` are the Stop and the edit that bind the work to its session (one more durable write: the works file), the first of the first session after `boulder start` or a handover, once per work; `stopBound` and `preToolUseBound` are every other one, the session already bound; `preToolUseBoundConfig` is the latter in a project with a boulder.config.json; `preToolUseEditing` an edit within a stretch of todo hygiene's count (every edit but a stretch's first)",
			ms: realStats,
			ratio: {
				stop: round(realStats.stop.median / realStats.bareNode.median),
				stopBound: round(realStats.stopBound.median / realStats.bareNode.median),
				preToolUse: round(realStats.preToolUse.median / realStats.bareNode.median),
				preToolUseBound: round(realStats.preToolUseBound.median / realStats.bareNode.median),
				preToolUseBoundConfig: round(realStats.preToolUseBoundConfig.median / realStats.bareNode.median),
				preToolUseEditing: round(realStats.preToolUseEditing.median / realStats.bareNode.median),
			},
			goal: { stop: "median at most 1.5 × node -e 0", preToolUse: "median at most 1.3 × node -e 0" },
			cpuMeanMs: realCpu,
			cpuRatio:
				realCpu.bareNode === null || realCpu.bareNode === 0
					? null
					: {
							stop: round(realCpu.stop / realCpu.bareNode),
							stopBound: round(realCpu.stopBound / realCpu.bareNode),
							preToolUse: round(realCpu.preToolUse / realCpu.bareNode),
							preToolUseBound: round(realCpu.preToolUseBound / realCpu.bareNode),
							preToolUseBoundConfig: round(realCpu.preToolUseBoundConfig / realCpu.bareNode),
							preToolUseEditing: round(realCpu.preToolUseEditing / realCpu.bareNode),
						},
		},
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
		watcher: {
			what: "the watcher Claude Code starts beside every Stop hook (`Watchdog`, in the background), with no subagent running: it reads the input and ends",
			ms: watcherStats,
			ratio: round(watcherStats.median / bareStats.median),
		},
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
	// Every Stop against the Stop goal, every PreToolUse against its own.
	const goalOf = (key) => (key.startsWith("stop") ? 1.5 : 1.3);
	result.realPath.goalMet = Object.fromEntries(
		Object.entries(result.realPath.ratio).map(([key, ratio]) => [key, ratio <= goalOf(key)]),
	);
	const out = path.join(repoRoot, "bench", "results", "hook-latency.json");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	const { ratio: realRatio } = result.realPath;
	console.log(
		`The real path, ${RUNS} interleaved runs (a started plan, the portable command as installed, sh -c; load ${load.join(" ")}):`,
	);
	const rows = [
		["Stop, binding", "stop", "binds the work to its session: once per work"],
		["Stop, bound", "stopBound", "every other Stop: the state already there"],
		["PreToolUse, binding", "preToolUse", "binds the work to its session: once per work"],
		["PreToolUse, bound", "preToolUseBound", "an edit that starts a stretch of todo hygiene's count"],
		["PreToolUse, editing", "preToolUseEditing", "an edit within a stretch: all but its first"],
		["PreToolUse, bound, config", "preToolUseBoundConfig", "the bound one with a boulder.config.json"],
	];
	for (const [label, key, what] of rows) {
		const goal = `goal at most ${goalOf(key)} ×: ${result.realPath.goalMet[key] ? "met" : "over"}`;
		console.log(`  ${label.padEnd(26)} median ${realStats[key].median} ms, ${realRatio[key]} × (${goal}; ${what})`);
	}
	console.log(`  ${"node -e 0".padEnd(26)} median ${realStats.bareNode.median} ms`);
	if (result.realPath.cpuRatio)
		console.log(
			`  CPU (mean)  Stop ${realCpu.stop} ms (${result.realPath.cpuRatio.stop} ×), bound ${realCpu.stopBound} ms (${result.realPath.cpuRatio.stopBound} ×), PreToolUse ${realCpu.preToolUse} ms (${result.realPath.cpuRatio.preToolUse} ×), bound ${realCpu.preToolUseBound} ms (${result.realPath.cpuRatio.preToolUseBound} ×), editing ${realCpu.preToolUseEditing} ms (${result.realPath.cpuRatio.preToolUseEditing} ×), with a config ${realCpu.preToolUseBoundConfig} ms (${result.realPath.cpuRatio.preToolUseBoundConfig} ×), node -e 0 ${realCpu.bareNode} ms`,
		);
	console.log(
		`The loader run directly, Stop, ${RUNS} runs (20 todos, ${(result.input.transcriptBytes / 1048576).toFixed(1)} MB transcript):`,
	);
	console.log(`  hook       median ${hookStats.median} ms  (p90 ${hookStats.p90}, min ${hookStats.min})`);
	console.log(`  node -e 0  median ${bareStats.median} ms  (p90 ${bareStats.p90}, min ${bareStats.min})`);
	console.log(`  ratio      ${result.ratio} × (goal: below 1.5 ×)`);
	console.log(
		`  watcher    median ${watcherStats.median} ms, ${result.watcher.ratio} × (beside each Stop, in the background)`,
	);
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
function installedForms(env, project) {
	const stop = (form) => hookCommand(form, "Stop");
	const modules = path.join(project, "node_modules");
	const linked = path.join(root, "linked-data");
	mkdirSync(path.dirname(path.join(linked, HOOK_LINK)), { recursive: true });
	writeFileSync(path.join(linked, HOOK_LINK), hookLinkText(bundle, LINK));
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

function timed(command, args, input, environment, project) {
	const cpuBefore = childrenCpuMs();
	const start = performance.now();
	const child = spawnSync(command, args, { input, env: environment, cwd: project, encoding: "utf8" });
	const ms = performance.now() - start;
	const cpuAfter = childrenCpuMs();
	if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	return { ms, stdout: child.stdout, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/** The user and system time of this process's waited-for children, from `/proc/self/stat` (Linux; 100 ticks a second); null elsewhere. */
function childrenCpuMs() {
	try {
		const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
		// After the command's name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
		return (Number(fields[13]) + Number(fields[14])) * 10;
	} catch {
		return null;
	}
}

/** Peak resident memory in KB, from `/usr/bin/time` when there is one, else from the process itself. */
function peakMemory({ stopInput, restore, env, project }) {
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

/** The results name no path of the machine they ran on: this node and this copy of boulder are named by role. */
function withoutMachinePaths(command) {
	return command.replaceAll(process.execPath, "node").replaceAll(repoRoot, "<boulder>");
}
