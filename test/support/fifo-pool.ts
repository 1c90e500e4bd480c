/**
 * Vitest global set-up: makes a pool of FIFOs (named pipes) once, in the
 * runner's own process, with one `mkfifo` call, so a unit-tier test that needs
 * a FIFO moves one into place (`makeFifo`, test/support/fifo.ts) instead of
 * running a program. One pool per file system a test makes its folders on (a
 * rename does not cross file systems).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { fuzzTempBase } from "../fuzz/scale.js";

/** FIFOs per pool: far more than the tests use in one run. */
const POOL_SIZE = 200;

declare module "vitest" {
	export interface ProvidedContext {
		fifoPools: string[];
	}
}

export default function setup(project: TestProject): () => void {
	const pools: string[] = [];
	if (process.platform !== "win32") {
		for (const base of new Set([os.tmpdir(), fuzzTempBase()])) {
			const pool = mkdtempSync(path.join(base, "boulder-fifo-pool-"));
			const names = Array.from({ length: POOL_SIZE }, (_, n) => path.join(pool, `fifo-${n}`));
			execFileSync("mkfifo", names);
			pools.push(pool);
		}
	}
	project.provide("fifoPools", pools);
	return () => {
		for (const pool of pools) rmSync(pool, { recursive: true, force: true });
	};
}
