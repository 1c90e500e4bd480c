/**
 * Bundles the Claude Code hook program into one self-contained file,
 * `dist/hook/claude-code.js`. Claude Code starts a new process for every hook
 * event, so the hook must start fast: every dependency is inlined (nothing is
 * resolved from node_modules at run time) and nothing the hook does not use
 * (the CLI, its framework) is reachable from its entry.
 *
 * Runs after `tsc` (`npm run build`), writing only into `dist/hook/`.
 */
import { defineConfig } from "tsdown";

export default defineConfig({
	entry: { "claude-code": "src/adapters/claude-code/hook-main.ts" },
	outDir: "dist/hook",
	clean: false,
	format: "esm",
	platform: "node",
	target: "node20",
	fixedExtension: false,
	dts: false,
	sourcemap: false,
	minify: true,
	deps: { alwaysBundle: [/.*/], onlyBundle: false },
});
