/**
 * The command-hook family's one turn reader: what a harness's session log
 * (JSONL, one record a line) says about the turn that just ended. A harness
 * supplies its **tally** (`Tally`): what each of its record kinds counts as
 * (spend, a file edit, a question, an interrupt, the last reply) and which
 * record is the turn's boundary; the reader does the rest, the same for all.
 *
 * Reading: from the end of the file backwards, in chunks, line by line, as
 * far back as the record the tally names the turn's boundary, so a log of
 * hundreds of MB costs what its last turn costs. Lines are split on newline
 * bytes before they are decoded, so a chunk that begins inside a line or
 * inside a multibyte character changes nothing, and no line is copied more
 * than once.
 *
 * Untrusted: only a regular file is opened (see `engine/bounded-read.ts`), no
 * more than `maxBytes` is read, and no line longer than `maxLineBytes` is
 * built. When either limit stops the reading before the turn's start, the
 * scan says so (`limit`). A last line cut short (the harness is still writing
 * it) is left out and reported; a line that is not JSON is skipped and
 * counted. A harness that writes its log after it ran the hook is waited for
 * (`readSettled`).
 */
import { stat } from "node:fs/promises";
import type { TokenSpend } from "../../core/turns.js";
import { FileProblem, openRegularFile, readAt, sizeInWords } from "../../engine/bounded-read.js";
import { isRecord, messageOf } from "../shared/hook-input.js";

/** What stopped a reading before the turn's start: the bytes read from the end, or one line's length. */
export interface ReadLimit {
	kind: "bytes" | "line";
	bytes: number;
}

export interface ScanOptions {
	/** Bytes read per step backwards (default 64 KiB). */
	chunkBytes?: number;
	/** Never read more than this from the end (default 256 MiB): a turn that began further back is not seen. */
	maxBytes?: number;
	/** Never build a line longer than this (default 16 MiB): such a line ends the reading. */
	maxLineBytes?: number;
}

/** How a scan ended. */
export interface ScanEnd {
	/** The line that begins the turn was found. */
	foundStart: boolean;
	/** The file's last line was incomplete and left out. */
	partialLastLine: boolean;
	/** Lines that were not JSON objects. */
	skippedLines: number;
	/** The limit that stopped the reading before the turn's start, if one did. */
	limit: ReadLimit | null;
}

/**
 * `maxLineBytes`: more than a harness writes for one block (an image a model
 * API takes is at most a few MB of base64, a tool's output is cut to far
 * less), and small enough that parsing the line costs a hook a fraction of a
 * second. A longer line stops the reading without being read: the turn is
 * unseen and the Stop is not continued (see `docs/bad-input.md`).
 */
export const SCAN_DEFAULTS = {
	chunkBytes: 64 * 1024,
	maxBytes: 256 * 1024 * 1024,
	maxLineBytes: 16 * 1024 * 1024,
};

/**
 * A second reader of the same file's end, served by the turn's scan so that
 * one reading answers both (the harness's goal, read from the same
 * transcript): it is handed every line that begins inside the file's last
 * `bytes`, newest first, the line cut by that window's start left out (as
 * `readTailLines` leaves it out). The scan goes on past the turn's start
 * for it until it decides (`take` says so) or the window is covered
 * (`covered`). A scan stopped before either (a limit, a file that shrank
 * behind the turn) calls neither: the watch has not seen its window.
 */
export interface TailWatch {
	bytes: number;
	/** One line's bytes, newest first (only valid during the call); true: older lines do not matter. */
	take(line: Buffer): boolean;
	/** Every line of the window was handed over. */
	covered(): void;
}

/**
 * Hands the file's lines to `take`, parsed, newest first, until `take` says
 * a line began the turn (that line is taken too), and to `tail` while it
 * watches (see `TailWatch`). One chunk buffer serves the
 * whole scan: a line inside a chunk is decoded from it; a line that spans
 * chunks is only measured while its start is looked for, then read once,
 * whole, from the file. So a long line costs its length, not its length
 * squared, and a line too long to use is never held in memory.
 */
