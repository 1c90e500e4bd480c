// Marks one scope's tally through the file store, printing each place it got
// back and whether the marks handed back ended with its own: the places of
// all writers together must be every append once, and each writer's only grow.
import { FileStore } from "../../../dist/state/index.js";

const [worktree, scopeKey, countArg, mark] = process.argv.slice(2);
const store = new FileStore(worktree);
const places = [];
let ownLast = true;
for (let n = 0; n < Number(countArg); n++) {
	const { place, marks } = await store.tally(scopeKey, mark, 4);
	places.push(place);
	if (marks.at(-1) !== mark) ownLast = false;
}
process.stdout.write(`${JSON.stringify({ places, ownLast })}\n`);
