// Counts into one scope's tally through the file store, printing each count
// it got back: the counts of all writers together must add up to every
// append, and each writer's counts only grow.
import { FileStore } from "../../../dist/state/index.js";

const [worktree, scopeKey, countArg] = process.argv.slice(2);
const store = new FileStore(worktree);
const counts = [];
for (let n = 0; n < Number(countArg); n++) counts.push(await store.tally(scopeKey));
process.stdout.write(`${JSON.stringify(counts)}\n`);
