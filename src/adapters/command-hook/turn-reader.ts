/**
 * The family's one turn reader: what a harness's JSONL session log says about
 * the turn that just ended. A harness brings its tally (`Tally`: what each
 * record kind counts as, which record begins the turn); the reader does the rest.
 *
 * It reads from the end backwards, in chunks, back to the turn's start, so a
 * log of hundreds of MB costs what its last turn costs; lines are split on
 * newline bytes before decoding, so a chunk boundary inside a line or a
 * character changes nothing. Untrusted: a regular file only, at most
 * `maxBytes` read and no line over `maxLineBytes` built (a limit reached
 * before the turn's start is reported as `limit`); a torn last line is left
 * out and reported, a line that is not JSON skipped and counted.
 */
import { stat } from "node:fs/promises";
import type { TokenSpend } from "../../core/turns.js";
import { FileProblem, openRegularFile, readAt, readTailLines, sizeInWords } from "../../engine/bounded-read.js";
import { isRecord, messageOf, nonEmptyText } from "../shared/hook-input.js";

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

export interface ScanEnd {
	foundStart: boolean;
	/** The file's last line was incomplete and left out. */
	partialLastLine: boolean;
	/** Lines that were not JSON objects. */
	skippedLines: number;
	limit: ReadLimit | null;
}

/**
 * `maxLineBytes`: more than a harness writes for one block (an image is a few
 * MB of base64, tool output is cut far shorter), yet parsed in a fraction of a
 * second. A longer line ends the reading unread: the turn is unseen (`docs/bad-input.md`).
 */
export const SCAN_DEFAULTS = {
	chunkBytes: 64 * 1024,
	maxBytes: 256 * 1024 * 1024,
	maxLineBytes: 16 * 1024 * 1024,
};

/**
 * A second reader of the file's end (the harness's goal) served by the same
 * scan: every line that begins in the last `bytes`, newest first (the line cut
 * by the window's start left out, as `readTailLines` does). The scan goes past
 * the turn's start for it until `take` decides or the window is `covered`; a
 * scan stopped before either calls neither.
 */
export interface TailWatch {
	bytes: number;
	/** One line's bytes, newest first (only valid during the call); true: older lines do not matter. */
	take(line: Buffer): boolean;
	/** Every line of the window was handed over. */
	covered(): void;
}

/**
 * Hands the file's lines, parsed, newest first, to `take` until it says a line
 * began the turn, and to `tail` while it watches. A line that spans chunks is
 * only measured while its start is looked for, then read once, whole: a long
 * line costs its length, not its square, and one too long is never held.
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
		/** True when the line begins the turn. Synchronous: the chunk is reused after it. */
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
		/** True when neither the watch nor the turn wants more. */
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
		const lineBytes = async (start: number, lineEnd: number, chunkAt: number, chunkLength: number) => {
			if (lineEnd - chunkAt <= chunkLength) return chunk.subarray(start - chunkAt, lineEnd - chunkAt);
			const whole = Buffer.allocUnsafe(lineEnd - start);
			await readFully(file, handle, whole, whole.length, start);
			return whole;
		};
		const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size)));
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

/**
 * A reader of the newest record of one kind in a file's last `bytes` (a harness's goal or mode): `decide` gives
 * undefined for a record that says nothing of it, and `none` stands when no line says anything. A line holding
 * none of `marks` is not parsed. `ofLines` is the pure part: lines oldest first, as `readTailLines` gives them.
 */
export function newestInTail<T>(
	bytes: number,
	marks: readonly string[],
	decide: (record: Record<string, unknown>) => T | undefined,
	none: T,
) {
	const ofLines = (lines: readonly string[]): T => {
		for (let index = lines.length - 1; index >= 0; index--) {
			const line = lines[index] ?? "";
			const record = marks.some((mark) => line.includes(mark)) ? parseLine(line) : null;
			const found = record === null ? undefined : decide(record);
			if (found !== undefined) return found;
		}
		return none;
	};
	return { ofLines, read: async (file: string, tailBytes = bytes) => ofLines(await readTailLines(file, tailBytes)) };
}

export function parseLine(text: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : null;
	} catch {
		return null; // counted by the caller
	}
}

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
	/** The last reply as the harness reported it: until the file ends with it, the file lags and is read again. */
	expectLastText?: string | null;
	/** Re-reads while lagging (12), pauses from `retryDelayMs` (25) doubling to 250 ms: about 2.4 s in all. */
	retries?: number;
	retryDelayMs?: number;
	sleep?: (ms: number) => Promise<void>;
}

