import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { columnsOf, readTable, SessionDbProblem, tableRows } from "../../../src/adapters/copilot/session-db.js";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "copilot");
const fixture = (name: string) => path.join(FIXTURES, name);

describe("reading Copilot's session database without SQLite", () => {
	it("reads the todos table of a database shaped like Copilot 1.0.102's", async () => {
		const rows = await readTable(fixture("session-small.db"), "todos");
		expect(rows?.map((row) => [row.id, row.title, row.status])).toEqual([
			["user-model", "Creating user model", "done"],
			["api-routes", "Creating API routes", "in_progress"],
			["theme-toggle", "Adding théme toggle ✓", "pending"],
			["ask-design", "Waiting on design", "blocked"],
		]);
		expect(rows?.[2]?.description).toBeNull();
	});

	it("walks interior pages and overflow chains (512-byte pages, long descriptions)", async () => {
		const rows = await readTable(fixture("session-deep.db"), "todos");
		expect(rows).toHaveLength(30);
		rows?.forEach((row, index) => {
			expect(row.id).toBe(`item-${String(index).padStart(2, "0")}`);
			expect(row.description).toBe(`d${String(index).padStart(2, "0")}-`.repeat(index * 12));
		});
	});

	it("decodes every kind of value, and an INTEGER PRIMARY KEY as the rowid", async () => {
		const rows = await readTable(fixture("session-deep.db"), "numbers");
		expect(rows).toEqual([
			{ n: 7, real: 1.5, big: -9007199254740993n, blob: new Uint8Array([0, 255]), small: -3 },
			{ n: 9, real: null, big: 4294967296, blob: null, small: 1 },
		]);
	});

	it("says there is no such table rather than guessing", async () => {
		expect(await readTable(fixture("session-small.db"), "plans")).toBeNull();
	});

	it("refuses a write-ahead-log database, a file that is not SQLite, and a cut-short file, naming the file", async () => {
		await expect(readTable(fixture("session-wal.db"), "todos")).rejects.toThrow(/session-wal\.db.*write-ahead-log/);
		expect(() => tableRows(new TextEncoder().encode("not a database at all ".repeat(10)), "todos", "x.db")).toThrow(
			SessionDbProblem,
		);
		const whole = await readFile(fixture("session-deep.db"));
		const cut = path.join(os.tmpdir(), `boulder-cut-${process.pid}.db`);
		await writeFile(cut, whole.subarray(0, 2048));
		await expect(readTable(cut, "todos")).rejects.toThrow(/boulder-cut-\d+\.db.*outside the file/);
	});

	it("never loops on a damaged tree whose page points at itself", async () => {
		const bytes = new Uint8Array(await readFile(fixture("session-small.db")));
		const page = 4096 * 1;
		// Page 2 made an interior page whose right-most child is page 2.
		bytes[page] = 0x05;
		bytes[page + 3] = 0;
		bytes[page + 4] = 0;
		new DataView(bytes.buffer).setUint32(page + 8, 2);
		expect(() => tableRows(bytes, "todos")).toThrow(/reached twice/);
	});

	it("reads the columns of a CREATE TABLE, constraints and quoted names included", () => {
		expect(
			columnsOf('CREATE TABLE t ("a b" TEXT, c INTEGER CHECK(c IN (1, 2)), [d] TEXT, PRIMARY KEY (c), UNIQUE (d))').map(
				(column) => column.name,
			),
		).toEqual(["a b", "c", "d"]);
	});
});
