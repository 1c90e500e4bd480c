/**
 * `npm run bench`: every benchmark in turn, each writing its results under
 * `bench/results/`. Run after the build (the script does it).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const steps = [
	["npm", ["run", "-s", "bench:policy"]],
	[process.execPath, ["bench/engine.mjs"]],
	[process.execPath, ["bench/hook-latency.mjs"]],
	[process.execPath, ["bench/pretool-latency.mjs"]],
	[process.execPath, ["bench/codex-hook-latency.mjs"]],
	[process.execPath, ["bench/gemini-hook-latency.mjs"]],
	[process.execPath, ["bench/copilot-hook-latency.mjs"]],
	[process.execPath, ["bench/qwen-hook-latency.mjs"]],
	[process.execPath, ["bench/transcript-read.mjs"]],
	[process.execPath, ["bench/status-scale.mjs"]],
	[process.execPath, ["bench/cli-startup.mjs"]],
];
let failed = 0;
for (const [command, args] of steps) {
	console.log(`\n$ ${path.basename(command)} ${args.join(" ")}`);
	const run = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
	if (run.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
