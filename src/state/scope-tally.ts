/**
 * A scope's tally: a count kept by appending, for what happens too often to
 * rewrite the scope's record each time (todo hygiene counts every file
 * change, and Claude Code starts a hook process per edit). The file
 * `scopes/<key>.tally` holds one record of `TALLY_RECORD_BYTES` per count
 * (a random mark and a newline); the count is the number of records.
 *
 * An append is one `write` the kernel places at the file's end whoever else
 * appends, so two processes counting at once both count, without a lock.
 * Each learns its own count exactly: the file's size after its write, when
 * nobody appended between its look at the size and its write; otherwise the
 * place of its own mark among the records written since. Not fsynced: a
 * crash may lose the last counts of a number that only ever says "about this
 * many", never anything a record holds. Opened like every state file
 * (`state-file.ts`): never through a link or anything but a regular file.
 */
import { openStateFile } from "./state-file.js";

/** One count: 8 hex digits and a newline. */
export const TALLY_RECORD_BYTES = 9;

/** `scopes/<key>.json` → `scopes/<key>.tally`. */
export function tallyFileOf(scopeFile: string): string {
	return `${scopeFile.replace(/\.json$/, "")}.tally`;
}

/** Adds one to the tally in `file` (made when missing) and returns this count: its place, from 1. */
export async function addToTally(file: string): Promise<number> {
	const mark = Buffer.from(
		`${Math.floor(Math.random() * 0x1_0000_0000)
			.toString(16)
			.padStart(8, "0")}\n`,
	);
	const handle = await openStateFile(file, "append");
	try {
		const before = (await handle.stat()).size;
		await handle.write(mark);
		const after = (await handle.stat()).size;
		if (after - before === TALLY_RECORD_BYTES) return Math.ceil(after / TALLY_RECORD_BYTES);
		// Others appended around this count: it is where its own mark stands among what was written since.
		const since = Buffer.alloc(after - before);
		await handle.read(since, 0, since.length, before);
		const at = since.indexOf(mark);
		return Math.ceil((before + (at < 0 ? since.length - TALLY_RECORD_BYTES : at)) / TALLY_RECORD_BYTES) + 1;
	} finally {
		await handle.close();
	}
}
