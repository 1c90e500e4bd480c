/**
 * A FIFO (named pipe) at a path, without running a program: it takes one from
 * the pool `test/support/fifo-pool.ts` made before the run, on the same file
 * system as the path, and renames it into place (a rename is atomic, so test
 * files running side by side never take the same one).
 */
import { readdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

export function makeFifo(file: string): void {
	const device = statSync(path.dirname(file)).dev;
	const pools = inject("fifoPools") ?? [];
	for (const pool of pools.filter((candidate) => statSync(candidate).dev === device)) {
		for (const name of readdirSync(pool)) {
			try {
				renameSync(path.join(pool, name), file);
				return;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			}
		}
	}
	throw new Error(
		`no FIFO left for ${file}: the pool test/support/fifo-pool.ts makes has none on that file system, or is used up`,
	);
}
