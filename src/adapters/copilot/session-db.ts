/**
 * One table of a SQLite file, read only, without SQLite (Node 20 has none):
 * Copilot CLI's todo list is a table of its session database
 * (`docs/copilot-notes.md`, "Todos"), read when the agent stops, when no
 * statement runs, so the file is whole. Only a rowid table's B-tree and its
 * overflow chains are read; indexes, WITHOUT ROWID tables and write-ahead logs
 * are refused, never guessed at. Untrusted: pages, sizes and offsets are
 * checked against the file; a page reached twice, two pointers to one cell,
 * too many rows or decoded bytes are refused before decoding (a crafted file
 * of a few pages cannot make itself big).
 */
import { readRegularBytes } from "../../engine/bounded-read.js";

export type SqlValue = string | number | bigint | null | Uint8Array;

export class SessionDbProblem extends Error {
	constructor(
		readonly file: string,
		reason: string,
	) {
		super(`cannot read ${file} as a SQLite database: ${reason}`);
		this.name = "SessionDbProblem";
	}
}

/** Far more than a session's todo list; a bigger file is not read. */
const MAX_BYTES = 64 * 1024 * 1024;
/** Rows of one table, and bytes of records decoded (the schema's too): a todo list is tens of rows. */
const LIMITS = { maxRows: 10_000, maxDecodedBytes: 16 * 1024 * 1024 };
type ReadLimits = typeof LIMITS;
const MAGIC = "SQLite format 3\u0000";

/**
 * The rows of `table` (column name → value) in rowid order; null: no such table.
 * Contract: rejects with a `FileProblem` (`missing`: no database yet) or a `SessionDbProblem`.
 */
export async function readTable(file: string, table: string): Promise<Record<string, SqlValue>[] | null> {
	return tableRows(await readRegularBytes(file, MAX_BYTES), table, file);
}

/** Pure: the rows of `table` in the database image `bytes`. Contract: throws only `SessionDbProblem`. */
export function tableRows(
	bytes: Uint8Array,
	table: string,
	file = "(memory)",
	limits: ReadLimits = LIMITS,
): Record<string, SqlValue>[] | null {
	const db = new Database(bytes, file, limits);
	const schema = db.rows(1).map((row) => row.values);
	const entry = schema.find(
		(row) => row[0] === "table" && typeof row[1] === "string" && row[1].toLowerCase() === table.toLowerCase(),
	);
	if (!entry) return null;
	const root = entry[3];
	const sql = entry[4];
	if (typeof root !== "number" || typeof sql !== "string") {
		throw new SessionDbProblem(file, `the schema entry of ${table} has no root page or no SQL`);
	}
	if (/\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql)) throw new SessionDbProblem(file, `${table} is a WITHOUT ROWID table`);
	const columns = columnsOf(sql);
	const aliased = columns.findIndex((column) => /^\S+\s+INTEGER\s+PRIMARY\s+KEY\b/i.test(column.definition));
	return db.rows(root).map(({ rowid, values }) => {
		const row: Record<string, SqlValue> = {};
		columns.forEach((column, index) => {
			// An INTEGER PRIMARY KEY column is the rowid, stored as NULL in the record.
			row[column.name] = index === aliased ? rowid : (values[index] ?? null);
		});
		return row;
	});
}

interface TableRow {
	rowid: number;
	values: SqlValue[];
}

class Database {
	readonly pageSize: number;
	readonly usable: number;
	readonly pageCount: number;

