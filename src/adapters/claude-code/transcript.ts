/**
 * What the harness does not tell a hook, read from the session's transcript
 * (JSONL, one line per content block): the real token spend of the current
 * turn, the file edits it made, whether the user interrupted it, and
 * whether a question to the user is still unanswered.
 *
 * "The current turn" is everything after the last line that began one: a
 * prompt the user (or an SDK) sent, or a Stop hook's feedback (ours or
 * another hook's), which is how a continuation enters the transcript. Only
 * that tail is read, backwards in chunks, so a transcript of many MB costs
 * what its last turn costs.
 *
 * Tolerance: the file is written by another process while we read. A last
 * line cut short is left out (and reported), a line that is not JSON is
 * skipped and counted, and when the harness says what the turn's last reply
 * was but the file does not end with it yet, the read is retried briefly.
 */
import { open } from "node:fs/promises";
import type { TokenSpend } from "../../core/turns.js";
import { isRecord } from "./hook-input.js";

/**
 * Tools that change files: work the todo list may not show yet, which the
 * policy counts as activity. Commands (Bash) do not count: running one is not
 * evidence of progress, and a stalled agent can run them forever.
 */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit"]);

/** The tool that asks the user a question and waits for the answer. */
export const QUESTION_TOOL = "AskUserQuestion";

const INTERRUPT_PREFIX = "[Request interrupted by user";
const STOP_FEEDBACK_PREFIX = "Stop hook feedback:";
const STOP_CONTEXT_MARK = "Stop hook additional context:";

export interface TurnReading {
	/** Real spend of the turn's model calls, each message id counted once. */
	spend: TokenSpend;
	/** Distinct model calls (message ids) seen in the turn. */
	calls: number;
	/** Uses of `ACTIVITY_TOOLS`. */
	activity: number;
	/** The user interrupted the turn (Esc): when, from the line's timestamp (null if it has none). */
	interrupt: { at: number | null } | null;
	/** An `AskUserQuestion` call without a result: its question, or a generic text. */
	pendingQuestion: string | null;
	/** The text of the turn's last assistant message (all its text blocks). */
	lastAssistantText: string | null;
	/** The line that began the turn was found (false: the turn is longer than `maxBytes`, or the file is new). */
	foundStart: boolean;
	/** The `uuid` of the line that began the turn: the same for every report of this turn's end. */
	startMarker: string | null;
	/** The file's last line was incomplete and left out. */
	partialLastLine: boolean;
	/** Lines that were not JSON objects. */
	skippedLines: number;
	/** The harness's copy of the last reply was not found in the file, even after the retries. */
	lagging: boolean;
}

export interface ReadTurnOptions {
	/** Bytes read per step backwards (default 64 KiB). */
	chunkBytes?: number;
	/** Never read more than this from the end (default 16 MiB). */
	maxBytes?: number;
	/**
	 * The turn's last reply as the harness reported it (Stop's
	 * `last_assistant_message`): until the file ends with it, the file is
	 * lagging and is read again.
	 */
	expectLastText?: string | null;
	/** Re-reads while lagging (default 4), `retryDelayMs` apart (default 25). */
	retries?: number;
	retryDelayMs?: number;
	sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS = { chunkBytes: 64 * 1024, maxBytes: 16 * 1024 * 1024, retries: 4, retryDelayMs: 25 };

/** Contract: rejects only when the file cannot be opened or read (missing, not permitted). */
export async function readTurn(file: string, options: ReadTurnOptions = {}): Promise<TurnReading> {
	const retries = options.retries ?? DEFAULTS.retries;
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const expected = options.expectLastText ? canonical(options.expectLastText) : null;
	for (let attempt = 0; ; attempt++) {
		const tail = await readTurnLines(file, options);
		const reading = analyseTurn(tail.lines, tail);
		const behind =
			tail.partialLastLine ||
			(expected !== null && (reading.lastAssistantText === null || canonical(reading.lastAssistantText) !== expected));
		if (!behind) return reading;
		if (attempt >= retries) return { ...reading, lagging: expected !== null && behind };
		await sleep(options.retryDelayMs ?? DEFAULTS.retryDelayMs);
	}
}

export interface TurnLines {
	/** Parsed lines in file order, from the turn's first line (when found) to the end. */
	lines: Record<string, unknown>[];
	foundStart: boolean;
	partialLastLine: boolean;
	skippedLines: number;
}

/** Reads backwards from the end until the line that began the turn, or `maxBytes`. */
export async function readTurnLines(
	file: string,
	options: Pick<ReadTurnOptions, "chunkBytes" | "maxBytes"> = {},
): Promise<TurnLines> {
	const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULTS.chunkBytes);
	const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
	const handle = await open(file, "r");
	try {
		const { size } = await handle.stat();
		const newestFirst: Record<string, unknown>[] = [];
		let position = size;
		let carry = Buffer.alloc(0);
		let atEnd = true;
		let partialLastLine = false;
		let skippedLines = 0;
		while (position > 0 && size - position < maxBytes) {
			const length = Math.min(chunkBytes, position);
			position -= length;
			const chunk = Buffer.allocUnsafe(length);
			await readFully(handle, chunk, position);
			const data = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
			let from = 0;
			if (position > 0) {
				const newline = data.indexOf(0x0a);
				if (newline === -1) {
					carry = data;
					continue;
				}
				from = newline + 1;
			}
			carry = data.subarray(0, from);
			const pieces = data.subarray(from).toString("utf8").split("\n");
			for (let index = pieces.length - 1; index >= 0; index--) {
				const piece = pieces[index] ?? "";
				const last = atEnd && index === pieces.length - 1;
				if (piece.trim() === "") continue;
				const value = parseLine(piece);
				if (value === null) {
					if (last) partialLastLine = true;
					else skippedLines++;
					continue;
				}
				newestFirst.push(value);
				if (isTurnStart(value)) {
					return { lines: newestFirst.reverse(), foundStart: true, partialLastLine, skippedLines };
				}
			}
			atEnd = false;
		}
		return { lines: newestFirst.reverse(), foundStart: false, partialLastLine, skippedLines };
	} finally {
		await handle.close();
	}
}

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseTurn(
	lines: readonly Record<string, unknown>[],
	flags: Pick<TurnLines, "foundStart" | "partialLastLine" | "skippedLines"> = {
		foundStart: true,
		partialLastLine: false,
		skippedLines: 0,
	},
): TurnReading {
	const usage = new Map<string, TokenSpend>();
	const questions = new Map<string, string>();
	let activity = 0;
	let interrupt: TurnReading["interrupt"] = null;
	let lastId: string | null = null;
	let lastText: string[] = [];
	let anonymous = 0;
	for (const line of lines) {
		if (line.isSidechain === true) continue;
		const message = isRecord(line.message) ? line.message : null;
		if (line.type === "assistant" && message) {
			const id = typeof message.id === "string" ? message.id : `line-${anonymous++}`;
			if (isRecord(message.usage)) usage.set(id, maxSpend(usage.get(id), spendOf(message.usage)));
			if (id !== lastId) {
				lastId = id;
				lastText = [];
			}
			for (const block of blocksOf(message.content)) {
				if (block.type === "text" && typeof block.text === "string") lastText.push(block.text);
				if (block.type !== "tool_use" || typeof block.name !== "string") continue;
				if (ACTIVITY_TOOLS.has(block.name)) activity++;
				if (block.name === QUESTION_TOOL && typeof block.id === "string") {
					questions.set(block.id, questionText(block.input));
				}
			}
			continue;
		}
		if (line.type !== "user" || !message) continue;
		for (const block of blocksOf(message.content)) {
			if (block.type === "tool_result" && typeof block.tool_use_id === "string") questions.delete(block.tool_use_id);
		}
		const text = userText(message.content);
		if (text?.startsWith(INTERRUPT_PREFIX)) {
			const at = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
			interrupt = { at: Number.isFinite(at) ? at : null };
		}
	}
	let spend: TokenSpend = { input: 0, output: 0, cacheWrite: 0 };
	for (const one of usage.values()) spend = addSpend(spend, one);
	const joined = lastText.join("\n");
	return {
		spend,
		calls: usage.size,
		activity,
		interrupt,
		pendingQuestion: questions.size > 0 ? ([...questions.values()].at(-1) ?? null) : null,
		lastAssistantText: joined.trim() === "" ? null : joined,
		foundStart: flags.foundStart,
		startMarker: flags.foundStart && typeof lines[0]?.uuid === "string" ? lines[0].uuid : null,
		partialLastLine: flags.partialLastLine,
		skippedLines: flags.skippedLines,
		lagging: false,
	};
}

