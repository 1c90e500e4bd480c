/**
 * The decision log's readers on a log boulder did not write: a line longer
 * than any record (even one that parses) is skipped and counted, never held
 * whole, and a file is read back no further than `MAX_LOG_SCAN_BYTES`.
 */
import { appendFile, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import {
	appendDecisionLine,
	MAX_LOG_SCAN_BYTES,
	MAX_RECORD_BYTES,
	readDecisionLines,
} from "../../src/state/decision-log.js";
import { readDecisionsSince, readNewestDecisions } from "../../src/state/decision-tail.js";

const dirs: string[] = [];
afterEach(async () => {
	for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function logFile(): Promise<string> {
	const dir = await mkdtemp(path.join(os.tmpdir(), "boulder-log-bounds-"));
	dirs.push(dir);
	return path.join(dir, "decisions.jsonl");
}

function record(n: number, detail = `line ${n}`): DecisionRecord {
	return {
		v: 1,
		at: 1_000 + n,
		worktree: "/w",
		scope: null,
		harness: "claude-code",
		session: "s",
		work: null,
		kind: "skip",
		reason: "disabled",
		detail,
	};
}

const line = (r: DecisionRecord) => `${JSON.stringify(r)}\n`;
const details = (records: readonly DecisionRecord[]) => records.map((r) => r.detail);
const big = () => record(2, "x".repeat(MAX_RECORD_BYTES + 10));

describe("a line longer than any record", () => {
	it("is skipped and counted by every reader, even when it parses", async () => {
		const file = await logFile();
		await writeFile(file, `${line(record(1))}${line(big())}${line(record(3))}`);

		const all = await readDecisionLines(file, { keep: 1 });
		expect(details(all.records)).toEqual(["line 1", "line 3"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(details(newest.records)).toEqual(["line 1", "line 3"]);
		expect(newest.skipped).toBe(1);

		const since = await readDecisionsSince(file, { ino: 0, head: "", offset: 0 }, { keep: 1 });
		expect(details(since.records)).toEqual(["line 1", "line 3"]);
		expect(since.skipped).toBe(1);
	});

	it("without a newline at the end is skipped at once, and the next look starts after it", async () => {
		const file = await logFile();
		await writeFile(file, `${line(record(1))}${"y".repeat(MAX_RECORD_BYTES + 10)}`);

		const all = await readDecisionLines(file, { keep: 1 });
		expect(details(all.records)).toEqual(["line 1"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(details(newest.records)).toEqual(["line 1"]);
		expect(newest.skipped).toBe(1);
		await appendFile(file, `tail of it\n${line(record(4))}`);
		const next = await readDecisionsSince(file, newest.position, { keep: 1 });
		expect(details(next.records)).toEqual(["line 4"]);
		expect(next.skipped).toBe(1);
	});
});

describe("a file far larger than a log boulder keeps", () => {
	it("is read back no further than MAX_LOG_SCAN_BYTES: what lies beyond is one skipped line", async () => {
		const file = await logFile();
		await appendDecisionLine(file, record(1), { maxBytes: Number.MAX_SAFE_INTEGER });
		const handle = await open(file, "r+");
		// Sparse: no disk is written for the hole.
		const end = MAX_LOG_SCAN_BYTES + 256 * 1024;
		await handle.truncate(end);
		await handle.write(`\n${line(record(2))}`, end);
		await handle.close();

		const all = await readDecisionLines(file, { keep: 1 });
		expect(details(all.records)).toEqual(["line 2"]);
		expect(all.skipped).toBe(1);

		const newest = await readNewestDecisions(file, { limit: 10, keep: 1 });
		expect(details(newest.records)).toEqual(["line 2"]);
		expect(newest.skipped).toBe(1);
	});
});
