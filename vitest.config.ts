import { defineConfig } from "vitest/config";

// BOULDER_TEST_REPORT lets CI read the runner's real pass/fail counts.
const report = process.env.BOULDER_TEST_REPORT;

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts", "bench/**/*.test.ts"],
		environment: "node",
		testTimeout: 30_000,
		hookTimeout: 60_000,
		reporters: report ? ["default", ["json", { outputFile: report }]] : ["default"],
	},
});
