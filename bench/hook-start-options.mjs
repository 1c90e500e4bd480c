/**
 * What node itself offers to start a hook faster, tried on the path
 * `hook-latency.mjs` calls real (the Stop of a session already bound to a
 * started plan with open items: `fixtures/plan-session.mjs`), next to the
 * loader as it ships and a bare `node -e 0`, all interleaved in one run:
 *
 * - node and V8 flags on the hook's command line (fewer V8 worker threads, a
 *   young generation big enough that the hook never collects, regular
 *   expressions that stay interpreted, no JIT, main-module symlinks kept);
 *   each flag also times `node <flag> -e 0`, because a flag can change
 *   node's own start too (some V8 flags slow it, likely by keeping node
 *   from the code cache of its built-ins in its binary);
 * - a user-land startup snapshot (`node --build-snapshot`, experimental in
 *   Node 20): once empty (what starting from any snapshot of our own costs),
 *   once with the bundle compiled into it, run when the snapshot is
 *   deserialized.
 *
 * Each subject keeps its own V8 code cache (its own `XDG_CACHE_HOME`): the
 * cache is only taken under the flags it was made with. The command runs the
 * loader directly (`node <loader> Stop`), not through `sh -c`: the shell is
 * the same for every subject. Reported, never asserted.
 *
 * Run after `npm run build`: `node bench/hook-start-options.mjs [runs]`
 * (default 40). Writes `bench/results/hook-start-options.json`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createPlanSession } from "./fixtures/plan-session.mjs";
import { machineFacts, round, stats } from "./fixtures/stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const RUNS = Math.max(5, Number(process.argv[2]) || 40);
const WARMUP = 3;

const FLAGS = {
	"--v8-pool-size=0": "no V8 worker threads",
	"--min-semi-space-size=16": "a young generation the hook never fills",
	"--no-regexp-tier-up": "regular expressions stay interpreted",
	"--jitless": "no JIT",
	"--preserve-symlinks-main": "the main module's path is not resolved",
};

const scratch = mkdtempSync(path.join(os.tmpdir(), "boulder-hook-start-options-"));
try {
	const plan = createPlanSession(scratch, repoRoot);
	// The hook the portable command finds: the project's devDependency.
	const loader = path.join(plan.project, "node_modules", "boulder-agent", "dist", "hook", "claude-code.cjs");
	const bundle = path.join(repoRoot, "dist", "hook", "claude-code-main.cjs");
	if (!existsSync(bundle)) throw new Error("dist/hook is missing: run `npm run build` first");
	const snapshots = buildSnapshots(scratch, loader, bundle);

	const subjects = [
		{ name: "node -e 0", args: ["-e", "0"] },
		{ name: "hook, as shipped", args: [loader, "Stop"], hook: true },
		...Object.keys(FLAGS).flatMap((flag) => [
			{ name: `node ${flag} -e 0`, args: [flag, "-e", "0"] },
			{ name: `hook, ${flag}`, args: [flag, loader, "Stop"], hook: true },
		]),
		{ name: "hook, empty user snapshot", args: ["--snapshot-blob", snapshots.empty, "Stop"], hook: true },
		{
			name: "hook, bundle compiled into a snapshot",
			args: ["--snapshot-blob", snapshots.compiled, "Stop"],
			hook: true,
		},
	];
	const times = subjects.map(() => []);
	for (let run = 0; run < WARMUP + RUNS; run++) {
		// Rotate the order, so no subject always follows the same one.
		for (let k = 0; k < subjects.length; k++) {
			const index = (k + run) % subjects.length;
			const subject = subjects[index];
			if (subject.hook) plan.restoreBound();
			const env = { ...plan.env, XDG_CACHE_HOME: path.join(scratch, `cache-${index}`) };
			const started = performance.now();
			const result = spawnSync(process.execPath, subject.args, {
				input: subject.hook ? plan.stopInput : "",
				env,
				cwd: plan.project,
				encoding: "utf8",
			});
			const ms = performance.now() - started;
			if (result.status !== 0 || (subject.hook && !result.stdout.includes('"decision":"block"'))) {
				throw new Error(`${subject.name} did not nudge (exit ${result.status}): ${result.stdout}${result.stderr}`);
			}
			if (run >= WARMUP) times[index].push(ms);
		}
	}
	const bare = stats(times[0]).median;
	const rows = subjects.map((subject, index) => {
		const figures = stats(times[index]);
		return { subject: subject.name, ms: figures, ratio: round(figures.median / bare) };
	});
	const load = os.loadavg().map(round);
	console.log(`${RUNS} interleaved runs, load ${load.join(" ")}; the Stop of a bound session, the loader run directly`);
	for (const row of rows) {
		console.log(`  ${row.subject.padEnd(44)} ${String(row.ms.median).padStart(7)} ms  ${row.ratio.toFixed(2)} ×`);
	}
	const out = path.join(here, "results", "hook-start-options.json");
	writeFileSync(
		out,
		`${JSON.stringify(
			{
				what: "node's own start-up options on the bound Stop (`node <options> <loader> Stop`), each with its own code cache, beside `node -e 0` and the loader as shipped; interleaved in a rotating order",
				...machineFacts(),
				runs: RUNS,
				warmup: WARMUP,
				loadAverage: load,
				flags: FLAGS,
				snapshots: {
					empty:
						"built from a script that only loads the loader when deserialized: the cost of starting from a snapshot of our own",
					compiled:
						"the bundle compiled (vm.Script) while building the snapshot and run when it is deserialized (the bundle runs its hook when evaluated, so it cannot be evaluated ahead)",
				},
				rows,
			},
			null,
			"\t",
		)}\n`,
	);
	console.log(`Written to ${path.relative(repoRoot, out)}`);
} finally {
	rmSync(scratch, { recursive: true, force: true });
}

/** The two snapshots, built with this node: node refuses a blob another build of node made. */
function buildSnapshots(folder, loader, bundle) {
	const build = (name, script) => {
		const entry = path.join(folder, `${name}-entry.cjs`);
		const blob = path.join(folder, `${name}.blob`);
		writeFileSync(entry, script);
		const result = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", entry], {
			encoding: "utf8",
		});
		if (result.status !== 0) throw new Error(`building the ${name} snapshot failed: ${result.stderr}`);
		return blob;
	};
	// In the deserialized main, the arguments lack the script: put the loader's path where it reads them.
	const argv = `process.argv.splice(1, 0, ${JSON.stringify(loader)});`;
	return {
		empty: build(
			"empty",
			`require("node:v8").startupSnapshot.setDeserializeMainFunction(() => { ${argv} require("node:module").createRequire(${JSON.stringify(loader)})(${JSON.stringify(loader)}); });\n`,
		),
		compiled: build(
			"compiled",
			[
				`const { readFileSync } = require("node:fs");`,
				`const { Script } = require("node:vm");`,
				`const file = ${JSON.stringify(bundle)};`,
				'const run = new Script("(function (exports, require, module, __filename, __dirname) {" + readFileSync(file, "utf8") + "\\n})", { filename: file }).runInThisContext();',
				`require("node:v8").startupSnapshot.setDeserializeMainFunction(() => {`,
				`\t${argv}`,
				`\tconst bundleModule = { exports: {} };`,
				`\trun(bundleModule.exports, require("node:module").createRequire(file), bundleModule, file, require("node:path").dirname(file));`,
				`});`,
				"",
			].join("\n"),
		),
	};
}
