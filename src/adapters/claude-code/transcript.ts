/**
 * What the harness does not tell a hook, read from the session's transcript
 * (JSONL, one line per content block): the real token spend of the current
 * turn, the file edits it made, whether the user interrupted it, and
 * whether a question to the user is still unanswered.
 *
 * "The current turn" is everything after the last line that began one: a
 * prompt the user (or an SDK) sent, or a Stop hook's feedback (ours or
 * another hook's), which is how a continuation enters the transcript. Only
 * that turn is read, from the end of the file backwards, by the shared
 * scanner (`shared/transcript-scan.ts`), within its limits; when a limit
 * stops the reading before the turn's start, the reading says so (`limit`),
 * and the turn counts as unseen.
 *
 * Tolerance: the file is written by another process while we read. A last
 * line cut short is left out (and reported), a line that is not JSON is
 * skipped and counted, and when the harness says what the turn's last reply
 * was but the file does not end with it yet, the read is retried briefly.
 */
import type { TokenSpend } from "../../core/turns.js";
import {
	type ReadLimit,
	readSettled,
	type ScanEnd,
	type ScanOptions,
	type SettleOptions,
	scanTurn,
	unreadableTranscriptReason,
	unseenTurnReason,
} from "../shared/transcript-scan.js";
import { isRecord } from "./hook-input.js";

export type { ReadLimit } from "../shared/transcript-scan.js";

/**
 * Tools that change files: work the todo list may not show yet, which the
 * policy counts as activity. Commands (Bash) do not count: running one is not
 * evidence of progress, and a stalled agent can run them forever.
 */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit"]);

/** The tool that asks the user a question and waits for the answer. */
export const QUESTION_TOOL = "AskUserQuestion";

const INTERRUPT_PREFIX = "[Request interrupted by user";

/** Characters of the last reply kept (its end): far more than a question to the user takes. */
export const MAX_KEPT_TEXT = 256 * 1024;
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
	/** The text of the turn's last assistant message (all its text blocks), or its last `MAX_KEPT_TEXT` characters. */
	lastAssistantText: string | null;
	/** `lastAssistantText` is the end of a longer reply. */
	lastAssistantTextClipped?: boolean;
	/** The line that began the turn was found (false: a limit was reached, or no line of the file begins a turn). */
	foundStart: boolean;
	/** The `uuid` of the line that began the turn: the same for every report of this turn's end. */
	startMarker: string | null;
	/** The file's last line was incomplete and left out. */
	partialLastLine: boolean;
	/** Lines that were not JSON objects. */
	skippedLines: number;
	/** The harness's copy of the last reply was not found in the file, even after the retries. */
	lagging: boolean;
	/** The limit that stopped the reading before the turn's start, if one did. */
	limit: ReadLimit | null;
}

export interface ReadTurnOptions extends ScanOptions, SettleOptions {}

/**
 * Contract: rejects only when the file cannot be opened or read, with a
 * `FileProblem` (missing, not a regular file, not permitted, shrank while read).
 */
export async function readTurn(file: string, options: ReadTurnOptions = {}): Promise<TurnReading> {
	return readSettled(
		async () => {
			const tally = new TurnTally();
			return tally.reading(await scanTurn(file, options, isTurnStart, (line) => tally.add(line)));
		},
		options,
		file,
	);
}

/**
 * Why the current turn cannot be seen in this reading, in plain words naming
 * the file; null when it can. A Stop whose turn cannot be seen is never
 * continued: an interrupt or a pending question may be in what was not seen.
 */
export function unseenReason(file: string, reading: TurnReading): string | null {
	return unseenTurnReason(file, reading);
}

/** Why the transcript could not be read at all, in plain words naming the file. */
export function unreadableReason(file: string | null, error: unknown): string {
	return unreadableTranscriptReason("Claude Code", file, error);
}

export interface TurnLines extends ScanEnd {
	/** Parsed lines in file order, from the turn's first line (when found) to the end. */
	lines: Record<string, unknown>[];
}

/** Reads backwards from the end until the line that began the turn, or a limit. */
export async function readTurnLines(file: string, options: ScanOptions = {}): Promise<TurnLines> {
	const newestFirst: Record<string, unknown>[] = [];
	const scan = await scanTurn(file, options, isTurnStart, (line) => newestFirst.push(line));
	return { lines: newestFirst.reverse(), ...scan };
}

/**
 * What the lines of one turn say, gathered newest line first (the order the
 * file is read in), so nothing but the tallies is kept however long the turn.
 */
