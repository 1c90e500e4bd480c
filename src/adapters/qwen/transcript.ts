/**
 * What Qwen Code does not tell a hook, read from the session's transcript
 * (`~/.qwen/projects/<project>/chats/<session>.jsonl`, one record per line:
 * `user`, `assistant`, `tool_result`, `system`): the real token spend of the
 * current turn, its file edits, whether a question to the user or a plan
 * awaiting approval is still unanswered, and how many Stop-hook
 * continuations the current prompt has had (Qwen Code caps them).
 *
 * Qwen Code does not write a Stop hook's continuation into the transcript,
 * so a turn is found by its end: the current turn is everything after the
 * previous final reply (an `assistant` record without function calls) or
 * after the last `user` record (the user's prompt, or a harness notification
 * such as a finished background task), whichever is later. The final replies
 * between the last `user` record and the current turn are the prompt's
 * earlier turns: each one ended in a Stop that was continued.
 *
 * Read backwards through the family's turn reader (`command-hook/turn-reader.ts`):
 * the current turn, then, when the caller asks, the prompt's earlier turns,
 * as far as the last `user` record or `countUpTo` final replies.
 */

import type { TokenSpend } from "../../core/turns.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** Tools that change files: work the list may not show yet. Shell commands do not count. */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["edit", "write_file", "notebook_edit"]);

/** Tools that wait for the user: a question, and a plan put forward for approval. */
export const QUESTION_TOOL = "ask_user_question";
export const PLAN_TOOL = "exit_plan_mode";

/** What Qwen Code's Stop reports as the last reply when the model wrote no text. */
export const NO_RESPONSE_TEXT = "[no response text]";

/**
 * The turn as the transcript shows it: `calls` are `assistant` records,
 * `pendingQuestion` a question or a plan awaiting the user without its
 * answer, and `foundStart` says the turn's start (the previous final reply,
 * or a `user` record) was found.
 */
export interface QwenTurn extends Omit<reader.TurnFacts, "interrupt" | "startMarker">, reader.TurnEnd {
	/** The `uuid` of the turn's last reply: the same for every report of this turn's end. */
	endMarker: string | null;
	/**
	 * Final replies between the prompt's start and this turn: the Stops of this
	 * prompt already continued. At least `countUpTo` when it stopped the
	 * counting; null when the prompt's start was not reached (a limit).
	 */
	continuations: number | null;
}

export interface ReadQwenTurnOptions extends reader.ReadOptions {
	/** Count the prompt's earlier final replies up to this many (0: do not read past the current turn). */
	countUpTo?: number;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readQwenTurn(file: string, options: ReadQwenTurnOptions = {}): Promise<QwenTurn> {
	// A turn without text is reported as a placeholder the file does not hold: nothing to wait for.
	const expectLastText = options.expectLastText === NO_RESPONSE_TEXT ? null : options.expectLastText;
	return reader.readTallied(file, { ...options, expectLastText }, () => new QwenTally(options.countUpTo ?? 0));
}

/** Pure: what the records of a transcript (file order) say about its last turn. */
export function analyseQwenTurn(records: readonly Record<string, unknown>[], countUpTo = 0): QwenTurn {
	return reader.tallyRecords(new QwenTally(countUpTo), records, undefined, true);
}

/**
 * Qwen Code's tally, newest first: the current turn (its replies, tool
 * results and the answered calls), then, while counting, the earlier final
 * replies. Its boundary is the reading's end, not the turn's start.
 */
class QwenTally implements reader.Tally<QwenTurn> {
	private spend = reader.noSpend();
	private calls = 0;
	private activity = 0;
	private readonly answered = new Set<string>();
	private pendingQuestion: string | null = null;
	private lastText: string | null = null;
	private endMarker: string | null = null;
	/** Still in the current turn (no boundary crossed yet). */
	private inTurn = true;
	private seenReply = false;
	private foundStart = false;
	private earlier = 0;
	private promptReached = false;

	constructor(private readonly countUpTo: number) {}

	/** Takes one record; true when the reading is complete. */
	add(line: Record<string, unknown>): boolean {
		if (line.type === "user") {
			this.foundStart = true;
			this.promptReached = true;
			return true;
		}
		const message = isRecord(line.message) ? line.message : null;
		if (!this.inTurn) {
			if (line.type === "assistant" && message && isFinal(message)) this.earlier++;
			return this.earlier >= this.countUpTo;
		}
		if (line.type === "tool_result" && message) {
			for (const part of partsOf(message)) {
				const response = isRecord(part.functionResponse) ? part.functionResponse : null;
				if (response && typeof response.id === "string") this.answered.add(response.id);
			}
			return false;
		}
		if (line.type !== "assistant" || !message) return false;
		if (this.seenReply && isFinal(message)) {
			// The previous turn's final reply: this turn began after it.
			this.inTurn = false;
			this.foundStart = true;
			this.earlier = 1;
			return this.earlier >= this.countUpTo;
		}
		this.addReply(line, message);
		return false;
	}

	/** The turn's start is the tally's to say (a final reply or a `user` record), not the scan's. */
	reading(scan: reader.ScanEnd): QwenTurn {
		const counted = this.promptReached || this.earlier >= this.countUpTo || (this.foundStart && this.countUpTo === 0);
		return {
			...scan,
			spend: this.spend,
			calls: this.calls,
			activity: this.activity,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: this.lastText,
			foundStart: this.foundStart,
			endMarker: this.endMarker,
			continuations: counted ? this.earlier : null,
			lagging: false,
		};
	}

	private addReply(line: Record<string, unknown>, message: Record<string, unknown>): void {
		if (!this.seenReply) {
			this.seenReply = true;
			this.endMarker = typeof line.uuid === "string" ? line.uuid : null;
			const text = partsOf(message)
				.filter((part) => typeof part.text === "string" && part.thought !== true)
				.map((part) => part.text as string)
				.join("\n");
			this.lastText = text.trim() === "" ? null : text;
		}
		this.calls++;
		if (isRecord(line.usageMetadata)) this.spend = reader.addSpend(this.spend, spendOf(line.usageMetadata));
		for (const part of partsOf(message)) {
			const call = isRecord(part.functionCall) ? part.functionCall : null;
			if (!call || typeof call.name !== "string") continue;
			if (ACTIVITY_TOOLS.has(call.name)) this.activity++;
			const waits = call.name === QUESTION_TOOL || call.name === PLAN_TOOL;
			if (waits && !(typeof call.id === "string" && this.answered.has(call.id))) {
				this.pendingQuestion ??=
					call.name === PLAN_TOOL ? "the agent put a plan forward for approval" : reader.askedQuestion(call.args);
			}
		}
	}
}

/** A reply without function calls: the one a turn ends with. */
function isFinal(message: Record<string, unknown>): boolean {
	return !partsOf(message).some((part) => isRecord(part.functionCall));
}

function partsOf(message: Record<string, unknown>): Record<string, unknown>[] {
	return Array.isArray(message.parts) ? message.parts.filter(isRecord) : [];
}

/** OpenAI-style usage as Qwen Code records it: the prompt count includes the cached part, which is not spend. */
function spendOf(usage: Record<string, unknown>): TokenSpend {
	const prompt = reader.count(usage.promptTokenCount);
	const cached = Math.min(prompt, reader.count(usage.cachedContentTokenCount));
	return {
		input: prompt - cached,
		output: reader.count(usage.candidatesTokenCount) + reader.count(usage.thoughtsTokenCount),
		cacheWrite: 0,
	};
}
