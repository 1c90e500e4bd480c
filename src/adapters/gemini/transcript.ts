/**
 * What Gemini CLI does not tell a hook, read from the session's transcript
 * (`transcript_path`, JSONL): the real token spend of the current turn, the
 * files it edited, whether it ended with a finished answer, and whether the
 * agent is in plan mode.
 *
 * The file is a log of changes to one conversation record: a first line with
 * the session's metadata, then message lines (`{id, type, content, tokens,
 * toolCalls, ...}`; a message is written again under the same id when its tool
 * calls are added) and `{"$set": {...}}` lines, of which `$set.messages`
 * replaces the whole list. Replaying it gives the messages; the current turn
 * is everything after the last `user` message that carries text (a prompt,
 * the user's or a continuation's; tool results are `user` messages too, but
 * carry `functionResponse` parts).
 *
 * Why "finished" matters: Gemini CLI writes a model reply only once its whole
 * stream has arrived, and fires AfterAgent even for a turn the user cancelled
 * (Esc) or that failed, with no flag saying so. A turn whose last message is a
 * model reply with text and no tool call ended normally; anything else (the
 * prompt or a tool result last, a reply that called tools) is a turn that was
 * cut short, and is never continued. A cancel also leaves an `info` note
 * ("Request cancelled."), read as the user's interrupt; Gemini CLI may then
 * rewrite the list without the cancelled prompt, which leaves no finished
 * turn either.
 *
 * Not read backwards like the other logs: plan mode and the todo list are
 * the session's, not the turn's, so the whole file is read, and only the
 * replay of the turn's own lines is parsed in full; the turn's messages then
 * go through Gemini's tally, the family's way (`command-hook/turn-reader.ts`).
 *
 * Untrusted: only a regular file of at most `maxBytes` is read (see
 * `engine/bounded-read.ts`); a line that is not a JSON object is skipped and
 * counted.
 */
import type { TokenSpend } from "../../core/turns.js";
import { readRegularFile } from "../../engine/bounded-read.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/**
 * Tools that change files: work the todo list may not show yet, which the
 * policy counts as activity. Shell commands do not count: running one is not
 * evidence of progress, and a stalled agent can run them forever.
 */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["write_file", "replace"]);

/** The note Gemini CLI records when the user cancels a turn (Esc). */
const CANCELLED = "Request cancelled";

const ENTER_PLAN_MODE = "enter_plan_mode";
/** Gemini CLI's todo tool (`events.ts`'s `TODO_TOOL`, named here so the reader stays free of the normaliser). */
const TODO_TOOL_NAME = "write_todos";
const EXIT_PLAN_MODE = "exit_plan_mode";

/**
 * The turn as the transcript shows it: `calls` are model replies,
 * `lastAssistantText` the text of the finished reply, `interrupt` a cancel
 * note, `startMarker` the id of the message that began the turn.
 */
export interface TurnReading extends Omit<reader.TurnFacts, "pendingQuestion">, Pick<reader.ScanEnd, "skippedLines"> {
	/** The turn ends with a model reply that has text and calls no tool. */
	finished: boolean;
	/** The text that began the turn. */
	prompt: string | null;
	/** The agent entered plan mode (`enter_plan_mode`) and has not left it. */
	planMode: boolean;
	/**
	 * The input of the session's last `write_todos` call that succeeded, as
	 * this transcript holds it (null: none). Only the agent's own calls are
	 * here: a subagent's are in a file of its own, though its tool hooks carry
	 * this session's id.
	 */
	todoInput: unknown;
}

/** Bigger than any transcript a session reaches; a larger file is not read, and its turn is unseen. */
export const MAX_TRANSCRIPT_BYTES = 128 * 1024 * 1024;

