/**
 * A crafted session database must cost what its size allows, not what its
 * pointers claim: every pointer of a leaf naming one cell, more rows or more
 * decoded bytes than a todo list could hold, are refused before they are decoded.
 */
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTodos } from "../../../src/adapters/copilot/events.js";
import { readTable, SessionDbProblem, tableRows } from "../../../src/adapters/copilot/session-db.js";

const fixture = path.join(import.meta.dirname, "..", "..", "fixtures", "copilot", "session-small.db");
const PAGE = 4096;

/** The fixture with every cell pointer of its todos leaf (page 2) naming the first cell. */
async function sameCellEverywhere(): Promise<Uint8Array> {
	const bytes = new Uint8Array(await readFile(fixture));
	const view = new DataView(bytes.buffer);
	expect(bytes[PAGE]).toBe(0x0d);
	const cells = view.getUint16(PAGE + 3);
	expect(cells).toBeGreaterThan(1);
	const first = view.getUint16(PAGE + 8);
	for (let index = 1; index < cells; index++) view.setUint16(PAGE + 8 + index * 2, first);
	return bytes;
}

describe("a crafted session database", () => {
	it("is refused when two cell pointers of a page name the same cell", async () => {
		const bytes = await sameCellEverywhere();
		expect(() => tableRows(bytes, "todos", "x.db")).toThrow(SessionDbProblem);
		expect(() => tableRows(bytes, "todos", "x.db")).toThrow(/x\.db.*two cell pointers of page 2 name the same cell/);
		const file = path.join(os.tmpdir(), `boulder-same-cell-${process.pid}.db`);
		await writeFile(file, bytes);
		await expect(readTodos(file)).rejects.toThrow(/same cell/);
	});

	it("is refused past the rows and the decoded bytes boulder reads, naming the limit", async () => {
		const bytes = new Uint8Array(await readFile(fixture));
		expect(tableRows(bytes, "todos")).toHaveLength(4);
		expect(() => tableRows(bytes, "todos", "x.db", { maxRows: 3, maxDecodedBytes: 1 << 20 })).toThrow(
			/x\.db.*more than 3 rows/,
		);
		expect(() => tableRows(bytes, "todos", "x.db", { maxRows: 100, maxDecodedBytes: 64 })).toThrow(
			/x\.db.*larger than 64 bytes in all/,
		);
	});

	it("is read only when it is a regular file: a folder or a missing file is a FileProblem, a missing one no list", async () => {
		await expect(readTable(os.tmpdir(), "todos")).rejects.toThrow(/a folder, not a regular file/);
		expect(await readTodos(path.join(os.tmpdir(), `boulder-none-${process.pid}.db`))).toBeNull();
	});
});
