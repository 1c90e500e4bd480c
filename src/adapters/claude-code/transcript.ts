/**
 * What the harness does not tell a hook, read from the session's transcript
 * (JSONL, one line per content block): the real token spend of the current
 * turn, the file edits it made, whether the user interrupted it, and
 * whether a question to the user is still unanswered.
 *
 * "The current turn" is everything after the last line that began one: a
 * prompt the user (or an SDK) sent, or a Stop hook's feedback (ours or
 * another hook's), which is how a continuation enters the transcript. Only
 * that turn is read, from the end of the file backwards in chunks, line by
 * line, as far back as the turn's start: a transcript of hundreds of MB costs
 * what its last turn costs. Lines are split on newline bytes before they are
 * decoded, so a chunk that begins inside a line or inside a multibyte
 * character changes nothing, and no line is copied more than once.
 *
 * Untrusted: only a regular file is opened (see `engine/bounded-read.ts`), no
 * more than `maxBytes` is read, and no line longer than `maxLineBytes` is
 * built. When either limit stops the reading before the turn's start, the
 * reading says so (`limit`), and the turn counts as unseen.
 *
 * Tolerance: the file is written by another process while we read. A last
 * line cut short is left out (and reported), a line that is not JSON is
 * skipped and counted, and when the harness says what the turn's last reply
 * was but the file does not end with it yet, the read is retried briefly.
 */
import type { TokenSpend } from "../../core/turns.js";
import { FileProblem, sizeInWords } from "../../engine/bounded-read.js";
import { type ReadLimit, type ScanEnd, type ScanOptions, scanTurn } from "../shared/transcript-scan.js";
import { isRecord, messageOf } from "./hook-input.js";

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

export interface ReadTurnOptions extends ScanOptions {
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

const DEFAULTS = { retries: 4, retryDelayMs: 25 };

/**
 * Contract: rejects only when the file cannot be opened or read, with a
 * `FileProblem` (missing, not a regular file, not permitted, shrank while read).
 */
export async function readTurn(file: string, options: ReadTurnOptions = {}): Promise<TurnReading> {
	const retries = options.retries ?? DEFAULTS.retries;
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const expected = options.expectLastText ? canonical(options.expectLastText) : null;
	for (let attempt = 0; ; attempt++) {
		const tally = new TurnTally();
		const scan = await scanTurn(file, options, (line) => tally.add(line), isTurnStart);
		const reading = tally.reading(scan);
		// Without the turn's start nothing is seen; reading again cannot change that.
		if (!reading.foundStart) return reading;
		const behind =
			reading.partialLastLine ||
			(expected !== null && (reading.lastAssistantText === null || canonical(reading.lastAssistantText) !== expected));
		if (!behind) return reading;
		if (attempt >= retries) return { ...reading, lagging: expected !== null && behind };
		await sleep(options.retryDelayMs ?? DEFAULTS.retryDelayMs);
	}
}

/**
 * Why the current turn cannot be seen in this reading, in plain words naming
 * the file; null when it can. A Stop whose turn cannot be seen is never
 * continued: an interrupt or a pending question may be in what was not seen.
 */
export function unseenReason(file: string, reading: TurnReading): string | null {
	if (reading.foundStart) return null;
	if (reading.limit?.kind === "bytes") {
		return `the current turn began more than ${sizeInWords(reading.limit.bytes)} before the end of the transcript ${file}, further back than boulder reads`;
	}
	if (reading.limit?.kind === "line") {
		return `the transcript ${file} has a line longer than ${sizeInWords(reading.limit.bytes)}, more than boulder reads`;
	}
	const skipped = reading.skippedLines > 0 ? ` (${reading.skippedLines} of its lines are not JSON)` : "";
	return `no line of the transcript ${file} begins the current turn${skipped}`;
}

/** Why the transcript could not be read at all, in plain words naming the file. */
export function unreadableReason(file: string | null, error: unknown): string {
	if (file === null) return "Claude Code gave no transcript_path";
	if (error instanceof FileProblem && error.kind === "missing") return `the transcript ${file} does not exist`;
	const reason = error instanceof FileProblem ? error.reason : messageOf(error);
	return `cannot read the transcript ${file}: ${reason}`;
}

export interface TurnLines {
	/** Parsed lines in file order, from the turn's first line (when found) to the end. */
	lines: Record<string, unknown>[];
	foundStart: boolean;
	partialLastLine: boolean;
	skippedLines: number;
	limit: ReadLimit | null;
}

/** Reads backwards from the end until the line that began the turn, or a limit. */
export async function readTurnLines(file: string, options: ScanOptions = {}): Promise<TurnLines> {
	const newestFirst: Record<string, unknown>[] = [];
	const scan = await scanTurn(file, options, (line) => newestFirst.push(line), isTurnStart);
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
	/** The newest message's id and its text blocks, until an older message shows up. */
	private lastId: string | null = null;
	private lastText: string[] = [];
	private lastTextDone = false;
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
		const joined = this.lastText.join("\n");
		const start = scan.foundStart ? this.oldest : null;
		return {
			spend,
			calls: this.usage.size,
			activity: this.activity,
			interrupt: this.interrupt,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: joined.trim() === "" ? null : joined,
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
		if (!this.lastTextDone) this.lastText = [...texts, ...this.lastText];
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

/** Whitespace-blind: the harness and the file may join text blocks differently. */
function canonical(text: string): string {
	return text.replace(/\s+/g, "");
}
