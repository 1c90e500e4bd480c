/**
 * Reads a JSONL transcript backwards from its end, line by line, as far back
 * as the line a harness's reader says begins what it wants (a turn, a
 * prompt): a transcript of hundreds of MB costs what its tail costs. Lines
 * are split on newline bytes before they are decoded, so a chunk that begins
 * inside a line or inside a multibyte character changes nothing, and no line
 * is copied more than once.
 *
 * Untrusted: only a regular file is opened (see `engine/bounded-read.ts`), no
 * more than `maxBytes` is read, and no line longer than `maxLineBytes` is
 * built. When either limit stops the reading before the start line, the
 * result says so (`limit`). A last line cut short (the harness is still
 * writing it) is left out and reported; a line that is not a JSON object is
 * skipped and counted.
 */
import { FileProblem, openRegularFile, readAt } from "../../engine/bounded-read.js";
import { isRecord } from "./hook-input.js";

/** What stopped a reading before the start line: the bytes read from the end, or one line's length. */
export interface ReadLimit {
	kind: "bytes" | "line";
	bytes: number;
}

export interface TailLimits {
	/** Bytes read per step backwards. */
	chunkBytes: number;
	/** Never read more than this from the end. */
	maxBytes: number;
	/** Never build a line longer than this: such a line ends the reading. */
	maxLineBytes: number;
}

export interface TailEnd {
	/** `visit` answered true for a line (false: a limit was reached, or the file's first line came first). */
	foundStart: boolean;
	/** The file's last line was incomplete and left out. */
	partialLastLine: boolean;
	/** Lines that were not JSON objects. */
	skippedLines: number;
	/** The limit that stopped the reading before the start line, if one did. */
	limit: ReadLimit | null;
}

/**
 * Hands the file's lines to `visit`, parsed, newest first, until `visit`
 * answers true (the line that begins what the caller reads). One chunk buffer
 * serves the whole scan: a line inside a chunk is decoded from it; a line
 * that spans chunks is only measured while its start is looked for, then read
 * once, whole, from the file. So a long line costs its length, not its length
 * squared, and a line too long to use is never held in memory.
 *
 * Contract: rejects only when the file cannot be opened or read, with a
 * `FileProblem` (missing, not a regular file, not permitted, shrank while read).
 */
export async function scanBackwards(
	file: string,
	limits: TailLimits,
	visit: (line: Record<string, unknown>) => boolean,
): Promise<TailEnd> {
	const chunkBytes = Math.max(1, limits.chunkBytes);
	const maxBytes = Math.max(0, limits.maxBytes);
	const maxLineBytes = Math.max(1, limits.maxLineBytes);
	const { handle, size } = await openRegularFile(file);
	try {
		const end: TailEnd = { foundStart: false, partialLastLine: false, skippedLines: 0, limit: null };
		const tooLong = (): TailEnd => ({ ...end, limit: { kind: "line", bytes: maxLineBytes } });
		let lastLine = true;
		/** Takes one whole line; true when it is the start line. Synchronous: the chunk is reused after it. */
		const take = (bytes: Buffer): boolean => {
			const last = lastLine;
			lastLine = false;
			const text = bytes.toString("utf8");
			if (text.trim() === "") return false;
			const value = parseLine(text);
			if (value === null) {
				if (last) end.partialLastLine = true;
				else end.skippedLines++;
				return false;
			}
			end.foundStart = visit(value);
			return end.foundStart;
		};
		/** The bytes of the line from `start` to `lineEnd`: from the chunk when it holds them all, else from the file. */
		const lineBytes = async (start: number, lineEnd: number, chunkAt: number, chunkLength: number) => {
			if (lineEnd - chunkAt <= chunkLength) return chunk.subarray(start - chunkAt, lineEnd - chunkAt);
			const whole = Buffer.allocUnsafe(lineEnd - start);
			await readFully(file, handle, whole, whole.length, start);
			return whole;
		};
		const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size)));
		/** Where the line being looked at ends: its newline, or the end of the file. */
		let lineEnd = size;
		let position = size;
		let length = 0;
		while (position > 0) {
			const budget = maxBytes - (size - position);
			if (budget <= 0) return { ...end, limit: { kind: "bytes", bytes: maxBytes } };
			length = Math.min(chunkBytes, position, budget);
			position -= length;
			await readFully(file, handle, chunk, length, position);
			let stop = length;
			while (stop > 0) {
				const newline = chunk.lastIndexOf(0x0a, stop - 1);
				if (newline === -1) break;
				const start = position + newline + 1;
				if (lineEnd - start > maxLineBytes) return tooLong();
				if (take(await lineBytes(start, lineEnd, position, length))) return end;
				lineEnd = position + newline;
				stop = newline;
			}
			if (lineEnd - position > maxLineBytes) return tooLong();
		}
		if (lineEnd > 0) take(await lineBytes(0, lineEnd, 0, length));
		return end;
	} finally {
		await handle.close();
	}
}

function parseLine(text: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : null;
	} catch {
		// Not JSON: counted by the caller (a torn last line, or a corrupt one).
		return null;
	}
}

/** Fills `buffer[0, length)` from the file at `position`. */
async function readFully(
	file: string,
	handle: Awaited<ReturnType<typeof openRegularFile>>["handle"],
	buffer: Buffer,
	length: number,
	position: number,
): Promise<void> {
	let done = 0;
	while (done < length) {
		const { bytesRead } = await readAt(file, handle, buffer.subarray(0, length), done, position + done);
		if (bytesRead === 0) {
			throw new FileProblem(file, "unreadable", `it shrank while it was read (at byte ${position + done})`);
		}
		done += bytesRead;
	}
}
