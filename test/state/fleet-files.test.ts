import { appendFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
	EMPTY_SHIPPER_STATUS,
	freshCursor,
	readOutbox,
	shipperWanted,
	writeShipperStatus,
} from "../../src/state/fleet-files.js";
import { tempDir } from "./helpers.js";

const line = (n: number) =>
	`${JSON.stringify({ v: 1, at: n, worktree: "/w", scope: null, harness: null, session: null, work: null, kind: "event", reason: "user-turn", detail: `line ${n}` })}\n`;

describe("the decision log as the shipper's outbox", () => {
	it("names each record by its file's first line and its byte offset, the same on every read", async () => {
		const dir = await tempDir();
		const log = path.join(dir, "decisions.jsonl");
		await writeFile(log, line(1) + line(2) + line(3));
		const first = readOutbox(log, freshCursor(dir), 100);
		const again = readOutbox(log, freshCursor(dir), 100);
		expect(first.lines.map((l) => l.key)).toEqual(again.lines.map((l) => l.key));
		expect(first.lines.map((l) => l.record?.detail)).toEqual(["line 1", "line 2", "line 3"]);
		expect(new Set(first.lines.map((l) => l.key)).size).toBe(3);
		expect(first.lines.map((l) => l.seq)).toEqual([0, 1, 2]);
	});

	it("goes on from the cursor, across a rotation, in batches", async () => {
		const dir = await tempDir();
		const log = path.join(dir, "decisions.jsonl");
		await writeFile(log, line(1) + line(2));
		const a = readOutbox(log, freshCursor(dir), 100);
		await appendFile(log, line(3));
		await rename(log, path.join(dir, "decisions.1.jsonl"));
		await writeFile(log, line(4) + line(5));
		const b = readOutbox(log, a.next, 2);
		expect(b.lines.map((l) => l.record?.detail)).toEqual(["line 3", "line 4"]);
		expect(b.more).toBe(true);
		const c = readOutbox(log, b.next, 2);
		expect(c.lines.map((l) => l.record?.detail)).toEqual(["line 5"]);
		expect(c.more).toBe(false);
		expect(c.lines[0]?.seq).toBe(4);
		const keys = [...a.lines, ...b.lines, ...c.lines].map((l) => l.key);
		expect(new Set(keys).size).toBe(5);
	});

	it("counts a file that rotated away unread and starts at the oldest kept", async () => {
		const dir = await tempDir();
		const log = path.join(dir, "decisions.jsonl");
		await writeFile(log, line(1));
		const a = readOutbox(log, freshCursor(dir), 100);
		await writeFile(log, line(9));
		const b = readOutbox(log, a.next, 100, 1);
		expect(b.next.lost).toBe(1);
		expect(b.lines.map((l) => l.record?.detail)).toEqual(["line 9"]);
	});

	it("leaves a line without its newline for later, and skips a torn one", async () => {
		const dir = await tempDir();
		const log = path.join(dir, "decisions.jsonl");
		await writeFile(log, `${line(1)}{"torn\n${line(2).slice(0, 20)}`);
		const a = readOutbox(log, freshCursor(dir), 100);
		expect(a.lines.map((l) => l.record?.detail ?? null)).toEqual(["line 1", null]);
		await appendFile(log, line(2).slice(20));
		const b = readOutbox(log, a.next, 100);
		expect(b.lines.map((l) => l.record?.detail)).toEqual(["line 2"]);
	});
});

describe("the hook's question", () => {
	it("wants a shipper unless one runs or the last one is backing off", async () => {
		const home = await tempDir();
		const env = { BOULDER_STATE_HOME: home };
		expect(shipperWanted(env, 1000)).toBe(true);
		await writeShipperStatus(env, { ...EMPTY_SHIPPER_STATUS, retryAt: 5000, failures: 1 });
		expect(shipperWanted(env, 4000)).toBe(false);
		expect(shipperWanted(env, 6000)).toBe(true);
	});
});
