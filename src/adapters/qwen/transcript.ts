/**
 * What Qwen Code does not tell a hook, read from the session's transcript
 * (`docs/qwen-notes.md`, "Transcript"): the current turn's spend, file edits,
 * unanswered question or plan, and the prompt's Stop-hook continuations so far.
 * A continuation is not written there, so the current turn is everything after
 * the previous final reply (one without function calls) or the last `user`
 * record, whichever is later; the final replies between that record and the
 * turn are the prompt's earlier Stops, each one continued.
 */
import type { TokenSpend } from "../../core/turns.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** Tools that change files: work the list may not show yet (shell commands do not count). */
const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["edit", "write_file", "notebook_edit"]);
const QUESTION_TOOL = "ask_user_question";
const PLAN_TOOL = "exit_plan_mode";
/** Qwen Code's Stop's last reply when the model wrote no text, which the file never holds: nothing to wait for. */
const NO_RESPONSE_TEXT = "[no response text]";

/** The turn as the transcript shows it; `calls` are its `assistant` records. */
export interface QwenTurn extends Omit<reader.TurnFacts, "interrupt" | "startMarker">, reader.TurnEnd {
	/** The `uuid` of the turn's last reply: the same for every report of this turn's end. */
	endMarker: string | null;
	/** The prompt's Stops already continued (at least `countUpTo` when that ended the count); null: its start unseen. */
	continuations: number | null;
}

/** `countUpTo`: count the prompt's earlier final replies up to this many (0: not past the current turn). */
export type ReadQwenTurnOptions = reader.ReadOptions & { countUpTo?: number };

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readQwenTurn(file: string, options: ReadQwenTurnOptions = {}): Promise<QwenTurn> {
	const expectLastText = options.expectLastText === NO_RESPONSE_TEXT ? null : options.expectLastText;
	return reader.readTallied(file, { ...options, expectLastText }, () => new QwenTally(options.countUpTo ?? 0));
}

/** Pure: what the records of a transcript (file order) say about its last turn. */
export function analyseQwenTurn(records: readonly Record<string, unknown>[], countUpTo = 0): QwenTurn {
	return reader.tallyRecords(new QwenTally(countUpTo), records, undefined, true);
}

/** Newest first: the current turn, then, while counting, the earlier final replies. */
class QwenTally implements reader.Tally<QwenTurn> {
	private spend = reader.noSpend();
	private calls = 0;
	private activity = 0;
	private readonly answered = new Set<string>();
	private pendingQuestion: string | null = null;
	private lastText: string | null = null;
	private endMarker: string | null = null;
	/** Final replies before the current turn: 0 while still in it. */
	private earlier = 0;
	private promptReached = false;

	constructor(private readonly countUpTo: number) {}

	add(line: Record<string, unknown>): boolean {
		if (line.type === "user") {
			this.promptReached = true;
			return true;
		}
		const message = isRecord(line.message) ? line.message : null;
		if (this.earlier > 0) {
			if (line.type === "assistant" && message && isFinal(message)) this.earlier++;
			return this.earlier >= this.countUpTo;
		}
		if (line.type === "tool_result" && message) {
			for (const part of reader.recordsIn(message.parts)) {
				const response = isRecord(part.functionResponse) ? part.functionResponse : null;
				if (response && typeof response.id === "string") this.answered.add(response.id);
			}
			return false;
		}
		if (line.type !== "assistant" || !message) return false;
		if (this.calls > 0 && isFinal(message)) {
			this.earlier = 1;
			return this.earlier >= this.countUpTo;
		}
		this.addReply(line, message);
		return false;
	}

	/** The turn's start is the tally's to say, not the scan's. */
	reading(scan: reader.ScanEnd): QwenTurn {
		const counted = this.promptReached || this.earlier >= this.countUpTo;
		return {
			...scan,
			spend: this.spend,
			calls: this.calls,
			activity: this.activity,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: this.lastText,
			foundStart: this.promptReached || this.earlier > 0,
			endMarker: this.endMarker,
			continuations: counted ? this.earlier : null,
			lagging: false,
		};
	}

	private addReply(line: Record<string, unknown>, message: Record<string, unknown>): void {
		if (this.calls === 0) {
			this.endMarker = typeof line.uuid === "string" ? line.uuid : null;
			this.lastText = reader.partsText(message.parts);
		}
		this.calls++;
		if (isRecord(line.usageMetadata)) this.spend = reader.addSpend(this.spend, spendOf(line.usageMetadata));
		for (const part of reader.recordsIn(message.parts)) {
			const call = isRecord(part.functionCall) ? part.functionCall : null;
			if (!call || typeof call.name !== "string") continue;
			if (ACTIVITY_TOOLS.has(call.name)) this.activity++;
			if (typeof call.id === "string" && this.answered.has(call.id)) continue;
			if (call.name === PLAN_TOOL) this.pendingQuestion ??= "the agent put a plan forward for approval";
			if (call.name === QUESTION_TOOL) this.pendingQuestion ??= reader.askedQuestion(call.args);
		}
	}
}

/** A reply without function calls: the one a turn ends with. */
function isFinal(message: Record<string, unknown>): boolean {
	return !reader.recordsIn(message.parts).some((part) => isRecord(part.functionCall));
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
