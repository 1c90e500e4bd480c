/**
 * A crash in the middle of an append leaves the log's last line torn. The
 * next append must start on a line of its own, so the torn line is the only
 * one lost: readers skip it and count it.
 */
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appendDecisionLine, readDecisionLines } from "../../src/state/decision-log.js";
import { FileStore } from "../../src/state/file-store.js";
import { decision, tempDir } from "./helpers.js";

describe("a torn last line", () => {
	it("does not swallow the next decision: it starts on a fresh line and the torn one is counted", async () => {
		const file = path.join(await tempDir(), "decisions.jsonl");
		await appendDecisionLine(file, decision({ at: 1 }));
		await appendFile(file, '{"v":1,"at":1');
		await appendDecisionLine(file, decision({ at: 2 }));
		await appendDecisionLine(file, decision({ at: 3 }));

		const { records, skipped } = await readDecisionLines(file);
		expect(records.map((record) => record.at)).toEqual([1, 2, 3]);
		expect(skipped).toBe(1);
		const lines = (await readFile(file, "utf8")).split("\n");
		expect(lines[1]).toBe('{"v":1,"at":1');
	});

	it("recovers when the whole file is one torn line", async () => {
		const file = path.join(await tempDir(), "decisions.jsonl");
		await appendFile(file, '{"v":1,"at":1');
		await appendDecisionLine(file, decision({ at: 2 }));
		const { records, skipped } = await readDecisionLines(file);
		expect(records.map((record) => record.at)).toEqual([2]);
		expect(skipped).toBe(1);
	});

	it("adds nothing to a log whose last line is whole", async () => {
		const file = path.join(await tempDir(), "decisions.jsonl");
		await appendDecisionLine(file, decision({ at: 1 }));
		await appendDecisionLine(file, decision({ at: 2 }));
		expect((await readFile(file, "utf8")).split("\n")).toHaveLength(3);
		expect((await readDecisionLines(file)).skipped).toBe(0);
	});

	it("is reported by the store as lines that could not be read", async () => {
		const store = new FileStore(await tempDir());
		await store.appendDecision(decision({ at: 1 }));
		await appendFile(store.paths.decisions, '{"v":1,"at":1');
		await store.appendDecision(decision({ at: 2 }));
		expect((await store.readDecisions()).map((record) => record.at)).toEqual([1, 2]);
		const problems = await store.problems();
		expect(problems.map((problem) => problem.reason)).toEqual([
			"1 line(s) of the decision log could not be read and are skipped",
		]);
	});
});
