/**
 * The family's event mapping against a recording engine: what a spec states
 * (its cap, its view of the turn, its events) is what the engine hears.
 * Every harness's own events test covers its spec end to end.
 */
import { describe, expect, it } from "vitest";
import {
	type EventDeps,
	type EventSpec,
	type FamilyTurn,
	handleFamilyHook,
	on,
	type TurnReadOptions,
} from "../../../src/adapters/command-hook/events.js";
import { parseCommandHookInput } from "../../../src/adapters/shared/hook-input.js";
import { FileProblem } from "../../../src/engine/bounded-read.js";
import type { Engine, IdleResult } from "../../../src/engine/engine.js";

interface Call {
	method: string;
	args: unknown[];
}

/** An engine that records what it is told and lets every agent stop. */
function recordingEngine(): { engine: Engine; calls: Call[] } {
	const calls: Call[] = [];
	const skip: Partial<IdleResult> = { kind: "skip", reason: "no-open-work", detail: "", notice: false };
	const engine = new Proxy(
		{},
		{
			get:
				(_target, method: string) =>
				async (...args: unknown[]) => {
					calls.push({ method, args });
					return method === "turnEndedAndIdle" ? skip : null;
				},
		},
	) as Engine;
	return { engine, calls };
}

/** A reader whose turn names its marker its own way, as Qwen Code's does. */
interface OwnTurn extends Omit<FamilyTurn, "startMarker"> {
	endMarker: string;
	continuations: number | null;
}

const TURN: OwnTurn = {
	spend: { input: 10, output: 5, cacheWrite: 0 },
	activity: 2,
	pendingQuestion: null,
	lastAssistantText: "Done with A.",
	endMarker: "m1",
	continuations: 3,
};

type Deps = EventDeps<OwnTurn> & { countChain(): Promise<number | null> };

const SPEC: EventSpec<OwnTurn, Deps> = {
	harness: "h",
	title: "H",
	events: { Stop: on.stop, SubagentStop: on.idle },
	subagentStop: "SubagentStop",
	unseenReason: () => null,
	transcript: { file: "log", field: "log_path" },
	view: (turn) => ({ ...turn, startMarker: turn.endMarker }),
	stop: {
		cap: { harness: "H", lift: "raise it", limit: () => 8, inRow: ({ deps }) => deps.countChain() },
	},
};

function input(event: string, fields: Record<string, unknown> = {}) {
	const text = JSON.stringify({ session_id: "s1", transcript_path: "/t.jsonl", ...fields });
	const parsed = parseCommandHookInput(text, event, ["Stop", "SubagentStop", "Other"]);
	if (!parsed.ok) throw new Error(parsed.problem);
	return parsed.input;
}

async function stopWith(countChain: () => Promise<number | null>, fields: Record<string, unknown> = {}) {
	const { engine, calls } = recordingEngine();
	const reads: TurnReadOptions[] = [];
	const readTurn = async (_file: string, options: TurnReadOptions) => {
		reads.push(options);
		return TURN;
	};
	await handleFamilyHook(input("Stop", fields), SPEC, { engine, readTurn, countChain });
	const idle = calls.find((call) => call.method === "turnEndedAndIdle");
	return { reads, calls, end: idle?.args[1], facts: idle?.args[2] as Record<string, unknown> | undefined };
}

describe("the family's event mapping", () => {
	it("states the harness's cap as an idle fact, its limit read first and counted up to by the reader", async () => {
		const { reads, end, facts } = await stopWith(async () => 3, { last_assistant_message: "Done with A." });
		expect(reads).toEqual([{ expectLastText: "Done with A.", countUpTo: 8 }]);
		expect(facts?.harnessCap).toEqual({ harness: "H", limit: 8, inRow: 3, lift: "raise it" });
		expect(facts?.turnUnseen).toBeUndefined();
		expect(end).toEqual({ outcome: "end", spend: TURN.spend, activity: 2, marker: "m1" });
	});

	it("takes a chain it cannot count for an unseen turn, never a free pass", async () => {
		const { facts } = await stopWith(async () => {
			throw new Error("log gone");
		});
		expect(facts?.harnessCap).toBeUndefined();
		expect(facts?.turnUnseen).toBe("its continuations in a row cannot be counted in /t.jsonl (log gone)");
	});

	it("names the transcript in the harness's words where it cannot be read", async () => {
		const { engine, calls } = recordingEngine();
		const readTurn = async (file: string): Promise<OwnTurn> => {
			throw new FileProblem(file, "missing", "it does not exist");
		};
		const deps = { engine, readTurn, countChain: async () => 0 };
		await handleFamilyHook(input("Stop"), SPEC, deps);
		await handleFamilyHook(input("Stop", { transcript_path: null }), SPEC, deps);
		const unseen = calls.filter((call) => call.method === "turnEndedAndIdle").map((call) => call.args[2]);
		expect(unseen).toMatchObject([
			{ turnUnseen: "the log /t.jsonl does not exist" },
			{ turnUnseen: "H gave no log_path" },
		]);
	});

	it("states no cap when the chain is not known", async () => {
		const { facts } = await stopWith(async () => null);
		expect(facts).not.toHaveProperty("harnessCap");
	});

	it("reads no transcript for a subagent's Stop, and asks the engine about it as a subagent", async () => {
		const { reads, calls } = await stopWith(async () => 0, { agent_id: "a1" });
		expect(reads).toEqual([]);
		expect(calls.find((call) => call.method === "turnEndedAndIdle")?.args[0]).toMatchObject({ subagent: true });
	});

	it("answers an event the harness gives no meaning with nothing, and tells the engine nothing", async () => {
		const { engine, calls } = recordingEngine();
		const answer = await handleFamilyHook(input("Other"), SPEC, {
			engine,
			readTurn: async () => TURN,
			countChain: async () => 0,
		});
		expect(answer).toEqual({ output: null });
		expect(calls).toEqual([]);
	});

	it("takes every event for the main session's where the harness sends no subagent fields", async () => {
		const { engine, calls } = recordingEngine();
		const deps = { engine, readTurn: async () => TURN, countChain: async () => 0 };
		await handleFamilyHook(input("SubagentStop", { agent_id: "a1" }), { ...SPEC, subagentStop: null }, deps);
		expect(calls).toEqual([
			{
				method: "onIdle",
				args: [
					{ harness: "h", sessionId: "s1", subagent: false, agent: null, transcriptPath: "/t.jsonl", promptId: null },
					{},
				],
			},
		]);
	});

	it("hands the engine the session's transcript path and prompt id, so the dashboard and the fleet's export can name them", async () => {
		const { engine, calls } = recordingEngine();
		const deps = { engine, readTurn: async () => TURN, countChain: async () => 0 };
		await handleFamilyHook(input("Stop", { prompt_id: "p-42" }), SPEC, deps);
		expect(calls.map((call) => call.method)).toEqual(["turnEndedAndIdle"]);
		expect(calls[0]?.args[0]).toMatchObject({ transcriptPath: "/t.jsonl", promptId: "p-42" });
	});
});
