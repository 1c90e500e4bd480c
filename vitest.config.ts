import { configDefaults, defineConfig } from "vitest/config";

/**
 * The suite in four tiers, each a vitest project (docs/architecture.md, "Test tiers"):
 *
 * - `unit`: pure and in-process (the real file store in a temp folder is fine). No child
 *   process, no socket, no binary: `test/support/unit-guard.ts` makes each of them throw.
 *   Worker threads without isolation between files, so the tier starts fast.
 * - `process`: `*.process.test.ts`, tests that spawn a process, bind a socket or run a binary.
 * - `e2e`: `test/e2e/**`, real harness binaries against scripted model servers on 127.0.0.1.
 * - `browser`: `*.browser.test.ts`, the dashboard in a real headless Chromium.
 *
 * The tiers run one after another (`sequence.groupOrder`), fastest first, each with its own
 * number of workers. A new file lands in its tier by its name or folder alone.
 */
// A project's own `exclude` replaces vitest's defaults: keep them, or the harnesses' packages (test/harnesses/node_modules) would be run too.
const UNIT_EXCLUDE = [...configDefaults.exclude, "test/e2e/**", "**/*.process.test.ts", "**/*.browser.test.ts"];

// BOULDER_TEST_REPORT lets CI read the runner's real pass/fail counts and times.
const report = process.env.BOULDER_TEST_REPORT;

/**
 * Harness suites side by side: each has its own HOME, model server port and temp project.
 * Measured on 2 cores (four suites, 28 tests, load average 15 to 20): 1 worker 413 s,
 * 2 workers 244 s, 3 workers 221 s. Two: a third gains little and puts three harnesses
 * on two cores. Vitest's own default there is one (cores − 1). BOULDER_E2E_WORKERS overrides it.
 */
const E2E_WORKERS = Number(process.env.BOULDER_E2E_WORKERS) || 2;

export default defineConfig({
	test: {
		environment: "node",
		testTimeout: 30_000,
		hookTimeout: 60_000,
		setupFiles: ["test/support/property-bounds.ts", "test/support/temp-dirs.ts"],
		globalSetup: ["test/support/fifo-pool.ts"],
		reporters: report ? ["default", ["json", { outputFile: report }]] : ["default"],
		projects: [
			{
				extends: true,
				test: {
					name: "unit",
					include: ["test/**/*.test.ts", "bench/**/*.test.ts"],
					exclude: UNIT_EXCLUDE,
					setupFiles: ["test/support/unit-guard.ts"],
					pool: "threads",
					isolate: false,
					// Measured on 2 cores at a load average of 15 to 18: 1 worker 80 and 94 s, 2 workers 49 and 55 s.
					maxWorkers: 2,
					sequence: { groupOrder: 0 },
				},
			},
			{
				extends: true,
				test: {
					name: "process",
					include: ["test/**/*.process.test.ts", "bench/**/*.process.test.ts"],
					exclude: [...configDefaults.exclude, "test/e2e/**", "**/*.browser.test.ts"],
					pool: "forks",
					// Measured on 2 cores at a load average of 16 to 18: 1 worker 99 s, 2 workers 64 s.
					maxWorkers: 2,
					sequence: { groupOrder: 1 },
				},
			},
			{
				extends: true,
				test: {
					name: "e2e",
					include: ["test/e2e/**/*.test.ts"],
					exclude: [...configDefaults.exclude, "**/*.browser.test.ts"],
					pool: "forks",
					maxWorkers: E2E_WORKERS,
					sequence: { groupOrder: 2 },
				},
			},
			{
				extends: true,
				test: {
					name: "browser",
					include: ["test/**/*.browser.test.ts"],
					pool: "forks",
					maxWorkers: 1,
					sequence: { groupOrder: 3 },
				},
			},
		],
	},
});
