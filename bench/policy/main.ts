/**
 * Runs the policy benchmark, prints the table and boulder's targets, and
 * writes `policy.md` and `policy.svg` (by default under `bench/results/`).
 *
 * Usage: node dist-bench/bench/policy/main.js [--seeds N] [--base-seed S] [--out DIR]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { produce } from "./produce.js";
import { DEFAULT_OPTIONS } from "./run.js";

function argument(name: string, fallback: string): string {
	const index = process.argv.indexOf(name);
	return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

function main(): void {
	const seedCount = Number(argument("--seeds", String(DEFAULT_OPTIONS.seedCount)));
	const baseSeed = Number(argument("--base-seed", String(DEFAULT_OPTIONS.baseSeed)));
	const out = argument("--out", join("bench", "results"));
	if (!Number.isInteger(seedCount) || seedCount < 1 || !Number.isInteger(baseSeed)) {
		process.stderr.write("usage: main.js [--seeds N] [--base-seed S] [--out DIR]\n");
		process.exitCode = 2;
		return;
	}
	const started = performance.now();
	const { table, markdown, svg } = produce(baseSeed, seedCount);
	mkdirSync(out, { recursive: true });
	writeFileSync(join(out, "policy.md"), markdown);
	writeFileSync(join(out, "policy.svg"), svg);
	process.stdout.write(
		`${table}\n\nwrote ${join(out, "policy.md")} and ${join(out, "policy.svg")} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
	);
}

main();
