// Read-modify-write increments through the file store, of one scope's `seq`
// or (with "works") of the works file's `stopped.at`: any lost update shows
// as a final count below the expected total.
import { emptyContinuationState } from "../../../dist/core/turns.js";
import { FileStore } from "../../../dist/state/index.js";

const [worktree, scopeKey, countArg, kind = "scope"] = process.argv.slice(2);
const store = new FileStore(worktree, { lock: { waitMs: 60_000 } });

for (let n = 0; n < Number(countArg); n++) {
	if (kind === "works") {
		await store.updateWorks((current) => {
			if (current.kind === "unreadable") throw new Error(`unreadable: ${current.problem.reason}`);
			const at = current.kind === "ok" ? (current.value.stopped?.at ?? 0) : 0;
			return {
				result: null,
				next: { schemaVersion: 2, activeWorkId: null, stopped: { at: at + 1, by: "incrementer" }, works: {} },
			};
		});
		continue;
	}
	await store.updateScope(scopeKey, (current) => {
		if (current.kind === "unreadable") throw new Error(`unreadable: ${current.problem.reason}`);
		const state = current.kind === "ok" ? current.value : emptyContinuationState();
		return { result: null, next: { ...state, seq: state.seq + 1 } };
	});
}
process.stdout.write("done\n");