export const SETTLE_DEFAULTS = { retries: 12, retryDelayMs: 25, maxDelayMs: 250 };

interface Settling {
	foundStart: boolean;
	partialLastLine: boolean;
	lastAssistantText: string | null;
	/** `lastAssistantText` is only the reply's end (a reader that keeps a bounded part). */
	lastAssistantTextClipped?: boolean;
	lagging: boolean;
}

/**
 * Reads the turn until the file catches up with the harness (some write it
 * after starting the hook): a torn last line, another last reply, or a missing
 * file when a reply was reported is read again, further apart each time;
 * after the retries the reading is `lagging`, or the last error is thrown.
 * Given `file`, a retry re-reads only a file that changed (inode, size, times),
 * so a mismatch that never resolves costs one reading, not one per retry.
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
				// A harness that reported a reply has a file: a missing one is late, not gone.
				const late = expected !== null && error instanceof FileProblem && error.kind === "missing";
				if (!late || attempt >= retries) throw error;
				reading = null;
				await sleep(delay);
				delay = Math.min(delay * 2, SETTLE_DEFAULTS.maxDelayMs);
				continue;
			}
		}
		version = now;
		// Without the turn's start, reading again cannot change what is seen.
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
		return null; // the reading itself meets the problem and reports it
	}
}

/** Whitespace-blind: the harness and the file may join text blocks differently. */
function canonical(text: string): string {
	return text.replace(/\s+/g, "");
}

/** What a tally finds in a turn: the fields the harnesses' readings share. */
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
	lastAssistantText: string | null;
	/** The id of the record that began the turn: the same for every report of this turn's end. */
	startMarker: string | null;
}

export interface TurnEnd extends ScanEnd {
	/** The harness's copy of the last reply was not found in the file, even after the retries. */
	lagging: boolean;
}

export interface ReadOptions extends ScanOptions, SettleOptions {}

/**
 * A harness's record tally, fed newest first so only counts are kept however
 * long the turn: `add` says whether the record is the turn's boundary; `reading`
 * is the harness's reading once the records are in.
 */
export interface Tally<R, Line = Record<string, unknown>> {
	add(record: Line): boolean;
	reading(end: ScanEnd): R;
	/** Another reader of the file's end this reading serves too. */
	tail?: TailWatch;
}

export async function readTally<R>(file: string, options: ScanOptions, tally: Tally<R>): Promise<R> {
	return tally.reading(await scanTurn(file, options, (record) => tally.add(record), tally.tail));
}

/**
 * The current turn through a fresh tally, read again while the file lags.
 * Contract: rejects only with a `FileProblem` (missing, not a regular file, not permitted, shrank).
 */
export async function readTallied<R extends Settling>(
	file: string,
	options: ReadOptions,
	makeTally: () => Tally<R>,
): Promise<R> {
	return readSettled(() => readTally(file, options, makeTally()), options, file);
}

/** Pure: records in file order, fed to `tally` newest first, to the turn's boundary (`untilStart`) or all. */
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

export function timeOf(timestamp: unknown): number | null {
	const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
	return Number.isFinite(at) ? at : null;
}

/** The records of a list (a message's parts or blocks); none when it is not a list. */
export function recordsIn(list: unknown): Record<string, unknown>[] {
	return Array.isArray(list) ? list.filter(isRecord) : [];
}

const notThought = (part: Record<string, unknown>) => part.thought !== true;

/** The text of the `parts` that `keep` keeps (not thoughts by default), joined; null when there is none. */
export function partsText(parts: unknown, keep = notThought, separator = "\n"): string | null {
	const texts = recordsIn(parts).filter((part) => typeof part.text === "string" && keep(part));
	return nonEmptyText(texts.map((part) => part.text).join(separator));
}

/** The question an ask-the-user tool's `{questions: [{question}]}` input asks first, or a generic text. */
export function askedQuestion(input: unknown): string {
	const first = recordsIn(isRecord(input) ? input.questions : null)[0];
	return nonEmptyText(first?.question)?.trim() ?? GENERIC_QUESTION;
}

export const GENERIC_QUESTION = "the agent asked the user a question";

/** What the harness calls the file and the input field that names it (Copilot CLI: its `transcriptPath` event log). */
export interface TranscriptNames {
	file: string;
	field: string;
}

const TRANSCRIPT: TranscriptNames = { file: "transcript", field: "transcript_path" };

/** Why the current turn cannot be seen in this reading, naming the file; null when it can. */
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

/** Why the transcript could not be read at all, naming the file (`title`: the harness as people write it). */
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
