// Writes one kind of boulder's state again and again through the real state
// layer, numbering each write: the scope state file (`seq`), the works file
// (`stopped.at`) or the decision log (`at`). Prints "w <n>" before write n
// and "d <n>" once it returned, so a parent that kills this process knows
// which writes are certainly on disk and which one was in flight.
// Sizes vary with n, so a torn or mixed write could not look whole.
import path from "node:path";
import { emptyContinuationState } from "../../../dist/core/turns.js";
import { appendDecisionLine, FileStore } from "../../../dist/state/index.js";

const [kind, worktree, startArg, countArg, keepArg] = process.argv.slice(2);
const start = Number(startArg);
const count = Number(countArg);
const keep = Number(keepArg ?? 3);
// Short stale time: a lock left by a killed writer is taken over at once (the parent ages it).
const lock = { staleMs: 2_000, waitMs: 60_000 };
const store = new FileStore(worktree, { lock, decisions: { maxBytes: 48 * 1024, keep } });
const say = (line) => process.stdout.write(`${line}\n`);

function todos(n) {
	return Array.from({ length: n % 40 }, (_, i) => ({
		content: `item ${i} ${"x".repeat((n * 7 + i) % 300)}`,
		status: i % 3 === 0 ? "completed" : "pending",
	}));
}

async function write(n) {
	switch (kind) {
		case "scope":
			return store.updateScope("crash-scope", (current) => {
				if (current.kind === "unreadable") throw new Error(`unreadable: ${current.problem.reason}`);
				const state = current.kind === "ok" ? current.value : emptyContinuationState();
				return { result: null, next: { ...state, seq: n, todos: todos(n) } };
			});
		case "works":
			return store.updateWorks((current) => {
				if (current.kind === "unreadable") throw new Error(`unreadable: ${current.problem.reason}`);
				const by = `writer ${"w".repeat((n * 13) % 4000)}`;
				return {
					result: null,
					next: { schemaVersion: 2, activeWorkId: null, stopped: { at: n, by }, works: {} },
				};
			});
		case "log":
			return appendDecisionLine(
				path.join(worktree, ".boulder", "decisions.jsonl"),
				{
					v: 1,
					at: n,
					worktree,
					scope: null,
					harness: null,
					session: "crash",
					work: null,
					kind: "event",
					reason: "test",
					detail: `${n}:${"d".repeat((n * 31) % 2000)}`,
				},
				{ maxBytes: 48 * 1024, keep, lock },
			);
		default:
			throw new Error(`unknown kind ${kind}`);
	}
}

for (let n = start; n < start + count; n++) {
	say(`w ${n}`);
	await write(n);
	say(`d ${n}`);
}