/**
 * A line that begins a turn: a prompt (not a tool result, not an interrupt
 * notice, not a compaction summary, not harness metadata), or the feedback of
 * a Stop hook that made the agent go on.
 */
export function isTurnStart(line: Record<string, unknown>): boolean {
	if (line.type !== "user" || line.isSidechain === true || line.isCompactSummary === true) return false;
	const message = isRecord(line.message) ? line.message : null;
	if (!message) return false;
	const content = message.content;
	if (Array.isArray(content) && blocksOf(content).some((block) => block.type === "tool_result")) return false;
	const text = userText(content);
	if (text === null) return false;
	if (text.startsWith(INTERRUPT_PREFIX)) return false;
	if (line.isMeta === true) return text.startsWith(STOP_FEEDBACK_PREFIX) || text.includes(STOP_CONTEXT_MARK);
	return true;
}

function userText(content: unknown): string | null {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return null;
	return blocksOf(content)
		.filter((block) => block.type === "text" && typeof block.text === "string")
		.map((block) => block.text as string)
		.join("\n");
}

function blocksOf(content: unknown): Record<string, unknown>[] {
	return Array.isArray(content) ? content.filter(isRecord) : [];
}

function questionText(input: unknown): string {
	if (isRecord(input) && Array.isArray(input.questions)) {
		const first = input.questions.find(isRecord);
		if (first && typeof first.question === "string" && first.question.trim() !== "") return first.question.trim();
	}
	return "the agent asked the user a question";
}

function spendOf(usage: Record<string, unknown>): TokenSpend {
	return {
		input: count(usage.input_tokens),
		output: count(usage.output_tokens),
		cacheWrite: count(usage.cache_creation_input_tokens),
	};
}

/** Lines of one message repeat its usage; a streamed line may carry an early, smaller copy. */
function maxSpend(a: TokenSpend | undefined, b: TokenSpend): TokenSpend {
	if (!a) return b;
	return {
		input: Math.max(a.input, b.input),
		output: Math.max(a.output, b.output),
		cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
	};
}

function addSpend(a: TokenSpend, b: TokenSpend): TokenSpend {
	return { input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite };
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
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

/** Whitespace-blind: the harness and the file may join text blocks differently. */
function canonical(text: string): string {
	return text.replace(/\s+/g, "");
}

async function readFully(handle: Awaited<ReturnType<typeof open>>, buffer: Buffer, position: number): Promise<void> {
	let done = 0;
	while (done < buffer.length) {
		const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
		if (bytesRead === 0) throw new Error(`the transcript shrank while it was read (at byte ${position + done})`);
		done += bytesRead;
	}
}