	constructor(
		private readonly bytes: Uint8Array,
		private readonly file: string,
		private readonly limits: ReadLimits,
	) {
		if (bytes.length < 100 || new TextDecoder("latin1").decode(bytes.subarray(0, 16)) !== MAGIC) {
			throw this.problem("it does not begin with the SQLite header");
		}
		const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		const size = view.getUint16(16);
		this.pageSize = size === 1 ? 65536 : size;
		if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0) {
			throw this.problem(`its page size ${this.pageSize} is not valid`);
		}
		if (bytes[18] === 2 || bytes[19] === 2) throw this.problem("it is in write-ahead-log mode");
		this.usable = this.pageSize - (bytes[20] ?? 0);
		if (view.getUint32(56) !== 1) throw this.problem("its text is not UTF-8");
		this.pageCount = Math.floor(bytes.length / this.pageSize);
	}

	problem(reason: string): SessionDbProblem {
		return new SessionDbProblem(this.file, reason);
	}

	page(number: number): Uint8Array {
		if (!Number.isInteger(number) || number < 1 || number > this.pageCount) {
			throw this.problem(`page ${number} is outside the file (${this.pageCount} pages)`);
		}
		const start = (number - 1) * this.pageSize;
		return this.bytes.subarray(start, start + this.pageSize);
	}

	/** Bytes of records decoded so far, from every tree read. */
	private decoded = 0;

	/** Every row of the table B-tree rooted at `root`, in key order; at most `maxRows`. */
	rows(root: number): TableRow[] {
		const found: TableRow[] = [];
		const seen = new Set<number>();
		const walk = (number: number): void => {
			if (seen.has(number)) throw this.problem(`page ${number} is reached twice (a damaged tree)`);
			seen.add(number);
			const page = this.page(number);
			const header = number === 1 ? 100 : 0;
			const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
			const kind = page[header];
			const cells = view.getUint16(header + 3);
			if (kind === 0x05) {
				const pointers = header + 12;
				for (let index = 0; index < cells; index++) walk(view.getUint32(this.cellOffset(view, pointers, index)));
				walk(view.getUint32(header + 8));
				return;
			}
			if (kind !== 0x0d) throw this.problem(`page ${number} is not a table page (type ${kind})`);
			const { maxRows } = this.limits;
			if (found.length + cells > maxRows) throw this.problem(`it holds more than ${maxRows} rows in one table`);
			const offsets = new Set<number>();
			for (let index = 0; index < cells; index++) {
				const offset = this.cellOffset(view, header + 8, index);
				if (offsets.has(offset)) throw this.problem(`two cell pointers of page ${number} name the same cell`);
				offsets.add(offset);
				found.push(this.leafCell(page, offset, number));
			}
		};
		walk(root);
		return found;
	}

	private cellOffset(view: DataView, pointers: number, index: number): number {
		const at = pointers + index * 2;
		if (at + 2 > view.byteLength) throw this.problem("a cell pointer lies outside its page");
		const offset = view.getUint16(at);
		if (offset >= view.byteLength) throw this.problem("a cell lies outside its page");
		return offset;
	}

	private leafCell(page: Uint8Array, offset: number, number: number): TableRow {
		const [payloadSize, afterSize] = varint(page, offset, this.file);
		const [rowid, afterRowid] = varint(page, afterSize, this.file);
		const size = Number(payloadSize);
		this.decoded += size;
		if (this.decoded > this.limits.maxDecodedBytes) {
			throw this.problem(`its records are larger than ${this.limits.maxDecodedBytes} bytes in all`);
		}
		const local = this.localSize(size);
		let payload: Uint8Array;
		if (local === size) {
			payload = page.subarray(afterRowid, afterRowid + size);
		} else {
			payload = new Uint8Array(size);
			payload.set(page.subarray(afterRowid, afterRowid + local));
			const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
			this.readOverflow(view.getUint32(afterRowid + local), payload, local);
		}
		if (payload.length !== size) throw this.problem(`a record on page ${number} runs past its page`);
		return { rowid: Number(rowid), values: decodeRecord(payload, this.file) };
	}

	/** How much of a payload of `size` bytes a table leaf keeps on its own page (SQLite's rule). */
	private localSize(size: number): number {
		const max = this.usable - 35;
		if (size <= max) return size;
		const min = Math.floor(((this.usable - 12) * 32) / 255) - 23;
		const local = min + ((size - min) % (this.usable - 4));
		return local <= max ? local : min;
	}

	private readOverflow(first: number, into: Uint8Array, from: number): void {
		let filled = from;
		let next = first;
		const seen = new Set<number>();
		while (filled < into.length) {
			if (next === 0 || seen.has(next)) throw this.problem("an overflow chain ends early or loops");
			seen.add(next);
			const page = this.page(next);
			const take = Math.min(this.usable - 4, into.length - filled);
			into.set(page.subarray(4, 4 + take), filled);
			filled += take;
			next = new DataView(page.buffer, page.byteOffset, 4).getUint32(0);
		}
	}
}

