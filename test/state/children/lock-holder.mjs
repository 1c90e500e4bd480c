// Takes the lock on a file and holds it until killed, printing "locked" once
// it has it. The interval keeps the process (and the lock's refresh) alive.
import { withLock } from "../../../dist/state/index.js";

const [file, staleArg] = process.argv.slice(2);
setInterval(() => {}, 1_000);
await withLock(
	file,
	async () => {
		process.stdout.write("locked\n");
		await new Promise(() => {});
	},
	{ staleMs: Number(staleArg), waitMs: 30_000 },
);
