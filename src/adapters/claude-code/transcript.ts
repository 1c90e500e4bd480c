/**
 * Claude Code's tally for the family's turn reader (`command-hook/turn-reader.ts`): what its transcript says of
 * the current turn, everything after the last line that began one: a prompt (the user's or an SDK's), or a
 * Stop hook's feedback (ours or another's), which is how a continuation enters the transcript.
 */
import type { TokenSpend } from "../../core/turns.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";
import { GoalWatch } from "./goal.js";

/** Counted as activity (`TurnFacts`); Bash is not: a stalled agent can run commands forever. */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit"]);

export const QUESTION_TOOL = "AskUserQuestion";

const INTERRUPT_PREFIX = "[Request interrupted by user";

/** Characters of the last reply kept (its end): far more than a question to the user takes. */
export const MAX_KEPT_TEXT = 256 * 1024;
const STOP_FEEDBACK_PREFIX = "Stop hook feedback:";
const STOP_CONTEXT_MARK = "Stop hook additional context:";

/**
 * `calls` are distinct message ids, `lastAssistantText` all text blocks of the last assistant message (or its
 * last `MAX_KEPT_TEXT` characters), `startMarker` the `uuid` of the line that began the turn.
 */
export interface TurnReading extends reader.TurnFacts, reader.TurnEnd {
	lastAssistantTextClipped?: boolean;
	/** With `withGoal`: the active `/goal`'s condition or null, when this reading covered the goal's tail too. */
	goal?: string | null;
}

export interface ReadTurnOptions extends reader.ReadOptions {
	/** Also read `/goal` (`goal.ts`) from this many bytes of the file's end. */
	withGoal?: number;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readTurn(file: string, options: ReadTurnOptions = {}): Promise<TurnReading> {
	const tail = options.withGoal;
	return reader.readTallied(file, options, () => new TurnTally(tail === undefined ? undefined : new GoalWatch(tail)));
}

class TurnTally implements reader.Tally<TurnReading> {
	private readonly usage = new Map<string, TokenSpend>();
	/** Tool uses answered by a later line. */
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

	constructor(readonly tail?: GoalWatch) {}

	add(line: Record<string, unknown>): boolean {
		this.oldest = line;
		if (line.isSidechain === true) return false;
		const message = isRecord(line.message) ? line.message : null;
		if (line.type === "assistant" && message) this.addAssistant(message);
		if (line.type !== "user" || !message) return false;
		for (const block of reader.recordsIn(message.content)) {
			if (block.type === "tool_result" && typeof block.tool_use_id === "string") this.answered.add(block.tool_use_id);
		}
		if (this.interrupt === null && userText(message.content)?.startsWith(INTERRUPT_PREFIX)) {
			this.interrupt = { at: reader.timeOf(line.timestamp) };
		}
		return isTurnStart(line);
	}

	reading(scan: reader.ScanEnd): TurnReading {
		const spend = [...this.usage.values()].reduce(reader.addSpend, reader.noSpend());
		const joined = this.lastTextNewestFirst.toReversed().join("\n");
		const start = scan.foundStart ? this.oldest : null;
		return {
			...scan,
			spend,
			calls: this.usage.size,
			activity: this.activity,
			interrupt: this.interrupt,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: joined.trim() === "" ? null : joined,
			lastAssistantTextClipped: this.lastTextClipped,
			startMarker: typeof start?.uuid === "string" ? start.uuid : null,
			lagging: false,
			...(this.tail?.goal === undefined ? {} : { goal: this.tail.goal }),
		};
	}

	private addAssistant(message: Record<string, unknown>): void {
		const id = typeof message.id === "string" ? message.id : `line-${this.anonymous++}`;
		if (isRecord(message.usage)) this.usage.set(id, maxSpend(message.usage, this.usage.get(id)));
		if (this.lastId === null) this.lastId = id;
		else if (id !== this.lastId) this.lastTextDone = true;
		const texts: string[] = [];
		for (const block of reader.recordsIn(message.content)) {
			if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
			if (block.type !== "tool_use" || typeof block.name !== "string") continue;
			if (ACTIVITY_TOOLS.has(block.name)) this.activity++;
			if (block.name === QUESTION_TOOL && typeof block.id === "string" && !this.answered.has(block.id)) {
				this.pendingQuestion ??= reader.askedQuestion(block.input);
			}
		}
		if (!this.lastTextDone) this.keepText(texts);
	}

	/** Keeps the reply's end (where a question is), each block once: a long message costs its length, not its square. */
	private keepText(texts: readonly string[]): void {
		for (let index = texts.length - 1; index >= 0 && !this.lastTextClipped; index--) {
			const text = texts[index] as string;
			const room = MAX_KEPT_TEXT - this.lastTextBytes;
			this.lastTextClipped = text.length > room;
			this.lastTextNewestFirst.push(this.lastTextClipped ? text.slice(text.length - room) : text);
			this.lastTextBytes = this.lastTextClipped ? MAX_KEPT_TEXT : this.lastTextBytes + text.length + 1;
		}
	}
}

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseTurn(lines: readonly Record<string, unknown>[], flags?: ScanFlags): TurnReading {
	return reader.tallyRecords(new TurnTally(), lines, flags && { ...flags, limit: flags.limit ?? null });
}
type ScanFlags = Omit<reader.ScanEnd, "limit"> & Partial<reader.ScanEnd>;

/** A prompt (no tool result, interrupt notice, compaction summary or metadata), or a Stop hook's feedback. */
export function isTurnStart(line: Record<string, unknown>): boolean {
	if (line.type !== "user" || line.isSidechain === true || line.isCompactSummary === true) return false;
	if (!isRecord(line.message)) return false;
	const content = line.message.content;
	if (reader.recordsIn(content).some((block) => block.type === "tool_result")) return false;
	const text = userText(content);
	if (text === null || text.startsWith(INTERRUPT_PREFIX)) return false;
	return line.isMeta !== true || text.startsWith(STOP_FEEDBACK_PREFIX) || text.includes(STOP_CONTEXT_MARK);
}

function userText(content: unknown): string | null {
	if (typeof content === "string") return content;
	// Only searched for a prefix or a mark, so a blank text may come back as "": still a text, not null.
	return Array.isArray(content) ? (reader.partsText(content, (block) => block.type === "text") ?? "") : null;
}

/** Lines of one message repeat its usage; a streamed line may carry an early, smaller copy: keep the largest. */
function maxSpend(usage: Record<string, unknown>, was: TokenSpend = reader.noSpend()): TokenSpend {
	return {
		input: Math.max(was.input, reader.count(usage.input_tokens)),
		output: Math.max(was.output, reader.count(usage.output_tokens)),
		cacheWrite: Math.max(was.cacheWrite, reader.count(usage.cache_creation_input_tokens)),
	};
}
