/**
 * What Codex does not tell a hook, read from the session's rollout (the JSONL
 * file at `transcript_path`): the real token spend of the current turn, an
 * interrupt, and a question to the user that was never answered.
 *
 * "The current turn" is boulder's, not Codex's: Codex keeps every Stop-hook
 * continuation inside one `turn_id`, so a turn here begins at the last
 * message that started the agent: the user's (`UserMessage`) or a hook's
 * (`HookPrompt`, which is how a continuation enters the rollout), or, when a
 * Codex turn has neither, its `task_started`. Only that turn is read, from
 * the end backwards (`shared/transcript-scan.ts`).
 *
 * Spend: one `token_usage_record` line per model response, keyed by its
 * `response_id`. Cached input is not spend; cache writes are counted once.
 */
import type { TokenSpend } from "../../core/turns.js";
import { isRecord } from "../shared/hook-input.js";
import {
	readSettled,
	type ScanEnd,
	type ScanOptions,
	type SettleOptions,
	scanTurn,
	unreadableTranscriptReason,
	unseenTurnReason,
} from "../shared/transcript-scan.js";

/** Codex's ask-the-user tool. */
export const QUESTION_TOOL = "request_user_input";

/** The items that start the agent: a person's message, or a hook's (a Stop continuation). */
const STARTING_ITEMS: ReadonlySet<string> = new Set(["UserMessage", "HookPrompt"]);

export interface RolloutTurn extends ScanEnd {
	spend: TokenSpend;
	/** Model responses counted in the spend. */
	calls: number;
	/** The turn was interrupted (Esc, Ctrl-C): when, from the line's timestamp (null if it has none). */
	interrupt: { at: number | null } | null;
	/** A `request_user_input` the user never answered: its question. */
	pendingQuestion: string | null;
	/** The text of the turn's last assistant message. */
	lastAssistantText: string | null;
	/** The id of the item that began the turn: the same for every report of this turn's end. */
	startMarker: string | null;
	/** The harness's copy of the last reply was not found in the file, even after the retries. */
	lagging: boolean;
}

export interface ReadRolloutOptions extends ScanOptions, SettleOptions {}

/**
 * Contract: rejects only when the file cannot be opened or read, with a
 * `FileProblem` (missing, not a regular file, not permitted, shrank while read).
 */
export async function readRolloutTurn(file: string, options: ReadRolloutOptions = {}): Promise<RolloutTurn> {
	return readSettled(
		async () => {
			const tally = new RolloutTally();
			return tally.reading(await scanTurn(file, options, isRolloutTurnStart, (line) => tally.add(line)));
		},
		options,
		file,
	);
}

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseRolloutTurn(
	lines: readonly Record<string, unknown>[],
	scan: ScanEnd = { foundStart: true, partialLastLine: false, skippedLines: 0, limit: null },
): RolloutTurn {
	const tally = new RolloutTally();
	for (let index = lines.length - 1; index >= 0; index--) tally.add(lines[index] as Record<string, unknown>);
	return tally.reading(scan);
}

export function isRolloutTurnStart(line: Record<string, unknown>): boolean {
	return startMarkerOf(line) !== null;
}

export function unseenReason(file: string, reading: RolloutTurn): string | null {
	return unseenTurnReason(file, reading);
}

export function unreadableReason(file: string | null, error: unknown): string {
	return unreadableTranscriptReason("Codex", file, error);
}

/** The id of the item a turn-starting line holds; null for any other line. */
function startMarkerOf(line: Record<string, unknown>): string | null {
	if (line.type !== "event_msg" || !isRecord(line.payload)) return null;
	const payload = line.payload;
	if (payload.type === "task_started") return typeof payload.turn_id === "string" ? payload.turn_id : "task";
	if (payload.type !== "item_completed" || !isRecord(payload.item)) return null;
	const item = payload.item;
	if (typeof item.type !== "string" || !STARTING_ITEMS.has(item.type)) return null;
	return typeof item.id === "string" ? item.id : item.type;
}

