#!/usr/bin/env node
/**
 * boulder beside each harness's own "keep going" mode, and each alone, on the
 * same scripted agents, with the real binaries (Claude Code `/goal` under
 * `-p`, Codex goals through `codex app-server`, Copilot `--autopilot`, Qwen
 * Code `/goal`). The runs are
 * the e2e file `test/e2e/compare-goals.test.ts` (it needs `npm run build` and
 * the harness binaries); this prints the table it writes to
 * `bench/results/compare-goals.md`.
 *
 * Usage: node bench/compare-goals.mjs [harness,...] [scenario,...]
 *   harnesses: claude, codex, copilot, qwen; scenarios: lazy, long, stalled,
 *   question, churn, abort, verify, subagent (each where it can be expressed)
 *   e.g. node bench/compare-goals.mjs codex,qwen stalled,churn
 * A run replaces the cells it ran in the results and keeps the others.
 * One run per cell: the machine is slow, and each real-binary run costs tens
 * of seconds.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const [harnesses, scenarios] = process.argv.slice(2);
const env = { ...process.env, BOULDER_COMPARE: "1" };
if (harnesses) env.BOULDER_COMPARE_HARNESSES = harnesses;
if (scenarios) env.BOULDER_COMPARE_SCENARIOS = scenarios;
const run = spawnSync("npx", ["vitest", "run", "--project", "e2e", "test/e2e/compare-goals.test.ts"], {
	cwd: root,
	env,
	stdio: "inherit",
});
try {
	process.stdout.write(`\n${readFileSync(join(root, "bench", "results", "compare-goals.md"), "utf8")}`);
} catch {
	process.stderr.write("no results were written\n");
}
process.exit(run.status ?? 1);
