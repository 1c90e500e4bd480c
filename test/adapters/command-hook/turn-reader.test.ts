import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	askedQuestion,
	newestInTail,
	partsText,
	readTallied,
	recordsIn,
	type ScanEnd,
	type Tally,
	tallyRecords,
	timeOf,
} from "../../../src/adapters/command-hook/turn-reader.js";

/** A tally of a made-up log: `say` records are replies, a `prompt` begins the turn. */
interface ToyTurn extends ScanEnd {
	seen: string[];
	lastAssistantText: string | null;
	lagging: boolean;
}

function toyTally(): Tally<ToyTurn> {
	const seen: string[] = [];
	let last: string | null = null;
	return {
		add: (record) => {
			seen.push(String(record.id));
			if (record.type === "say") last ??= String(record.text);
			return record.type === "prompt";
		},
		reading: (end) => ({ ...end, seen, lastAssistantText: last, lagging: false }),
	};
}

const jsonl = (records: object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join("");

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), "boulder-turn-reader-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the family's turn reader", () => {
	it("hands the tally the records newest first and stops at the one it names the turn's start", async () => {
		const file = path.join(dir, "log.jsonl");
		writeFileSync(
			file,
			`${jsonl([
				{ id: "p1", type: "prompt" },
				{ id: "s1", type: "say", text: "Old." },
				{ id: "p2", type: "prompt" },
				{ id: "s2", type: "say", text: "First." },
			])}not json\n${jsonl([{ id: "s3", type: "say", text: "Done." }])}`,
		);

		const turn = await readTallied(file, { chunkBytes: 7 }, toyTally);

		expect(turn.seen).toEqual(["s3", "s2", "p2"]);
		expect(turn).toMatchObject({ foundStart: true, skippedLines: 1, lastAssistantText: "Done.", lagging: false });
	});

	it("reads a lagging file again with a fresh tally until it ends with the harness's last reply", async () => {
		const file = path.join(dir, "late.jsonl");
		writeFileSync(file, jsonl([{ id: "p1", type: "prompt" }]));
		let pauses = 0;
		const sleep = async () => {
			pauses++;
			if (pauses === 2) appendFileSync(file, jsonl([{ id: "s1", type: "say", text: "All done." }]));
		};

		const turn = await readTallied(file, { expectLastText: "All done.", sleep }, toyTally);

		expect(pauses).toBe(2);
		expect(turn.seen).toEqual(["s1", "p1"]);
		expect(turn.lastAssistantText).toBe("All done.");
	});

	it("says the turn is unseen when no record begins it", async () => {
		const file = path.join(dir, "no-start.jsonl");
		writeFileSync(file, jsonl([{ id: "s1", type: "say", text: "Hi." }]));

		const turn = await readTallied(file, {}, toyTally);

		expect(turn).toMatchObject({ foundStart: false, seen: ["s1"] });
	});

	it("tallies records in memory newest first, up to the turn's start or all of them", () => {
		const records = [
			{ id: "p1", type: "prompt" },
			{ id: "p2", type: "prompt" },
			{ id: "s1", type: "say", text: "Done." },
		];
		expect(tallyRecords(toyTally(), records, undefined, true).seen).toEqual(["s1", "p2"]);
		expect(tallyRecords(toyTally(), records).seen).toEqual(["s1", "p2", "p1"]);
	});

	it("reads the first question asked and a record's time, and gives plain words when there is none", () => {
		expect(askedQuestion({ questions: [{ question: " Which DB? " }] })).toBe("Which DB?");
		expect(askedQuestion({ questions: [] })).toBe("the agent asked the user a question");
		expect(timeOf("2026-12-01T12:00:00.000Z")).toBe(Date.UTC(2026, 11, 1, 12));
		expect(timeOf(undefined)).toBeNull();
	});
});

describe("the newest record of one kind in a file's tail", () => {
	/** A toy mode: `{"mode": ...}` records say it; `{"note": ...}` ones say nothing. */
	const mode = newestInTail(
		1024,
		['"mode"'],
		(record) => (typeof record.mode === "string" ? record.mode : undefined),
		"off",
	);

	it("is the newest line that says something, lines without a mark, torn or saying nothing passed over", () => {
		const lines = ['{"mode":"on"}', '{"mode":"auto"}', '{"mode":7}', '{"note":"mode"}', '{"mode":"zzz', ""];
		expect(mode.ofLines(lines)).toBe("auto");
		expect(mode.ofLines(['{"note":"x"}', '{"other":1}'])).toBe("off");
		expect(mode.ofLines([])).toBe("off");
	});

	it("reads only the file's last bytes, the line cut by their start left out", async () => {
		const file = path.join(dir, "tail.jsonl");
		const padding = `{"note":"${"x".repeat(40)}"}`;
		writeFileSync(file, `${['{"mode":"old"}', padding, padding].join("\n")}\n`);
		expect(await mode.read(file)).toBe("old");
		expect(await mode.read(file, padding.length * 2 + 5)).toBe("off");
	});
});

describe("a message's parts", () => {
	it("are the records of a list, none of anything else", () => {
		expect(recordsIn([{ a: 1 }, "x", null, [2], { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
		expect(recordsIn({ a: 1 })).toEqual([]);
	});

	it("give their text joined, thoughts and parts without text left out, or null when there is none", () => {
		const parts = [{ text: "A" }, { text: "think", thought: true }, { functionCall: {} }, { text: 7 }, { text: "B" }];
		expect(partsText(parts)).toBe("A\nB");
		expect(partsText(parts, undefined, "")).toBe("AB");
		expect(
			partsText(
				[
					{ type: "output_text", text: "C" },
					{ type: "x", text: "D" },
				],
				(part) => part.type === "output_text",
			),
		).toBe("C");
		expect(partsText([{ text: " \n" }, { text: "", thought: false }])).toBeNull();
		expect(partsText("text")).toBeNull();
	});
});