export interface GeminiMessage {
	id: string;
	type: string;
	content: unknown;
	tokens?: unknown;
	toolCalls?: unknown;
	timestamp?: unknown;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readTurn(file: string, maxBytes = MAX_TRANSCRIPT_BYTES): Promise<TurnReading> {
	return turnOf(await readRegularFile(file, maxBytes));
}

/**
 * Pure: the current turn of a transcript's text. Only the turn's own lines
 * are parsed (from the end back to the prompt that began it, or to a `$set`
 * of the whole list), and, for plan mode, the lines that name a plan-mode
 * tool: a long session costs what its last turn costs, plus one pass over
 * the text.
 */
export function turnOf(text: string): TurnReading {
	const lines = text.split("\n");
	const { messages, skippedLines } = replay(lines.slice(turnStart(lines)));
	const end: reader.ScanEnd = { foundStart: false, partialLastLine: false, skippedLines, limit: null };
	const tally = new GeminiTally(planModeOf(lines), lastTodoInput(lines));
	return reader.tallyRecords(tally, messages, end, true);
}

/** Gemini's tally, newest message first: model replies (spend, edits, the last reply), cancel notes, the prompt. */
class GeminiTally implements reader.Tally<TurnReading, GeminiMessage> {
	private readonly spend = reader.noSpend();
	private calls = 0;
	private activity = 0;
	private last: GeminiMessage | undefined;
	private cancelled: GeminiMessage | undefined;
	private begun: GeminiMessage | undefined;

	constructor(
		private readonly planMode: boolean,
		private readonly todoInput: unknown,
	) {}

	add(message: GeminiMessage): boolean {
		if (message.type === "user" && promptText(message.content) !== null) {
			this.begun = message;
			return true;
		}
		this.last ??= message;
		if (message.type === "gemini") {
			this.calls++;
			addTokens(this.spend, message.tokens);
			this.activity += toolCallsOf(message).filter((call) => ACTIVITY_TOOLS.has(call.name)).length;
		}
		const cancel =
			message.type === "info" && typeof message.content === "string" && message.content.startsWith(CANCELLED);
		if (cancel) this.cancelled ??= message;
		return false;
	}

	reading(end: reader.ScanEnd): TurnReading {
		const last = this.last;
		const lastText = last?.type === "gemini" ? textOf(last.content) : null;
		const finished = last !== undefined && lastText !== null && toolCallsOf(last).length === 0;
		return {
			spend: this.spend,
			calls: this.calls,
			activity: this.activity,
			finished,
			lastAssistantText: finished ? lastText : null,
			startMarker: this.begun?.id ?? null,
			prompt: this.begun ? promptText(this.begun.content) : null,
			interrupt: this.cancelled ? { at: reader.timeOf(this.cancelled.timestamp) } : null,
			planMode: this.planMode,
			todoInput: this.todoInput,
			skippedLines: end.skippedLines,
		};
	}
}

/** The messages lines add up to, in order, each id once (its latest version). */
export function replay(lines: readonly string[]): { messages: GeminiMessage[]; skippedLines: number } {
	const byId = new Map<string, GeminiMessage>();
	let skippedLines = 0;
	for (const line of lines) {
		if (line.trim() === "") continue;
		const value = reader.parseLine(line);
		if (value === null) {
			skippedLines++;
			continue;
		}
		const list = setMessages(value);
		if (list !== null) {
			byId.clear();
			for (const message of list) addMessage(byId, message);
			continue;
		}
		addMessage(byId, value);
	}
	return { messages: [...byId.values()], skippedLines };
}

/** The index of the line the current turn's replay starts from: its prompt, a `$set` of the whole list, or the first line. */
function turnStart(lines: readonly string[]): number {
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index] as string;
		if (line.trim() === "") continue;
		const value = reader.parseLine(line);
		if (value === null) continue;
		if (setMessages(value) !== null) return index;
		if (value.type === "user" && promptText(value.content) !== null) return index;
	}
	return 0;
}

/** Whether the last plan-mode tool that succeeded, anywhere in the session, entered it. */
function planModeOf(lines: readonly string[]): boolean {
	let planMode = false;
	for (const message of messagesNaming(lines, "_plan_mode")) {
		for (const call of toolCallsOf(message)) {
			if (call.name === ENTER_PLAN_MODE && call.ok) planMode = true;
			if (call.name === EXIT_PLAN_MODE && call.ok) planMode = false;
		}
	}
	return planMode;
}

