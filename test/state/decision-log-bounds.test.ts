/**
 * The decision log's readers on a log boulder did not write: a line longer
 * than any record (even one that parses) is skipped and counted, never held
 * whole, and a file is read back no further than `MAX_LOG_SCAN_BYTES`.
 */
import { appendFile, open, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import {
	appendDecisionLine,
	MAX_LOG_SCAN_BYTES,
	MAX_RECORD_BYTES,
	readDecisionLines,
} from "../../src/state/decision-log.js";
import { readDecisionsSince, readNewestDecisions } from "../../src/state/decision-tail.js";
import { detailsOf, logRecord, tempLogFiles } from "./helpers.js";

const logFile = tempLogFiles("boulder-log-bounds-");
const line = (r: DecisionRecord) => `${JSON.stringify(r)}\n`;
const big = () => logRecord(2, "x".repeat(MAX_RECORD_BYTES + 10));

describe("a line longer than any record", () => {
	it("is skipped and counted by every reader, even when it parses", async () => {
		const file = await logFile();
		await writeFile(file, `${line(logRecord(1))}${line(big())}${line(logRecord(3))}`);

		const all = await readDecisionLines(file, { keep: 1 });
		expect(detailsOf(all.records)).toEqual(["line 1", "line 3"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(detailsOf(newest.records)).toEqual(["line 1", "line 3"]);
		expect(newest.skipped).toBe(1);

		const since = await readDecisionsSince(file, { ino: 0, head: "", offset: 0 }, { keep: 1 });
		expect(detailsOf(since.records)).toEqual(["line 1", "line 3"]);
		expect(since.skipped).toBe(1);
	});

	it("without a newline at the end is skipped at once, and the next look starts after it", async () => {
		const file = await logFile();
		await writeFile(file, `${line(logRecord(1))}${"y".repeat(MAX_RECORD_BYTES + 10)}`);

		const all = await readDecisionLines(file, { keep: 1 });
		expect(detailsOf(all.records)).toEqual(["line 1"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(detailsOf(newest.records)).toEqual(["line 1"]);
		expect(newest.skipped).toBe(1);
		await appendFile(file, `tail of it\n${line(logRecord(4))}`);
		const next = await readDecisionsSince(file, newest.position, { keep: 1 });
		expect(detailsOf(next.records)).toEqual(["line 4"]);
		expect(next.skipped).toBe(1);
	});
});

describe("a file far larger than a log boulder keeps", () => {
	it("is read back no further than MAX_LOG_SCAN_BYTES: what lies beyond is one skipped line", async () => {
		const file = await logFile();
		await appendDecisionLine(file, logRecord(1), { maxBytes: Number.MAX_SAFE_INTEGER });
		const handle = await open(file, "r+");
		// Sparse: no disk is written for the hole.
		const end = MAX_LOG_SCAN_BYTES + 256 * 1024;
		await handle.truncate(end);
		await handle.write(`\n${line(logRecord(2))}`, end);
		await handle.close();

		const all = await readDecisionLines(file, { keep: 1 });
		expect(detailsOf(all.records)).toEqual(["line 2"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(detailsOf(newest.records)).toEqual(["line 2"]);
		expect(newest.skipped).toBe(1);
	});
});
