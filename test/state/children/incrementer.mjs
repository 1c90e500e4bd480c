// Read-modify-write increments of one scope's `seq` through the file store:
// any lost update shows as a final count below the expected total.
import { emptyContinuationState } from "../../../dist/core/turns.js";
import { FileStore } from "../../../dist/state/index.js";

const [worktree, scopeKey, countArg] = process.argv.slice(2);
const store = new FileStore(worktree, { lock: { waitMs: 60_000 } });

for (let n = 0; n < Number(countArg); n++) {
	await store.updateScope(scopeKey, (current) => {
		if (current.kind === "unreadable") throw new Error(`unreadable: ${current.problem.reason}`);
		const state = current.kind === "ok" ? current.value : emptyContinuationState();
		return { result: null, next: { ...state, seq: state.seq + 1 } };
	});
}
process.stdout.write("done\n");