/**
 * The input of the last successful `write_todos` call anywhere in the
 * session. A call written twice (bare, then with its result) counts once, at
 * its latest version.
 */
function lastTodoInput(lines: readonly string[]): unknown {
	let input: unknown = null;
	for (const message of messagesNaming(lines, TODO_TOOL_NAME)) {
		if (!Array.isArray(message.toolCalls)) continue;
		for (const call of message.toolCalls) {
			if (!isRecord(call) || call.name !== TODO_TOOL_NAME) continue;
			if (call.status !== undefined && call.status !== "success") continue;
			if (call.args !== undefined) input = call.args;
		}
	}
	return input;
}

/** The messages of the lines that name `word` (only those lines are parsed), in file order. */
function* messagesNaming(lines: readonly string[], word: string): Generator<Record<string, unknown>> {
	for (const line of lines) {
		if (!line.includes(word)) continue;
		const value = reader.parseLine(line);
		if (value === null) continue;
		for (const message of setMessages(value) ?? [value]) if (isRecord(message)) yield message;
	}
}

function setMessages(value: Record<string, unknown>): unknown[] | null {
	const set = value.$set;
	return isRecord(set) && Array.isArray(set.messages) ? set.messages : null;
}

function addMessage(byId: Map<string, GeminiMessage>, value: unknown): void {
	if (!isRecord(value) || typeof value.id !== "string" || typeof value.type !== "string") return;
	// A message written again (its tool calls added) keeps its place.
	byId.set(value.id, {
		id: value.id,
		type: value.type,
		content: value.content,
		tokens: value.tokens,
		toolCalls: value.toolCalls,
		timestamp: value.timestamp,
	});
}

/** A user message's text, when it is a prompt (not a tool result). */
function promptText(content: unknown): string | null {
	if (typeof content === "string") return content.trim() === "" ? null : content;
	if (!Array.isArray(content)) return null;
	if (content.some((part) => isRecord(part) && part.functionResponse !== undefined)) return null;
	return textOf(content);
}

/** The text parts of a message's content, joined; null when there is none. */
function textOf(content: unknown): string | null {
	const text =
		typeof content === "string"
			? content
			: Array.isArray(content)
				? content
						.map((part) => (isRecord(part) && typeof part.text === "string" && part.thought !== true ? part.text : ""))
						.join("")
				: "";
	return text.trim() === "" ? null : text;
}

interface ToolCall {
	name: string;
	ok: boolean;
}

function toolCallsOf(message: { toolCalls?: unknown }): ToolCall[] {
	if (!Array.isArray(message.toolCalls)) return [];
	return message.toolCalls.flatMap((call) =>
		isRecord(call) && typeof call.name === "string"
			? [{ name: call.name, ok: call.status === undefined || call.status === "success" }]
			: [],
	);
}

/**
 * Gemini's `tokens`: `input` (the prompt, cached part included), `cached`,
 * `output`, `thoughts`, `tool`. Spend is the uncached input (with the tool
 * prompt) and everything generated; Gemini reports no cache writes.
 */
function addTokens(spend: TokenSpend, tokens: unknown): void {
	if (!isRecord(tokens)) return;
	spend.input += Math.max(0, reader.count(tokens.input) - reader.count(tokens.cached)) + reader.count(tokens.tool);
	spend.output += reader.count(tokens.output) + reader.count(tokens.thoughts);
}

/**
 * Why the turn that just ended is not continued when its transcript does not
 * show it finished, in plain words naming the file; null when it did.
 */
export function unfinishedReason(file: string, reading: TurnReading): string | null {
	if (reading.finished) return null;
	const skipped = reading.skippedLines > 0 ? ` (${reading.skippedLines} of its lines are not JSON)` : "";
	return `the transcript ${file} does not show the turn ending with a finished reply${skipped}: it was cancelled, failed or is still being written`;
}
