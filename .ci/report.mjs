// Reads vitest's JSON report (the file BOULDER_TEST_REPORT names) and prints
// the ten slowest test files, the time of each tier, and last the line
// "N passed, N failed" with the runner's real counts. A report that cannot be
// read counts as one failure.
//
// Usage: node .ci/report.mjs <report.json>
import { readFileSync } from "node:fs";
import path from "node:path";

/** The tier a file runs in: the same rules as the projects in vitest.config.ts. */
function tierOf(file) {
	if (file.endsWith(".browser.test.ts")) return "browser";
	if (file.split(path.sep).join("/").includes("test/e2e/")) return "e2e";
	if (file.endsWith(".process.test.ts")) return "process";
	return "unit";
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

let passed = 0;
let failed = 0;
try {
	const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
	const files = (report.testResults ?? []).map((result) => ({
		file: path.relative(process.cwd(), result.name),
		tier: tierOf(result.name),
		start: result.startTime,
		end: result.endTime,
		ms: Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0)),
		tests: (result.assertionResults ?? []).length,
	}));

	console.log("\nslowest test files:");
	for (const entry of [...files].sort((a, b) => b.ms - a.ms).slice(0, 10)) {
		console.log(`  ${seconds(entry.ms).padStart(8)}  ${entry.tier.padEnd(7)}  ${entry.file}`);
	}
	console.log("tiers (wall: first file's start to last file's end; files: the files' own times added up):");
	for (const tier of ["unit", "process", "e2e", "browser"]) {
		const mine = files.filter((entry) => entry.tier === tier);
		if (mine.length === 0) continue;
		const wall = Math.max(...mine.map((entry) => entry.end)) - Math.min(...mine.map((entry) => entry.start));
		const sum = mine.reduce((total, entry) => total + entry.ms, 0);
		const tests = mine.reduce((total, entry) => total + entry.tests, 0);
		console.log(
			`  ${tier.padEnd(7)}  ${String(mine.length).padStart(3)} files  ${String(tests).padStart(5)} tests  wall ${seconds(wall).padStart(8)}  files ${seconds(sum).padStart(8)}`,
		);
	}

	passed = report.numPassedTests ?? 0;
	// A file that fails before its tests run (an error in set-up or at import)
	// has no failed test of its own: count it as one failure.
	const brokenFiles = (report.testResults ?? []).filter(
		(result) => result.status === "failed" && !(result.assertionResults ?? []).some((a) => a.status === "failed"),
	).length;
	failed = (report.numFailedTests ?? 0) + brokenFiles;
} catch {
	failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
