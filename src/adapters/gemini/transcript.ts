/**
 * What Gemini CLI does not tell a hook, read from the session's transcript (`transcript_path`): the turn's
 * real spend, its file edits, whether it ended with a finished reply, and whether the agent is in plan mode.
 *
 * The file is a log of changes to one record (`docs/gemini-notes.md`, "Transcript"), so it is read whole, not
 * from the end: plan mode and the todo list are the session's. The current turn is everything after the last
 * `user` message with text (tool results carry `functionResponse` parts instead). AfterAgent fires for a
 * cancelled or failed turn too, so only a turn ending with a model reply that has text and calls no tool is
 * finished; anything else is never continued.
 *
 * Untrusted: only a regular file of at most `maxBytes` is read; a line that is not a JSON object is skipped
 * and counted.
 */
import type { TokenSpend } from "../../core/turns.js";
import { readRegularFile } from "../../engine/bounded-read.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord, nonEmptyText } from "../shared/hook-input.js";

/** Gemini CLI's todo tool; here, so that the reader stays free of the normaliser (`events.ts`). */
export const TODO_TOOL = "write_todos";

/** Tools that change files: activity the todo list may not show yet (shell commands are no evidence of progress). */
const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["write_file", "replace"]);

/** The start of the note Gemini CLI records when the user cancels a turn (Esc). */
const CANCELLED = "Request cancelled";

/** `interrupt` is a cancel note, `startMarker` the id of the message that began the turn. */
export interface TurnReading extends Omit<reader.TurnFacts, "pendingQuestion">, Pick<reader.ScanEnd, "skippedLines"> {
	/** The turn ends with a model reply that has text and calls no tool. */
	finished: boolean;
	prompt: string | null;
	/** The agent entered plan mode and has not left it. */
	planMode: boolean;
	/** The input of the session's last successful `write_todos` in this file (a subagent's are in its own); null: none. */
	todoInput: unknown;
}

/** Bigger than any transcript a session reaches; a larger file is not read, and its turn is unseen. */
const MAX_TRANSCRIPT_BYTES = 128 * 1024 * 1024;

type SessionFacts = Pick<TurnReading, "planMode" | "todoInput">;
type GeminiMessage = Record<string, unknown> & { id: string; type: string };

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readTurn(file: string, maxBytes = MAX_TRANSCRIPT_BYTES): Promise<TurnReading> {
	return turnOf(await readRegularFile(file, maxBytes));
}

/**
 * Pure: the current turn of a transcript's text. Only the turn's own lines are parsed in full (back to its
 * prompt or a `$set` of the whole list), plus the lines naming a plan-mode tool or `write_todos`.
 */
export function turnOf(text: string): TurnReading {
	const lines = text.split("\n");
	const { messages, skippedLines } = turnMessages(lines);
	const end: reader.ScanEnd = { foundStart: false, partialLastLine: false, skippedLines, limit: null };
	return reader.tallyRecords(geminiTally(sessionFacts(lines)), messages, end, true);
}

/** Gemini's tally, newest message first: model replies (spend, edits, the last reply), cancel notes, the prompt. */
function geminiTally(session: SessionFacts): reader.Tally<TurnReading, GeminiMessage> {
	const turn = { spend: reader.noSpend(), calls: 0, activity: 0 };
	let last: GeminiMessage | undefined;
	let cancelled: GeminiMessage | undefined;
	let begun: GeminiMessage | undefined;
	return {
		add(message) {
			if (message.type === "user" && promptText(message.content) !== null) {
				begun = message;
				return true;
			}
			last ??= message;
			if (message.type === "gemini") {
				turn.calls++;
				addTokens(turn.spend, message.tokens);
				turn.activity += toolCallsOf(message).filter((call) => ACTIVITY_TOOLS.has(call.name)).length;
			}
			if (message.type === "info" && typeof message.content === "string" && message.content.startsWith(CANCELLED))
				cancelled ??= message;
			return false;
		},
		reading(end) {
			const lastText = last?.type === "gemini" ? textOf(last.content) : null;
			const finished = last !== undefined && lastText !== null && toolCallsOf(last).length === 0;
			return {
				...turn,
				...session,
				finished,
				lastAssistantText: finished ? lastText : null,
				startMarker: begun?.id ?? null,
				prompt: begun ? promptText(begun.content) : null,
				interrupt: cancelled ? { at: reader.timeOf(cancelled.timestamp) } : null,
				skippedLines: end.skippedLines,
			};
		},
	};
}

