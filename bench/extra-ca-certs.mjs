/**
 * What `NODE_EXTRA_CA_CERTS` costs every node start, and so every hook: node
 * reads and parses those certificates before running anything. Times, with
 * the variable set to the file given (or the environment's own value) and
 * without it, interleaved: a bare `node -e 0`, and the Claude Code Stop hook
 * as `boulder install claude-code --project` installs it, run with `sh -c`
 * on a started plan whose session is bound (`fixtures/plan-session.mjs`).
 * The installed command sets the variable aside for the hook
 * (`src/adapters/shared/portable-command.ts`), so the hook should cost the
 * same with it as without.
 *
 * `npm run build && node bench/extra-ca-certs.mjs [certificates file] [runs]`
 * (default 30). Writes `bench/results/extra-ca-certs.json`. Reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createPlanSession } from "./fixtures/plan-session.mjs";
import { round, stats } from "./fixtures/stats.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = process.argv[2] ?? process.env.NODE_EXTRA_CA_CERTS;
const RUNS = Math.max(5, Number(process.argv[3]) || 30);
if (!file) {
	console.error("usage: node bench/extra-ca-certs.mjs <certificates file> [runs] (or set NODE_EXTRA_CA_CERTS)");
	process.exit(1);
}
const certificates = (readFileSync(file, "utf8").match(/BEGIN CERTIFICATE/g) ?? []).length;
const root = mkdtempSync(path.join(os.tmpdir(), "boulder-bench-ca-"));
try {
	const plan = createPlanSession(root, repoRoot);
	const without = { ...process.env };
	delete without.NODE_EXTRA_CA_CERTS;
	const withCerts = (env) => ({ ...env, NODE_EXTRA_CA_CERTS: file });
	const node = (env) => ({ run: () => spawnSync(process.execPath, ["-e", "0"], { env }) });
	const hook = (env) => ({
		before: plan.restoreBound,
		run: () => spawnSync("/bin/sh", ["-c", plan.stopCommand], { input: plan.stopInput, env, cwd: plan.project }),
	});
	const subjects = {
		"node -e 0, without": node(without),
		"node -e 0, with": node(withCerts(without)),
		"Stop hook, without": hook(plan.env),
		"Stop hook, with": hook(withCerts(plan.env)),
	};
	const times = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
	for (let run = 0; run < RUNS + 3; run++) {
		for (const [name, subject] of Object.entries(subjects)) {
			subject.before?.();
			const start = performance.now();
			const child = subject.run();
			const took = performance.now() - start;
			if (child.status !== 0) throw new Error(`${name} exited ${child.status}: ${child.stderr}`);
			if (run >= 3) times[name].push(took);
		}
	}
	const result = {
		what: "wall time with NODE_EXTRA_CA_CERTS set and without it, interleaved: bare node, and the installed Stop hook (portable command through sh -c, session bound)",
		at: new Date().toISOString(),
		node: process.version,
		certificates,
		runs: RUNS,
		loadAverage: os.loadavg().map(round),
		ms: Object.fromEntries(Object.entries(times).map(([name, samples]) => [name, stats(samples)])),
	};
	writeFileSync(path.join(repoRoot, "bench", "results", "extra-ca-certs.json"), `${JSON.stringify(result, null, 2)}\n`);
	const median = (name) => result.ms[name].median;
	console.log(`medians of ${RUNS}, ${certificates} extra certificates, load ${result.loadAverage.join(" ")}:`);
	for (const name of Object.keys(subjects)) console.log(`  ${name}: ${median(name)} ms`);
	console.log(
		`  the variable costs node -e 0 ${round(median("node -e 0, with") - median("node -e 0, without"))} ms, the installed hook ${round(median("Stop hook, with") - median("Stop hook, without"))} ms`,
	);
} finally {
	rmSync(root, { recursive: true, force: true });
}
