import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/engine/engine.js";
import { type CodexEvent, type CodexThread, runUntilDone } from "../../src/sdk/codex.js";
import type { EngineSource } from "../../src/sdk/engines.js";
import { memoryEngine } from "../engine/helpers.js";

const THREAD = "thread-1";
const ref = { harness: "codex", sessionId: THREAD };

function engines(engine: Engine): EngineSource {
	return { open: async () => engine, bookkeeping: async () => engine, start: async () => {} };
}

const list = (done: number, total: number): CodexEvent => ({
	type: "item.completed",
	item: {
		type: "todo_list",
		items: Array.from({ length: total }, (_, i) => ({ text: `Item ${i + 1}`, completed: i < done })),
	},
});
const says = (text: string): CodexEvent => ({ type: "item.completed", item: { type: "agent_message", text } });
const usage: CodexEvent = {
	type: "turn.completed",
	usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10 },
};

/** A thread that streams one scripted turn per run and remembers what each run was given. */
function scriptedThread(
	turns: ((signal?: AbortSignal) => AsyncIterable<CodexEvent>)[],
): CodexThread & { inputs: string[] } {
	let id: string | null = null;
	const inputs: string[] = [];
	return {
		inputs,
		get id() {
			return id;
		},
		async runStreamed(input, options) {
			inputs.push(input);
			const turn = turns.shift();
			if (!turn) throw new Error("no more turns scripted");
			const events = turn(options?.signal);
			return {
				events: (async function* () {
					if (id === null) {
						id = THREAD;
						yield { type: "thread.started", thread_id: THREAD };
					}
					yield* events;
				})(),
			};
		},
	};
}

const turn = (...events: CodexEvent[]) =>
	async function* () {
		yield* events;
	};

describe("runUntilDone (the Codex SDK driver)", () => {
	it("runs the engine's nudges as the next turns until the agent's list is done", async () => {
		const { engine } = memoryEngine();
		const thread = scriptedThread([
			turn(list(0, 3), says("Starting."), usage),
			turn(list(1, 3), says("Item 1 is done."), usage),
			turn(list(3, 3), says("All done."), usage),
		]);

		const result = await runUntilDone(thread, "Do the three items.", { engines: engines(engine) });

		expect(result).toMatchObject({ threadId: THREAD, turns: 3, stopped: "decided", finalResponse: "All done." });
		expect(result.decisions.map((decision) => decision.kind)).toEqual(["inject", "inject", "complete"]);
		expect(thread.inputs[0]).toBe("Do the three items.");
		expect(thread.inputs[1]).toMatch(/0 of 3 done[\s\S]*Item 1/);
		expect(thread.inputs[1]).toBe(result.decisions[0]?.text);
	});

	it("stops without a nudge when the agent asks the user", async () => {
		const { engine } = memoryEngine();
		const thread = scriptedThread([turn(list(0, 2), says("Should I use Postgres or SQLite? Which do you prefer?"))]);

		const result = await runUntilDone(thread, "Build the store.", { engines: engines(engine) });

		expect(result.turns).toBe(1);
		expect(result.decisions).toMatchObject([{ kind: "skip", reason: "awaiting-user" }]);
	});

	it("stops at once on an abort, and the abort holds for the next decision", async () => {
		const { engine } = memoryEngine();
		const controller = new AbortController();
		const thread = scriptedThread([
			turn(list(0, 2), says("Starting."), usage),
			async function* (signal) {
				yield list(0, 2);
				controller.abort();
				if (signal?.aborted) throw new Error("aborted by the signal");
				yield says("never seen");
			},
		]);

		const result = await runUntilDone(thread, "Do both.", { engines: engines(engine), signal: controller.signal });

		expect(result).toMatchObject({ stopped: "aborted", turns: 2 });
		expect(thread.inputs).toHaveLength(2);
		expect(await engine.onIdle(ref, {})).toMatchObject({ kind: "skip", reason: "user-aborted" });
	});

	it("ends with `error`, recorded, when the SDK fails", async () => {
		const { engine } = memoryEngine();
		const thread = scriptedThread([]);

		const result = await runUntilDone(thread, "Do it.", { engines: engines(engine) });

		expect(result).toMatchObject({ stopped: "error", turns: 0 });
		const log = await engine.explain({ lines: 10 });
		expect(log.map((record) => record.detail)).toContainEqual(expect.stringContaining("no more turns scripted"));
	});
});
