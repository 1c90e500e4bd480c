// Appends `count` decision lines tagged with this writer's id, to a log that
// rotates often: every line must survive, whole, exactly once.
import { appendDecisionLine } from "../../../dist/state/index.js";

const [file, writer, countArg, maxBytesArg, keepArg] = process.argv.slice(2);
for (let n = 0; n < Number(countArg); n++) {
	await appendDecisionLine(
		file,
		{
			v: 1,
			at: n,
			worktree: "/w",
			scope: null,
			harness: null,
			session: writer,
			work: null,
			kind: "event",
			reason: "test",
			detail: `${writer}:${n}:${"d".repeat(n % 200)}`,
		},
		{ maxBytes: Number(maxBytesArg), keep: Number(keepArg), lock: { waitMs: 60_000 } },
	);
}
process.stdout.write("done\n");