/** SQLite's varint: 1 to 9 bytes, big-endian, 7 bits each but all 8 in the ninth. */
function varint(bytes: Uint8Array, at: number, file: string): [bigint, number] {
	let value = 0n;
	for (let index = 0; index < 9; index++) {
		const byte = bytes[at + index];
		if (byte === undefined) throw new SessionDbProblem(file, "a number runs past the end of its page");
		if (index === 8) return [(value << 8n) | BigInt(byte), at + 9];
		value = (value << 7n) | BigInt(byte & 0x7f);
		if ((byte & 0x80) === 0) return [value, at + index + 1];
	}
	return [value, at + 9];
}

function decodeRecord(payload: Uint8Array, file: string): SqlValue[] {
	const [headerSize, first] = varint(payload, 0, file);
	const end = Number(headerSize);
	if (end > payload.length) throw new SessionDbProblem(file, "a record's header is longer than the record");
	const types: number[] = [];
	for (let at = first; at < end; ) {
		const [type, next] = varint(payload, at, file);
		types.push(Number(type));
		at = next;
	}
	const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
	const values: SqlValue[] = [];
	let at = end;
	for (const type of types) {
		const size = serialSize(type);
		if (at + size > payload.length) throw new SessionDbProblem(file, "a record's value runs past its end");
		values.push(serialValue(type, view, payload, at, size));
		at += size;
	}
	return values;
}

const INT_SIZES = [0, 1, 2, 3, 4, 6, 8];

function serialSize(type: number): number {
	if (type <= 6) return INT_SIZES[type] ?? 0;
	if (type === 7) return 8;
	if (type < 12) return 0;
	return type % 2 === 0 ? (type - 12) / 2 : (type - 13) / 2;
}

function serialValue(type: number, view: DataView, payload: Uint8Array, at: number, size: number): SqlValue {
	if (type === 0) return null;
	if (type === 8) return 0;
	if (type === 9) return 1;
	if (type === 7) return view.getFloat64(at);
	if (type <= 6) {
		let value = 0n;
		for (let index = 0; index < size; index++) value = (value << 8n) | BigInt(payload[at + index] ?? 0);
		const signed = BigInt.asIntN(size * 8, value);
		return signed >= BigInt(Number.MIN_SAFE_INTEGER) && signed <= BigInt(Number.MAX_SAFE_INTEGER)
			? Number(signed)
			: signed;
	}
	const bytes = payload.subarray(at, at + size);
	return type % 2 === 0 ? Uint8Array.from(bytes) : new TextDecoder().decode(bytes);
}

/** The columns of a `CREATE TABLE` statement, in order: each one's name and definition. */
export function columnsOf(sql: string): { name: string; definition: string }[] {
	const open = sql.indexOf("(");
	const close = sql.lastIndexOf(")");
	if (open === -1 || close <= open) return [];
	const parts: string[] = [];
	let depth = 0;
	let quote: string | null = null;
	let current = "";
	for (const char of sql.slice(open + 1, close)) {
		if (quote !== null) {
			if (char === quote) quote = null;
		} else if (char === "'" || char === '"' || char === "`" || char === "[") {
			quote = char === "[" ? "]" : char;
		} else if (char === "(") depth++;
		else if (char === ")") depth--;
		else if (char === "," && depth === 0) {
			parts.push(current.trim());
			current = "";
			continue;
		}
		current += char;
	}
	parts.push(current.trim());
	const constraint = /^(CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i;
	return parts
		.filter((part) => part !== "" && !constraint.test(part))
		.map((definition) => {
			const name = /^("[^"]*"|`[^`]*`|\[[^\]]*\]|\S+)/.exec(definition)?.[1] ?? "";
			return { name: /^["`[]/.test(name) ? name.slice(1, -1) : name, definition };
		});
}
