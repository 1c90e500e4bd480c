/**
 * A scope's tally: a count kept by appending, for what happens too often to
 * rewrite the scope's record each time (todo hygiene counts every file
 * change, and Claude Code starts a hook process per edit). The file
 * `scopes/<key>.tally` holds one byte per count; its size is the count.
 *
 * An append is one `write` the kernel places at the file's end whoever else
 * appends, so two processes counting at once both count, without a lock. The
 * size read back after the write is at least this count's own: two at once
 * may both read the later one, never one below their own. Not fsynced: a
 * crash may lose the last counts of a number that only ever says "about this
 * many", never anything a record holds. Opened like every state file
 * (`state-file.ts`): never through a link or anything but a regular file.
 */
import { openStateFile } from "./state-file.js";

const COUNT = Buffer.from("+");

/** `scopes/<key>.json` → `scopes/<key>.tally`. */
export function tallyFileOf(scopeFile: string): string {
	return `${scopeFile.replace(/\.json$/, "")}.tally`;
}

/** Adds one to the tally in `file` (made when missing) and returns the count with it. */
export async function addToTally(file: string): Promise<number> {
	const handle = await openStateFile(file, "append");
	try {
		await handle.write(COUNT);
		return (await handle.stat()).size;
	} finally {
		await handle.close();
	}
}
