import { appendFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { claudeCodeDialect } from "../../../src/adapters/claude-code/dialect.js";
import { activeGoal, GOAL_TAIL_BYTES, goalWithTurn } from "../../../src/adapters/claude-code/goal.js";
import { readTurn } from "../../../src/adapters/claude-code/transcript.js";
import type { Engine } from "../../../src/engine/engine.js";
import type { MemoryStore } from "../../../src/state/memory-store.js";
import {
	assistantLines,
	clock,
	hookInput,
	jsonl,
	memoryEngine,
	promptLine,
	SESSION,
	tempDir,
	text,
	tick,
} from "./helpers.js";

const goalLine = (met: boolean) => ({
	type: "attachment",
	attachment: { type: "goal_status", met, condition: "Finish A and B", ...(met ? {} : { sentinel: true }) },
});
const filler = (bytes: number) => ({ type: "system", subtype: "note", content: "x".repeat(bytes) });

let engine: Engine;
let store: MemoryStore;
let file: string;
beforeEach(async () => {
	({ engine, store } = memoryEngine());
	file = path.join(await tempDir("boulder-goal-read-"), `${SESSION}.jsonl`);
});

const STREAMS = { stdin: [], stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: "/w" };

const handle = (event: string, fields: Record<string, unknown> = {}) => {
	tick(1000);
	return claudeCodeDialect({ readTurn: readThenGone }).handle(
		hookInput(event, { transcript_path: file, ...fields }),
		engine,
		STREAMS,
	);
};

async function startedList(): Promise<void> {
	await writeFile(file, "");
	await handle("UserPromptSubmit", { prompt: "Go." });
	await handle("PostToolUse", {
		tool_name: "TodoWrite",
		tool_input: { todos: [{ content: "A", status: "pending", activeForm: "Doing A" }] },
	});
}

/**
 * The turn read as the hook reads it, and then the transcript gone: whatever
 * the Stop learns after the turn's reading, it learns from that reading, or
 * it meets a missing file (and records an error, and sees no goal).
 */
let gone = false;
const readThenGone: typeof readTurn = async (path, options) => {
	const reading = await readTurn(path, options);
	if (gone) await rm(path);
	return reading;
};

async function stop() {
	gone = true;
	const answer = await handle("Stop", { stop_hook_active: false, last_assistant_message: "Done for now." });
	gone = false;
	const errors = (await store.readDecisions()).filter((record) => record.reason === "error");
	return { answer, errors };
}

const turn = () => [promptLine("Go.", clock.t), ...assistantLines("msg_1", [text("Done for now.")])];

describe("a Stop reads Claude Code's transcript once, for the turn and the /goal both (the file gone after the turn's reading)", () => {
	it("stands down for a goal set before the turn began, with one open of the transcript", async () => {
		await startedList();
		await appendFile(file, jsonl([goalLine(false), ...turn()]));

		const { answer, errors } = await stop();

		expect(answer.output).toBeNull();
		expect(errors).toEqual([]);
	});

	it("drives when no goal is active (met, or none in the tail), still with one open", async () => {
		await startedList();
		await appendFile(file, jsonl([goalLine(false), goalLine(true), ...turn()]));
		const met = await stop();
		expect(met.answer.output).toMatchObject({ decision: "block" });
		expect(met.errors).toEqual([]);

		await startedList();
		await appendFile(file, jsonl([goalLine(false), filler(GOAL_TAIL_BYTES), ...turn()]));
		expect(await activeGoal(file)).toBeNull();
		const far = await stop();
		expect(far.answer.output).toMatchObject({ decision: "block" });
		expect(far.errors).toEqual([]);
	});
});

describe("the goal read with the turn is the goal activeGoal reads", () => {
	const cases: Record<string, () => Record<string, unknown>[]> = {
		"set before the turn": () => [goalLine(false), ...turn()],
		met: () => [goalLine(false), goalLine(true), ...turn()],
		cleared: () => [
			goalLine(false),
			{ type: "system", subtype: "local_command", commandRun: { command: "goal", args: "clear" } },
			...turn(),
		],
		none: () => turn(),
		"just inside the tail": () => [goalLine(false), filler(GOAL_TAIL_BYTES - 1000), ...turn()],
		"just outside the tail": () => [goalLine(false), filler(GOAL_TAIL_BYTES), ...turn()],
		"inside the turn": () => [promptLine("Go.", clock.t), goalLine(false), ...assistantLines("msg_2", [text("ok")])],
	};
	for (const [name, lines] of Object.entries(cases)) {
		it(name, async () => {
			await writeFile(file, jsonl(lines()));
			const reading = await readTurn(file, { withGoal: GOAL_TAIL_BYTES, chunkBytes: 4096 });
			expect(reading.goal).toBe(await activeGoal(file));
			expect(reading).toMatchObject({ ...(await readTurn(file)), goal: reading.goal });
		});
	}

	it("window edges: every cut of the tail agrees with activeGoal", async () => {
		const lines = jsonl([goalLine(false), filler(50), goalLine(true), filler(30), goalLine(false), ...turn()]);
		await writeFile(file, lines);
		for (let tail = 1; tail <= lines.length + 2; tail += 7) {
			const reading = await readTurn(file, { withGoal: tail, chunkBytes: 64 });
			expect(reading.goal, `tail ${tail}`).toBe(await activeGoal(file, tail));
		}
	});
});

describe("a late transcript (written after the hook started)", () => {
	it("gives the goal of the reading that settled, not of the stale one", async () => {
		await writeFile(file, jsonl([promptLine("Go.", clock.t), ...assistantLines("msg_1", [text("Working.")])]));
		const { readTurn: read, readGoal } = goalWithTurn(readTurn);
		let late = true;
		const sleep = async () => {
			if (!late) return;
			late = false;
			await appendFile(file, jsonl([goalLine(false), ...assistantLines("msg_3", [text("Done for now.")])]));
		};

		const reading = await read(file, { expectLastText: "Done for now.", sleep, retryDelayMs: 1 });

		expect(reading.lastAssistantText).toBe("Done for now.");
		expect(await readGoal(file)).toBe("Finish A and B");
	});
});