class TurnTally {
	private readonly usage = new Map<string, TokenSpend>();
	/** Tool uses already answered by a later line. */
	private readonly answered = new Set<string>();
	private activity = 0;
	private interrupt: TurnReading["interrupt"] = null;
	private pendingQuestion: string | null = null;
	/** The newest message's id and its text blocks, newest first, until an older message shows up. */
	private lastId: string | null = null;
	private lastTextNewestFirst: string[] = [];
	private lastTextBytes = 0;
	private lastTextDone = false;
	private lastTextClipped = false;
	private anonymous = 0;
	private oldest: Record<string, unknown> | null = null;

	add(line: Record<string, unknown>): void {
		this.oldest = line;
		if (line.isSidechain === true) return;
		const message = isRecord(line.message) ? line.message : null;
		if (line.type === "assistant" && message) {
			this.addAssistant(message);
			return;
		}
		if (line.type !== "user" || !message) return;
		for (const block of blocksOf(message.content)) {
			if (block.type === "tool_result" && typeof block.tool_use_id === "string") this.answered.add(block.tool_use_id);
		}
		const text = userText(message.content);
		if (this.interrupt === null && text?.startsWith(INTERRUPT_PREFIX)) {
			const at = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
			this.interrupt = { at: Number.isFinite(at) ? at : null };
		}
	}

	reading(scan: ScanEnd): TurnReading {
		let spend: TokenSpend = { input: 0, output: 0, cacheWrite: 0 };
		for (const one of this.usage.values()) spend = addSpend(spend, one);
		const joined = this.lastTextNewestFirst.toReversed().join("\n");
		const start = scan.foundStart ? this.oldest : null;
		return {
			spend,
			calls: this.usage.size,
			activity: this.activity,
			interrupt: this.interrupt,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: joined.trim() === "" ? null : joined,
			lastAssistantTextClipped: this.lastTextClipped,
			foundStart: scan.foundStart,
			startMarker: typeof start?.uuid === "string" ? start.uuid : null,
			partialLastLine: scan.partialLastLine,
			skippedLines: scan.skippedLines,
			lagging: false,
			limit: scan.limit,
		};
	}

	private addAssistant(message: Record<string, unknown>): void {
		const id = typeof message.id === "string" ? message.id : `line-${this.anonymous++}`;
		if (isRecord(message.usage)) this.usage.set(id, maxSpend(this.usage.get(id), spendOf(message.usage)));
		if (this.lastId === null) this.lastId = id;
		else if (id !== this.lastId) this.lastTextDone = true;
		const texts: string[] = [];
		for (const block of blocksOf(message.content)) {
			if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
			if (block.type !== "tool_use" || typeof block.name !== "string") continue;
			if (ACTIVITY_TOOLS.has(block.name)) this.activity++;
			if (block.name === QUESTION_TOOL && typeof block.id === "string" && !this.answered.has(block.id)) {
				this.pendingQuestion ??= questionText(block.input);
			}
		}
		if (!this.lastTextDone) this.keepText(texts);
	}

	/**
	 * Adds one line's text blocks before the ones kept (lines come newest
	 * first), up to `MAX_KEPT_TEXT` characters: what is kept is the end of the
	 * reply, where a question to the user is, and each block is kept once
	 * (a message spread over many lines costs its length, not its square).
	 */
	private keepText(texts: readonly string[]): void {
		for (let index = texts.length - 1; index >= 0 && !this.lastTextClipped; index--) {
			const text = texts[index] as string;
			const room = MAX_KEPT_TEXT - this.lastTextBytes;
			if (text.length > room) {
				this.lastTextNewestFirst.push(text.slice(text.length - room));
				this.lastTextBytes = MAX_KEPT_TEXT;
				this.lastTextClipped = true;
			} else {
				this.lastTextNewestFirst.push(text);
				this.lastTextBytes += text.length + 1;
			}
		}
	}
}

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseTurn(
	lines: readonly Record<string, unknown>[],
	flags: Pick<TurnLines, "foundStart" | "partialLastLine" | "skippedLines"> & { limit?: ReadLimit | null } = {
		foundStart: true,
		partialLastLine: false,
		skippedLines: 0,
	},
): TurnReading {
	const tally = new TurnTally();
	for (let index = lines.length - 1; index >= 0; index--) tally.add(lines[index] as Record<string, unknown>);
	return tally.reading({ ...flags, limit: flags.limit ?? null });
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
