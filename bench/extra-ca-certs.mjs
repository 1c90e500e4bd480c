/**
 * What `NODE_EXTRA_CA_CERTS` costs every node start, so every hook: node
 * reads and parses those certificates before running anything. Times a bare
 * `node -e 0` with the variable set to the file given (or the environment's
 * own value) and without it, interleaved.
 *
 * `node bench/extra-ca-certs.mjs [certificates file] [runs]` (default 30).
 * Writes `bench/results/extra-ca-certs.json`. Reported, never asserted.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { round, stats } from "./fixtures/stats.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = process.argv[2] ?? process.env.NODE_EXTRA_CA_CERTS;
const RUNS = Math.max(5, Number(process.argv[3]) || 30);
if (!file) {
	console.error("usage: node bench/extra-ca-certs.mjs <certificates file> [runs] (or set NODE_EXTRA_CA_CERTS)");
	process.exit(1);
}
const certificates = (readFileSync(file, "utf8").match(/BEGIN CERTIFICATE/g) ?? []).length;
const without = { ...process.env };
delete without.NODE_EXTRA_CA_CERTS;
const subjects = { without, with: { ...without, NODE_EXTRA_CA_CERTS: file } };
const times = { without: [], with: [] };
for (let run = 0; run < RUNS + 3; run++) {
	for (const [name, env] of Object.entries(subjects)) {
		const start = performance.now();
		spawnSync(process.execPath, ["-e", "0"], { env });
		if (run >= 3) times[name].push(performance.now() - start);
	}
}
const result = {
	what: "wall time of `node -e 0` with NODE_EXTRA_CA_CERTS set and without it, interleaved",
	at: new Date().toISOString(),
	node: process.version,
	certificates,
	runs: RUNS,
	loadAverage: os.loadavg().map(round),
	withoutMs: stats(times.without),
	withMs: stats(times.with),
};
writeFileSync(path.join(repoRoot, "bench", "results", "extra-ca-certs.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(
	`node -e 0: ${result.withoutMs.median} ms without, ${result.withMs.median} ms with ${certificates} extra certificates (medians of ${RUNS}, load ${result.loadAverage.join(" ")})`,
);
