import { appendFile, readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { appendDecisionLine } from "../../src/state/decision-log.js";
import { readDecisionsSince, readNewestDecisions } from "../../src/state/decision-tail.js";
import { detailsOf, logRecord, tempLogFiles } from "./helpers.js";

const logFile = tempLogFiles("boulder-tail-");

describe("reading the decision log from its end", () => {
	it("reads the newest lines backwards across chunk boundaries, oldest first", async () => {
		const file = await logFile();
		const padding = "x".repeat(700);
		await writeFile(
			file,
			Array.from({ length: 300 }, (_, n) => `${JSON.stringify(logRecord(n, `line ${n} ${padding}`))}\n`).join(""),
		);
		const read = await readNewestDecisions(file, { limit: 150, keep: 3 });
		expect(read.records).toHaveLength(150);
		expect(read.records[0]?.at).toBe(1_150);
		expect(read.records.at(-1)?.at).toBe(1_299);
		expect(read.skipped).toBe(0);
	});

	it("leaves a line still being written for the next look, then reads only what was appended", async () => {
		const file = await logFile();
		await writeFile(file, `${JSON.stringify(logRecord(1))}\n${JSON.stringify(logRecord(2)).slice(0, 20)}`);
		const first = await readNewestDecisions(file, { limit: 10, keep: 3 });
		expect(detailsOf(first.records)).toEqual(["line 1"]);
		const rest = JSON.stringify(logRecord(2)).slice(20);
		await appendFile(file, `${rest}\n${JSON.stringify(logRecord(3))}\n`);
		const next = await readDecisionsSince(file, first.position, { keep: 3 });
		expect(detailsOf(next.records)).toEqual(["line 2", "line 3"]);
		const none = await readDecisionsSince(file, next.position, { keep: 3 });
		expect(none.records).toEqual([]);
		await appendFile(file, `${JSON.stringify(logRecord(4))}\n`);
		const again = await readDecisionsSince(file, none.position, { keep: 3 });
		expect(detailsOf(again.records)).toEqual(["line 4"]);
	});

	it("follows a rotation into the rotated file: no line lost, none twice", async () => {
		const file = await logFile();
		const options = { maxBytes: 2_000, keep: 3 };
		for (let n = 0; n < 5; n++) await appendDecisionLine(file, logRecord(n), options);
		const first = await readNewestDecisions(file, { limit: 100, keep: 3 });
		for (let n = 5; n < 20; n++) await appendDecisionLine(file, logRecord(n), options);
		expect((await readFile(`${file.slice(0, -6)}.1.jsonl`, "utf8")).length).toBeGreaterThan(0);
		const next = await readDecisionsSince(file, first.position, { keep: 3 });
		expect(next.gap).toBe(false);
		expect([...first.records, ...next.records].map((r) => r.at)).toEqual(
			Array.from({ length: 20 }, (_, n) => 1_000 + n),
		);
	});

	it("says there was a gap when the log rotated past every file kept", async () => {
		const file = await logFile();
		const options = { maxBytes: 600, keep: 1 };
		await appendDecisionLine(file, logRecord(0), options);
		const first = await readNewestDecisions(file, { limit: 100, keep: 1 });
		for (let n = 1; n < 20; n++) await appendDecisionLine(file, logRecord(n), options);
		const next = await readDecisionsSince(file, first.position, { keep: 1 });
		expect(next.gap).toBe(true);
		expect(next.records.at(-1)?.at).toBe(1_019);
	});

	it("counts lines that do not parse, and reads a missing log as empty", async () => {
		const file = await logFile();
		expect((await readNewestDecisions(file, { limit: 5, keep: 3 })).records).toEqual([]);
		await writeFile(file, `not json\n${JSON.stringify(logRecord(1))}\n{"v":2}\n`);
		const read = await readNewestDecisions(file, { limit: 5, keep: 3 });
		expect(detailsOf(read.records)).toEqual(["line 1"]);
		expect(read.skipped).toBe(2);
	});
});
