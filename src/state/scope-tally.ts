/**
 * A scope's tally: marks kept by appending, for what happens too often to
 * rewrite the scope's record each time (todo hygiene marks every file
 * change, and Claude Code starts a hook process per edit). The file
 * `scopes/<key>.tally` holds one record of `TALLY_RECORD_BYTES` per mark:
 * the caller's mark (`TALLY_MARK_LENGTH` characters of `[0-9a-z]`), a random
 * tag that tells one append from another, and a newline.
 *
 * An append is one `write` the kernel places at the file's end whoever else
 * appends, so two processes marking at once both land, without a lock. Each
 * learns where its own record stands: the file's end after its write, when
 * nobody appended between its look at the size and its write; otherwise the
 * place of its own tag among the records written since. It then reads the
 * marks just before its own, so what it decides from the run of marks
 * ending at its own is decided by exactly one of several at once.
 *
 * Not fsynced: a crash may lose the last marks, or leave bytes that are no
 * mark; either only ever shortens a run the caller counts, never touches
 * anything a record holds. A tally from before marks (9-byte counts) reads
 * the same way: no marks. Opened like every state file (`state-file.ts`):
 * never through a link or anything but a regular file.
 */
import { openStateFile } from "./state-file.js";

/** A mark's length: what the caller keeps per append. */
export const TALLY_MARK_LENGTH = 9;
const TAG_LENGTH = 6;
/** One record: the mark, a random tag, a newline. */
export const TALLY_RECORD_BYTES = TALLY_MARK_LENGTH + TAG_LENGTH + 1;

export interface Tallied {
	/** This record's place in the tally, from 1. */
	place: number;
	/** The marks up to and including this one, oldest first: at most `window`, fewer at the tally's start. */
	marks: string[];
}

/** `scopes/<key>.json` → `scopes/<key>.tally`. */
export function tallyFileOf(scopeFile: string): string {
	return `${scopeFile.endsWith(".json") ? scopeFile.slice(0, -".json".length) : scopeFile}.tally`;
}

/** Appends `mark` to the tally in `file` (made when missing) and returns its place and the `window` marks ending with it. */
export async function addToTally(file: string, mark: string, window: number): Promise<Tallied> {
	if (mark.length !== TALLY_MARK_LENGTH || !isAlphabet(mark, 0, TALLY_MARK_LENGTH, "z"))
		throw new TypeError(`a tally mark is ${TALLY_MARK_LENGTH} of [0-9a-z], not ${JSON.stringify(mark)}`);
	const tag = Math.floor(Math.random() * 16 ** TAG_LENGTH)
		.toString(16)
		.padStart(TAG_LENGTH, "0");
	const record = Buffer.from(`${mark}${tag}\n`, "latin1");
	const handle = await openStateFile(file, "append");
	try {
		const before = (await handle.stat()).size;
		await handle.write(record);
		const after = (await handle.stat()).size;
		let end = after;
		if (after - before !== TALLY_RECORD_BYTES) {
			// Others appended around this one: it ends where its own record stands among what was written since.
			const since = Buffer.alloc(after - before);
			await handle.read(since, 0, since.length, before);
			const at = since.indexOf(record);
			if (at >= 0) end = before + at + TALLY_RECORD_BYTES;
		}
		const start = Math.max(0, end - Math.max(1, window) * TALLY_RECORD_BYTES);
		const tail = Buffer.alloc(end - start);
		await handle.read(tail, 0, tail.length, start);
		return { place: Math.ceil(end / TALLY_RECORD_BYTES), marks: marksOf(tail) };
	} finally {
		await handle.close();
	}
}

/** The marks of whole records read back from their end; a record that is not one (torn, zeroed, an old count) reads as a mark of none. */
function marksOf(tail: Buffer): string[] {
	const marks: string[] = [];
	for (let end = tail.length; end >= TALLY_RECORD_BYTES; end -= TALLY_RECORD_BYTES) {
		const record = tail.toString("latin1", end - TALLY_RECORD_BYTES, end);
		const whole =
			isAlphabet(record, 0, TALLY_MARK_LENGTH, "z") &&
			isAlphabet(record, TALLY_MARK_LENGTH, TAG_LENGTH, "f") &&
			record.endsWith("\n");
		marks.push(whole ? record.slice(0, TALLY_MARK_LENGTH) : "");
	}
	return marks.reverse();
}

/** The `length` characters of `text` at `from` are all digits or lowercase letters up to `last`. */
function isAlphabet(text: string, from: number, length: number, last: "z" | "f"): boolean {
	const top = last.charCodeAt(0);
	for (let index = from; index < from + length; index++) {
		const code = text.charCodeAt(index);
		if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= top))) return false;
	}
	return true;
}