export async function scanTurn(
	file: string,
	options: ScanOptions,
	take: (line: Record<string, unknown>) => boolean,
	tail?: TailWatch,
): Promise<ScanEnd> {
	const chunkBytes = Math.max(1, options.chunkBytes ?? SCAN_DEFAULTS.chunkBytes);
	const maxBytes = Math.max(0, options.maxBytes ?? SCAN_DEFAULTS.maxBytes);
	const maxLineBytes = Math.max(1, options.maxLineBytes ?? SCAN_DEFAULTS.maxLineBytes);
	const { handle, size } = await openRegularFile(file);
	try {
		const end: ScanEnd = { foundStart: false, partialLastLine: false, skippedLines: 0, limit: null };
		/** The turn's start was taken: what follows only serves the tail watch. */
		let turnDone = false;
		/** A limit ends the turn's reading with it; past the turn's start it only ends the watch's. */
		const stopAt = (limit: ReadLimit): ScanEnd => (turnDone ? end : { ...end, limit });
		const tooLong = (): ScanEnd => stopAt({ kind: "line", bytes: maxLineBytes });
		const windowStart = tail === undefined ? size : Math.max(0, size - tail.bytes);
		let watching = tail !== undefined;
		let lastLine = true;
		/** Takes one whole line; true when it begins the turn. Synchronous: the chunk is reused after it. */
		const takeLine = (bytes: Buffer): boolean => {
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
			end.foundStart = take(value);
			return end.foundStart;
		};
		/** Hands the line beginning at `start` to the watch and the turn; true when neither wants more. */
		const lineTaken = (start: number, bytes: Buffer): boolean => {
			if (watching && tail !== undefined) {
				if (windowStart > 0 && start <= windowStart) {
					watching = false;
					tail.covered();
				} else if (tail.take(bytes)) watching = false;
			}
			if (!turnDone && takeLine(bytes)) turnDone = true;
			return turnDone && !watching;
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
		try {
			while (position > 0) {
				const budget = maxBytes - (size - position);
				if (budget <= 0) return stopAt({ kind: "bytes", bytes: maxBytes });
				length = Math.min(chunkBytes, position, budget);
				position -= length;
				await readFully(file, handle, chunk, length, position);
				let stop = length;
				while (stop > 0) {
					const newline = chunk.lastIndexOf(0x0a, stop - 1);
					if (newline === -1) break;
					const start = position + newline + 1;
					if (lineEnd - start > maxLineBytes) return tooLong();
					if (lineTaken(start, await lineBytes(start, lineEnd, position, length))) return end;
					lineEnd = position + newline;
					stop = newline;
				}
				if (lineEnd - position > maxLineBytes) return tooLong();
			}
			if (lineEnd > 0) lineTaken(0, await lineBytes(0, lineEnd, 0, length));
		} catch (error) {
			// Past the turn's start a failed read costs the watch its window, never the turn.
			if (turnDone) return end;
			throw error;
		}
		if (watching) tail?.covered();
		return end;
	} finally {
		await handle.close();
	}
}

export function parseLine(text: string): Record<string, unknown> | null {
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

export interface SettleOptions {
	/**
	 * The turn's last reply as the harness reported it (Stop's
	 * `last_assistant_message`): until the file ends with it, the file is
	 * lagging and is read again.
	 */
	expectLastText?: string | null;
	/**
	 * Re-reads while lagging (default 12), the first `retryDelayMs` after the
	 * reading (default 25), each pause twice the last, at most 250 ms: about
	 * 2.4 s in all, for a harness that writes its file after it ran the hook.
	 */
	retries?: number;
	retryDelayMs?: number;
	sleep?: (ms: number) => Promise<void>;
}

export const SETTLE_DEFAULTS = { retries: 12, retryDelayMs: 25, maxDelayMs: 250 };

/** A reading of the current turn, as far as `readSettled` needs to know it. */
interface Settling {
	foundStart: boolean;
	partialLastLine: boolean;
	lastAssistantText: string | null;
	/** `lastAssistantText` is only the end of the reply (a reader that keeps a bounded part of it). */
	lastAssistantTextClipped?: boolean;
	lagging: boolean;
}

/**
 * Reads the turn until the file has caught up with what the harness says
 * (the file is written by another process while we read, and some
 * harnesses write it after they start the hook): a last line cut short, a
 * last reply other than the harness's, a file that does not exist yet (when
 * the harness reported a reply) is read again, further and further apart;
 * after the retries the reading says it is `lagging`, or the last error is
 * thrown.
 *
 * Given the `file`, a retry reads it again only when it changed (its inode,
 * size or modification time) since the last reading began: a file that
 * stays as it was would read the same, so a mismatch that never resolves
 * costs one reading, not one per retry.
 */
export async function readSettled<R extends Settling>(
	read: () => Promise<R>,
	options: SettleOptions,
	file: string | null = null,
): Promise<R> {
	const retries = options.retries ?? SETTLE_DEFAULTS.retries;
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const expected = options.expectLastText ? canonical(options.expectLastText) : null;
	let delay = options.retryDelayMs ?? SETTLE_DEFAULTS.retryDelayMs;
	let reading: R | null = null;
	let version: string | null = null;
	for (let attempt = 0; ; attempt++) {
		const now = file === null ? null : await versionOf(file);
		if (reading === null || now === null || now !== version) {
			try {
				reading = await read();
			} catch (error) {
				// A harness that reported a reply has a file: one that is not there yet is late, not gone.
				const late = expected !== null && error instanceof FileProblem && error.kind === "missing";
				if (!late || attempt >= retries) throw error;
				reading = null;
				await sleep(delay);
				delay = Math.min(delay * 2, SETTLE_DEFAULTS.maxDelayMs);
				continue;
			}
		}
		version = now;
		// Without the turn's start nothing is seen (garbage, a limit reached): reading again cannot change that.
		if (!reading.foundStart) return reading;
		const behind = reading.partialLastLine || (expected !== null && !endsWithReply(reading, expected));
		if (!behind) return reading;
		if (attempt >= retries) return { ...reading, lagging: expected !== null && behind };
		await sleep(delay);
		delay = Math.min(delay * 2, SETTLE_DEFAULTS.maxDelayMs);
	}
}

/** Whether the reading's last reply is the harness's (`expected`, canonical); a clipped one is its end. */
function endsWithReply(reading: Settling, expected: string): boolean {
	if (reading.lastAssistantText === null) return false;
	const seen = canonical(reading.lastAssistantText);
	return reading.lastAssistantTextClipped === true ? expected.endsWith(seen) : seen === expected;
}

/** What tells one state of a file from another without reading it; null when it cannot be looked at. */
async function versionOf(file: string): Promise<string | null> {
	try {
		const found = await stat(file, { bigint: true });
		return `${found.dev}:${found.ino}:${found.size}:${found.mtimeNs}:${found.ctimeNs}`;
	} catch {
		// The reading itself meets the problem and reports it.
		return null;
	}
}

/** Whitespace-blind: the harness and the file may join text blocks differently. */
function canonical(text: string): string {
	return text.replace(/\s+/g, "");
}

/** What a tally finds in a turn: the fields the harnesses' readings share (each says what they are in its log). */
export interface TurnFacts {
	/** Real spend of the turn's model calls (cache reads are not spend). */
	spend: TokenSpend;
	/** Model calls counted in the spend. */
	calls: number;
	/** Uses of the harness's file-changing tools: work the todo list may not show yet. Commands do not count. */
	activity: number;
	/** The user interrupted the turn (Esc): when, from the record's timestamp (null if it has none). */
	interrupt: { at: number | null } | null;
	/** A question to the user (or a plan put forward for approval) without an answer: its text. */
	pendingQuestion: string | null;
	/** The text of the turn's last reply. */
	lastAssistantText: string | null;
	/** The id of the record that began the turn: the same for every report of this turn's end. */
	startMarker: string | null;
}

/** How a settled reading ended. */
export interface TurnEnd extends ScanEnd {
	/** The harness's copy of the last reply was not found in the file, even after the retries. */
	lagging: boolean;
}

/** How a reading of the file goes: its limits, and its waits for a lagging file. */
export interface ReadOptions extends ScanOptions, SettleOptions {}

/**
 * A harness's record tally: what each record of its log counts as, taken
 * newest first (the order the file is read in), so that nothing but the
 * counts is kept however long the turn. `add` says whether the record is the
 * turn's boundary (the reading stops there); `reading` gives the harness's
 * reading of the turn once the records are in, from how the scan ended.
 */
export interface Tally<R, Line = Record<string, unknown>> {
	add(record: Line): boolean;
	reading(end: ScanEnd): R;
	/** Another reader of the file's end this reading serves too (see `TailWatch`). */
	tail?: TailWatch;
}

/** One reading of the file's current turn through `tally`. */
export async function readTally<R>(file: string, options: ScanOptions, tally: Tally<R>): Promise<R> {
	return tally.reading(await scanTurn(file, options, (record) => tally.add(record), tally.tail));
}

/**
 * The file's current turn through a fresh tally (`makeTally`), read again
 * while the file lags behind the harness (`readSettled`).
 *
 * Contract: rejects only when the file cannot be opened or read, with a
 * `FileProblem` (missing, not a regular file, not permitted, shrank while read).
 */
export async function readTallied<R extends Settling>(
	file: string,
	options: ReadOptions,
	makeTally: () => Tally<R>,
): Promise<R> {
	return readSettled(() => readTally(file, options, makeTally()), options, file);
}

/**
 * Pure: the reading of records given in file order, fed to `tally` newest
 * first; up to the turn's boundary (`untilStart`), or all of them.
 */
export function tallyRecords<R, Line = Record<string, unknown>>(
	tally: Tally<R, Line>,
	records: readonly Line[],
	end: ScanEnd = { foundStart: true, partialLastLine: false, skippedLines: 0, limit: null },
	untilStart = false,
): R {
	for (let index = records.length - 1; index >= 0; index--) {
		if (tally.add(records[index] as Line) && untilStart) break;
	}
	return tally.reading(end);
}

/** No spend yet. */
export function noSpend(): TokenSpend {
	return { input: 0, output: 0, cacheWrite: 0 };
}

export function addSpend(a: TokenSpend, b: TokenSpend): TokenSpend {
	return { input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/** A token count as a log writes it: a finite positive number, whole; anything else is none. */
export function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** When a record happened, from its ISO `timestamp` (null if it has none). */
export function timeOf(timestamp: unknown): number | null {
	const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
	return Number.isFinite(at) ? at : null;
}

/** The question an ask-the-user tool's `{questions: [{question}]}` input asks first, or a generic text. */
export function askedQuestion(input: unknown): string {
	if (isRecord(input) && Array.isArray(input.questions)) {
		const first = input.questions.find(isRecord);
		if (first && typeof first.question === "string" && first.question.trim() !== "") return first.question.trim();
	}
	return GENERIC_QUESTION;
}

export const GENERIC_QUESTION = "the agent asked the user a question";

/** What the harness calls the file and the input field that names it (Copilot CLI: its `transcriptPath` event log). */
export interface TranscriptNames {
	file: string;
	field: string;
}

const TRANSCRIPT: TranscriptNames = { file: "transcript", field: "transcript_path" };

/**
 * Why the current turn cannot be seen in this reading, in plain words naming
 * the file; null when it can.
 */
export function unseenTurnReason(
	file: string,
	reading: Pick<ScanEnd, "foundStart" | "limit" | "skippedLines">,
	names: TranscriptNames = TRANSCRIPT,
): string | null {
	if (reading.foundStart) return null;
	if (reading.limit?.kind === "bytes") {
		return `the current turn began more than ${sizeInWords(reading.limit.bytes)} before the end of the ${names.file} ${file}, further back than boulder reads`;
	}
	if (reading.limit?.kind === "line") {
		return `the ${names.file} ${file} has a line longer than ${sizeInWords(reading.limit.bytes)}, more than boulder reads`;
	}
	const skipped = reading.skippedLines > 0 ? ` (${reading.skippedLines} of its lines are not JSON)` : "";
	return `no line of the ${names.file} ${file} begins the current turn${skipped}`;
}

/** Why the transcript could not be read at all, in plain words naming the file (`title`: the harness, as people write it). */
export function unreadableTranscriptReason(
	title: string,
	file: string | null,
	error: unknown,
	names: TranscriptNames = TRANSCRIPT,
): string {
	if (file === null) return `${title} gave no ${names.field}`;
	if (error instanceof FileProblem && error.kind === "missing") return `the ${names.file} ${file} does not exist`;
	const reason = error instanceof FileProblem ? error.reason : messageOf(error);
	return `cannot read the ${names.file} ${file}: ${reason}`;
}
