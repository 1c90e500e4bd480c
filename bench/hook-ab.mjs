/**
 * Two builds of boulder side by side on the path `hook-latency.mjs` calls
 * real (a started plan with open items, the state already there, the
 * portable command as installed, through `sh -c`: `fixtures/plan-session.mjs`):
 * the Stop hook and PreToolUse (each the one that binds the work to its
 * session, once per work, and one already bound;
 * and a PreToolUse one edit into a stretch of todo hygiene's count, as every
 * edit but a stretch's first finds it: "editing"),
 * of this build (B) and of a base build (A, another commit built in its own
 * folder), with `node -e 0` beside them, all interleaved in one run and in a
 * rotating order, so a busy machine slows every subject alike. The subjects
 * marked "config" are the bound Stop and PreToolUse of a project with a
 * `boulder.config.json` (`PROJECT_CONFIG`, a few keys, as a user who tunes
 * boulder has one): every hook loads and checks it, so its cost shows beside
 * the same hooks without one.
 *
 * Each subject is run twice a round: once for wall time (start to exit), once
 * for CPU time with a preload (`--require`, in every subject alike, bare node
 * too) that records `process.cpuUsage()` (every thread, user and system) at
 * the `exit` event. Medians are reported, and each one's ratio to bare node.
 *
 * Run after `npm run build` here and in the base folder:
 * `node bench/hook-ab.mjs <base folder> [runs]` (default 40). A base folder is
 * e.g. `git archive <commit> | tar -x -C <folder>`, node_modules linked in,
 * `npm run build`. Writes `bench/results/hook-ab.json`. Reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createPlanSession, PROJECT_CONFIG } from "./fixtures/plan-session.mjs";
import { round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const baseRoot = process.argv[2] ? path.resolve(process.argv[2]) : null;
const RUNS = Math.max(5, Number(process.argv[3]) || 40);
const WARMUP = 3;
for (const root of [repoRoot, baseRoot]) {
	if (root === null || !existsSync(path.join(root, "dist", "hook", "claude-code.cjs"))) {
		console.error("usage: node bench/hook-ab.mjs <base folder, built> [runs]; both builds need `npm run build`.");
		process.exit(1);
	}
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "boulder-hook-ab-"));
try {
	const cpuFile = path.join(scratch, "cpu.txt");
	const preload = path.join(scratch, "cpu-at-exit.cjs");
	writeFileSync(
		preload,
		`process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").appendFileSync(${JSON.stringify(cpuFile)}, (u.user + u.system) / 1000 + "\\n"); });\n`,
	);
	for (const folder of ["a", "b", "a-config", "b-config"]) mkdirSync(path.join(scratch, folder));
	const builds = {
		A: createPlanSession(path.join(scratch, "a"), baseRoot),
		B: createPlanSession(path.join(scratch, "b"), repoRoot),
	};
	const configured = {
		A: createPlanSession(path.join(scratch, "a-config"), baseRoot, { config: PROJECT_CONFIG }),
		B: createPlanSession(path.join(scratch, "b-config"), repoRoot, { config: PROJECT_CONFIG }),
	};
	const subjects = [
		{ name: "node -e 0", run: (env) => timed(process.execPath, ["-e", "0"], "", env, builds.B.project) },
		...Object.entries(builds).flatMap(([build, plan]) => [
			{
				name: `${build} Stop`,
				run: (env) => {
					plan.restore();
					return timed("/bin/sh", ["-c", plan.stopCommand], plan.stopInput, env, plan.project, true);
				},
				plan,
			},
			{
				name: `${build} Stop, bound`,
				run: (env) => {
					plan.restoreBound();
					return timed("/bin/sh", ["-c", plan.stopCommand], plan.stopInput, env, plan.project, true);
				},
				plan,
			},
			{
				name: `${build} PreToolUse`,
				run: (env) => {
					plan.restore();
					return timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, env, plan.project);
				},
				plan,
			},
			{
				name: `${build} PreToolUse, bound`,
				run: (env) => {
					plan.restoreBound();
					return timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, env, plan.project);
				},
				plan,
			},
			{
				name: `${build} PreToolUse, editing`,
				run: (env) => {
					plan.restoreEditing();
					return timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, env, plan.project);
				},
				plan,
			},
		]),
		...Object.entries(configured).flatMap(([build, plan]) => [
			{
				name: `${build} Stop, bound, config`,
				run: (env) => {
					plan.restoreBound();
					return timed("/bin/sh", ["-c", plan.stopCommand], plan.stopInput, env, plan.project, true);
				},
				plan,
			},
			{
				name: `${build} PreToolUse, bound, config`,
				run: (env) => {
					plan.restoreBound();
					return timed("/bin/sh", ["-c", plan.preToolCommand], plan.preToolInput, env, plan.project);
				},
				plan,
			},
		]),
	];
	const wall = Object.fromEntries(subjects.map((subject) => [subject.name, []]));
	const cpu = Object.fromEntries(subjects.map((subject) => [subject.name, []]));
	const loadBefore = os.loadavg().map(round);
	for (let pass = 0; pass < WARMUP + RUNS; pass++) {
		for (let index = 0; index < subjects.length; index++) {
			const subject = subjects[(index + pass) % subjects.length];
			const env = (subject.plan ?? builds.B).env;
			const ms = subject.run(env);
			rmSync(cpuFile, { force: true });
			subject.run({ ...env, NODE_OPTIONS: `--require ${preload}` });
			const cpuMs = Number(readFileSync(cpuFile, "utf8").trim().split("\n").at(-1));
			if (pass < WARMUP) continue;
			wall[subject.name].push(ms);
			cpu[subject.name].push(cpuMs);
		}
	}
	const loadAfter = os.loadavg().map(round);
	const bareWall = stats(wall["node -e 0"]).median;
	const bareCpu = stats(cpu["node -e 0"]).median;
	const figures = Object.fromEntries(
		subjects.map(({ name }) => {
			const w = stats(wall[name]);
			const c = stats(cpu[name]);
			return [
				name,
				{
					wallMs: w,
					cpuMs: c,
					ratio: { wall: round(w.median / bareWall), cpu: round(c.median / bareCpu) },
				},
			];
		}),
	);
	const result = {
		what: 'A/B of two builds on the real path (started plan, state there, portable command via `sh -c`), interleaved with `node -e 0`; the "config" subjects with a project boulder.config.json; ratios are median / median of bare node',
		at: new Date().toISOString(),
		node: process.version,
		cpus: os.cpus().length,
		runs: RUNS,
		warmup: WARMUP,
		loadAverage: { before: loadBefore, after: loadAfter },
		builds: { A: "base (the folder given)", B: "this checkout" },
		figures,
	};
	const out = path.join(repoRoot, "bench", "results", "hook-ab.json");
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`load ${loadBefore.join(" ")} → ${loadAfter.join(" ")}, ${RUNS} runs`);
	console.log("subject                          wall ms (×node)     cpu ms (×node)");
	for (const [name, figure] of Object.entries(figures)) {
		console.log(
			`${name.padEnd(31)} ${String(figure.wallMs.median).padStart(8)} (${figure.ratio.wall.toFixed(2)})  ${String(figure.cpuMs.median).padStart(8)} (${figure.ratio.cpu.toFixed(2)})`,
		);
	}
	console.log(`wrote ${path.relative(repoRoot, out)}`);
} finally {
	rmSync(scratch, { recursive: true, force: true });
}

function timed(command, args, input, env, cwd, nudges = false) {
	const start = performance.now();
	const child = spawnSync(command, args, { input, env, cwd, encoding: "utf8" });
	const ms = performance.now() - start;
	if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
	if (nudges && !child.stdout.includes('"decision":"block"'))
		throw new Error(`the Stop did not nudge: ${child.stdout}`);
	return ms;
}