/**
 * The current turn's messages, each id once (its latest version, in its first place): the lines replayed from
 * the turn's prompt, or a `$set` of the whole list, or the first line.
 */
function turnMessages(lines: readonly string[]): { messages: GeminiMessage[]; skippedLines: number } {
	const values: Record<string, unknown>[] = [];
	let skippedLines = 0;
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index] as string;
		if (line.trim() === "") continue;
		const value = reader.parseLine(line);
		if (value === null) {
			skippedLines++;
			continue;
		}
		values.push(value);
		if (setMessages(value) !== null || (value.type === "user" && promptText(value.content) !== null)) break;
	}
	const byId = new Map<string, GeminiMessage>();
	for (const value of values.reverse()) {
		const list = setMessages(value);
		if (list !== null) byId.clear();
		for (const message of list ?? [value]) if (isMessage(message)) byId.set(message.id, message);
	}
	return { messages: [...byId.values()], skippedLines };
}

/** Plan mode (entered by the last plan-mode tool that succeeded) and the last successful `write_todos` input. */
function sessionFacts(lines: readonly string[]): SessionFacts {
	const facts: SessionFacts = { planMode: false, todoInput: null };
	for (const line of lines) {
		if (!line.includes("_plan_mode") && !line.includes(TODO_TOOL)) continue;
		const value = reader.parseLine(line);
		if (value === null) continue;
		for (const message of setMessages(value) ?? [value]) {
			for (const call of isRecord(message) ? toolCallsOf(message) : []) {
				if (!call.ok) continue;
				if (call.name === "enter_plan_mode" || call.name === "exit_plan_mode")
					facts.planMode = call.name === "enter_plan_mode";
				if (call.name === TODO_TOOL && call.args !== undefined) facts.todoInput = call.args;
			}
		}
	}
	return facts;
}

function isMessage(value: unknown): value is GeminiMessage {
	return isRecord(value) && typeof value.id === "string" && typeof value.type === "string";
}

function setMessages(value: Record<string, unknown>): unknown[] | null {
	const set = value.$set;
	return isRecord(set) && Array.isArray(set.messages) ? set.messages : null;
}

/** A user message's text, when it is a prompt (not a tool result). */
function promptText(content: unknown): string | null {
	return reader.recordsIn(content).some((part) => part.functionResponse !== undefined) ? null : textOf(content);
}

/** The text parts of a message's content (not its thoughts), joined; null when there is none. */
function textOf(content: unknown): string | null {
	return typeof content === "string" ? nonEmptyText(content) : reader.partsText(content, undefined, "");
}

function toolCallsOf(message: Record<string, unknown>): { name: string; ok: boolean; args: unknown }[] {
	if (!Array.isArray(message.toolCalls)) return [];
	return message.toolCalls.flatMap((call) =>
		isRecord(call) && typeof call.name === "string"
			? [{ name: call.name, ok: call.status === undefined || call.status === "success", args: call.args }]
			: [],
	);
}

/** Spend is the uncached input (with the tool prompt) and everything generated; Gemini reports no cache writes. */
function addTokens(spend: TokenSpend, tokens: unknown): void {
	if (!isRecord(tokens)) return;
	spend.input += Math.max(0, reader.count(tokens.input) - reader.count(tokens.cached)) + reader.count(tokens.tool);
	spend.output += reader.count(tokens.output) + reader.count(tokens.thoughts);
}

/** Why the turn that just ended is not continued when its transcript does not show it finished; null when it did. */
export function unfinishedReason(file: string, reading: TurnReading): string | null {
	if (reading.finished) return null;
	const skipped = reading.skippedLines > 0 ? ` (${reading.skippedLines} of its lines are not JSON)` : "";
	return `the transcript ${file} does not show the turn ending with a finished reply${skipped}: it was cancelled, failed or is still being written`;
}
