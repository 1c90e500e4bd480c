/**
 * The decision log: rotation by size with a bounded number of old files,
 * reading newest-last across them, filtering, counting lines it cannot read,
 * and concurrent appenders from several processes losing nothing.
 */
import { appendFile, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appendDecisionLine, readDecisionLines, rotatedLogFile } from "../../src/state/decision-log.js";
import { FileStore } from "../../src/state/file-store.js";
import { decision, modeOf, tempDir } from "./helpers.js";

async function logFile(): Promise<string> {
	return path.join(await tempDir(), "decisions.jsonl");
}

describe("rotation", () => {
	it("names rotated files decisions.<n>.jsonl", () => {
		expect(rotatedLogFile("/w/.boulder/decisions.jsonl", 0)).toBe("/w/.boulder/decisions.jsonl");
		expect(rotatedLogFile("/w/.boulder/decisions.jsonl", 2)).toBe("/w/.boulder/decisions.2.jsonl");
	});

	it("rotates by size, keeps at most `keep` old files, and reads the newest last", async () => {
		const file = await logFile();
		const options = { maxBytes: 1_000, keep: 2 };
		for (let n = 0; n < 60; n++) await appendDecisionLine(file, decision({ at: n }), options);

		const names = (await readdir(path.dirname(file))).sort();
		expect(names).toEqual(["decisions.1.jsonl", "decisions.2.jsonl", "decisions.jsonl"]);
		for (const name of names) {
			expect((await stat(path.join(path.dirname(file), name))).size).toBeLessThanOrEqual(1_000);
		}
		expect(await modeOf(file)).toBe(0o600);

		const { records, skipped } = await readDecisionLines(file, { keep: 2 });
		const times = records.map((record) => record.at);
		expect(skipped).toBe(0);
		expect(times.length).toBeLessThan(60);
		// A contiguous tail of what was written: the oldest were rotated out, nothing in between lost.
		expect(times).toEqual(Array.from({ length: times.length }, (_, n) => 60 - times.length + n));
	});

	it("does not rotate a file that is still under the size limit", async () => {
		const file = await logFile();
		for (let n = 0; n < 5; n++) await appendDecisionLine(file, decision({ at: n }), { maxBytes: 1_000_000 });
		expect(await readdir(path.dirname(file))).toEqual(["decisions.jsonl"]);
	});
});

describe("reading", () => {
	it("filters by session and keeps the newest `limit`, across rotated files", async () => {
		const file = await logFile();
		for (let n = 0; n < 40; n++) {
			await appendDecisionLine(file, decision({ at: n, session: n % 2 === 0 ? "even" : "odd" }), {
				maxBytes: 900,
				keep: 20,
			});
		}
		const even = await readDecisionLines(file, { session: "even", keep: 20 });
		expect(even.records.map((record) => record.at)).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
		const lastThree = await readDecisionLines(file, { session: "odd", limit: 3, keep: 20 });
		expect(lastThree.records.map((record) => record.at)).toEqual([35, 37, 39]);
		const all = await readDecisionLines(file, { limit: 1, keep: 20 });
		expect(all.records.map((record) => record.at)).toEqual([39]);
	});

	it("skips lines that do not parse and counts them", async () => {
		const file = await logFile();
		await appendDecisionLine(file, decision({ at: 1 }));
		await appendFile(file, 'not json\n{"v":1,"at":"wrong type"}\n\n');
		await appendDecisionLine(file, decision({ at: 2 }));
		await appendFile(file, '{"v":1,"at":3,"worktr');
		const { records, skipped } = await readDecisionLines(file);
		expect(records.map((record) => record.at)).toEqual([1, 2]);
		expect(skipped).toBe(3);
	});

	it("reads lines whole across the pieces it reads from the end: long lines and characters cut in two", async () => {
		const file = await logFile();
		const long = "é".repeat(100_000);
		const details = ["short", long, `ab${"ü".repeat(40_000)}`, "x", long];
		for (const [at, detail] of details.entries()) await appendDecisionLine(file, decision({ at, detail }));
		const { records, skipped } = await readDecisionLines(file);
		expect(skipped).toBe(0);
		expect(records.map((record) => record.detail)).toEqual(details);
		expect((await readDecisionLines(file, { limit: 2 })).records.map((record) => record.at)).toEqual([3, 4]);
	});

	it("stops reading once it has the newest `limit`: what lies further back is never looked at", async () => {
		const file = await logFile();
		await appendFile(file, "garbage from long ago\n".repeat(20_000));
		for (let at = 0; at < 5; at++) await appendDecisionLine(file, decision({ at }));
		const newest = await readDecisionLines(file, { limit: 3 });
		expect(newest).toEqual({ records: [2, 3, 4].map((at) => decision({ at })), skipped: 0 });
		expect((await readDecisionLines(file)).skipped).toBe(20_000);
	});

	it("stops where the caller says it has enough, newest first", async () => {
		const file = await logFile();
		await appendFile(file, "garbage from long ago\n");
		for (let at = 0; at < 6; at++) await appendDecisionLine(file, decision({ at, work: `w${at % 3}` }));
		const wanted = new Set(["w0", "w1"]);
		const seen: number[] = [];
		const read = await readDecisionLines(file, {
			enough: (record) => {
				seen.push(record.at);
				wanted.delete(record.work ?? "");
				return wanted.size === 0;
			},
		});
		expect(seen).toEqual([5, 4, 3]);
		expect(read).toEqual({ records: [3, 4, 5].map((at) => decision({ at, work: `w${at % 3}` })), skipped: 0 });
	});

	it("reports skipped lines through the store's problems()", async () => {
		const store = new FileStore(await tempDir());
		await store.appendDecision(decision());
		await appendFile(store.paths.decisions, "garbage\n");
		expect((await store.readDecisionLog()).skipped).toBe(1);
		expect(await store.problems()).toEqual([
			expect.objectContaining({ file: store.paths.decisions, reason: expect.stringContaining("1 line") }),
		]);
	});

	it("refuses to write an invalid record", async () => {
		const file = await logFile();
		await expect(appendDecisionLine(file, { ...decision(), kind: "maybe" } as never)).rejects.toMatchObject({
			code: "internal",
		});
	});
});