/** What the lines of one turn say, gathered newest line first (the order the file is read in). */
class RolloutTally {
	private readonly usage = new Map<string, TokenSpend>();
	/** Outputs of tool calls already seen (a later line), by call id. */
	private readonly outputs = new Map<string, string>();
	private interrupt: RolloutTurn["interrupt"] = null;
	private pendingQuestion: string | null = null;
	private lastText: string | null = null;
	private anonymous = 0;
	private oldest: Record<string, unknown> | null = null;

	add(line: Record<string, unknown>): void {
		this.oldest = line;
		const payload = isRecord(line.payload) ? line.payload : null;
		if (!payload) return;
		if (line.type === "token_usage_record") {
			const id = typeof payload.response_id === "string" ? payload.response_id : `line-${this.anonymous++}`;
			if (isRecord(payload.usage)) this.usage.set(id, spendOf(payload.usage));
			return;
		}
		if (line.type === "event_msg" && payload.type === "turn_aborted" && this.interrupt === null) {
			const at = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
			this.interrupt = { at: Number.isFinite(at) ? at : null };
			return;
		}
		if (line.type !== "response_item") return;
		if (payload.type === "function_call_output" && typeof payload.call_id === "string") {
			this.outputs.set(
				payload.call_id,
				typeof payload.output === "string" ? payload.output : JSON.stringify(payload.output),
			);
			return;
		}
		if (payload.type === "function_call" && payload.name === QUESTION_TOOL && typeof payload.call_id === "string") {
			if (this.pendingQuestion === null && !answered(this.outputs.get(payload.call_id))) {
				this.pendingQuestion = questionText(payload.arguments);
			}
			return;
		}
		if (payload.type === "message" && payload.role === "assistant" && this.lastText === null) {
			const text = outputText(payload.content);
			if (text !== null) this.lastText = text;
		}
	}

	reading(scan: ScanEnd): RolloutTurn {
		let spend: TokenSpend = { input: 0, output: 0, cacheWrite: 0 };
		for (const one of this.usage.values()) {
			spend = {
				input: spend.input + one.input,
				output: spend.output + one.output,
				cacheWrite: spend.cacheWrite + one.cacheWrite,
			};
		}
		return {
			...scan,
			spend,
			calls: this.usage.size,
			interrupt: this.interrupt,
			pendingQuestion: this.pendingQuestion,
			lastAssistantText: this.lastText,
			startMarker: scan.foundStart && this.oldest ? startMarkerOf(this.oldest) : null,
			lagging: false,
		};
	}
}

/**
 * Whether a `request_user_input` call's output carries the user's answers.
 * No output means the question is still open. Where Codex cannot ask (`codex
 * exec`, a mode without the tool, a subagent) the output is a refusal in
 * words: the user never saw the question, so it still waits for them.
 */
function answered(output: string | undefined): boolean {
	if (output === undefined) return false;
	try {
		const value: unknown = JSON.parse(output);
		return isRecord(value) && isRecord(value.answers);
	} catch {
		// A refusal in words, not the answers' JSON.
		return false;
	}
}

function questionText(args: unknown): string {
	let value: unknown = args;
	if (typeof args === "string") {
		try {
			value = JSON.parse(args);
		} catch {
			// Arguments that are not JSON still name a question the agent meant to ask.
			value = null;
		}
	}
	if (isRecord(value) && Array.isArray(value.questions)) {
		const first = value.questions.find(isRecord);
		if (first && typeof first.question === "string" && first.question.trim() !== "") return first.question.trim();
	}
	return "the agent asked the user a question";
}

function outputText(content: unknown): string | null {
	if (!Array.isArray(content)) return null;
	const text = content
		.filter((part) => isRecord(part) && part.type === "output_text" && typeof part.text === "string")
		.map((part) => (part as { text: string }).text)
		.join("\n");
	return text.trim() === "" ? null : text;
}

/** Input tokens include the cached ones (not spend) and the cache writes (counted as such). */
function spendOf(usage: Record<string, unknown>): TokenSpend {
	const input = count(usage.input_tokens);
	const cached = count(usage.cached_input_tokens);
	const cacheWrite = count(usage.cache_write_input_tokens);
	return { input: Math.max(0, input - cached - cacheWrite), output: count(usage.output_tokens), cacheWrite };
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
