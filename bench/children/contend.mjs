// One contending process of bench/engine.mjs: for `ms` milliseconds, either
// locked read-modify-write increments of one scope through the file store, or
// bare temp-write-renames of a file (no lock); prints how many it did.
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [mode, worktree, ms] = process.argv.slice(2);
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist");
const { FileStore } = await import(path.join(dist, "state", "file-store.js"));
const { emptyContinuationState } = await import(path.join(dist, "core", "turns.js"));

const until = performance.now() + Number(ms);
let count = 0;
if (mode === "locked") {
	const store = new FileStore(worktree, { lock: { waitMs: 60_000 } });
	while (performance.now() < until) {
		await store.updateScope("bench.contention", (current) => {
			const state = current.kind === "ok" ? current.value : emptyContinuationState();
			return { result: undefined, next: { ...state, seq: state.seq + 1 } };
		});
		count++;
	}
} else {
	const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, state: emptyContinuationState() }));
	const target = path.join(worktree, "bare.json");
	while (performance.now() < until) {
		const temp = `${target}.${process.pid}.tmp`;
		const fd = openSync(temp, "w", 0o600);
		writeSync(fd, bytes);
		closeSync(fd);
		renameSync(temp, target);
		count++;
	}
}
process.stdout.write(String(count));
