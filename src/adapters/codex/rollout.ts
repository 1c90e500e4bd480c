/**
 * What Codex does not tell a hook, read from the session's rollout (the JSONL
 * at `transcript_path`): the current turn's real token spend, an interrupt,
 * and a question to the user never answered. "The current turn" is boulder's:
 * Codex keeps every Stop-hook continuation inside one `turn_id`, so a turn
 * begins at the last `UserMessage` or `HookPrompt` item, else at the Codex
 * turn's `task_started` (`docs/codex-notes.md`, "The rollout").
 */
import type { TokenSpend } from "../../core/turns.js";
import * as reader from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

const QUESTION_TOOL = "request_user_input";

const STARTING_ITEMS: ReadonlySet<string> = new Set(["UserMessage", "HookPrompt"]);

/** No `activity`: Codex's file edits are counted from PostToolUse (`apply_patch`), not here. */
export interface RolloutTurn extends Omit<reader.TurnFacts, "activity">, reader.TurnEnd {}

/** Contract: rejects only with the `FileProblem` of a file that cannot be opened or read (`reader.readTallied`). */
export async function readRolloutTurn(file: string, options: reader.ReadOptions = {}): Promise<RolloutTurn> {
	return reader.readTallied(file, options, () => new RolloutTally());
}

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseRolloutTurn(lines: readonly Record<string, unknown>[], scan?: reader.ScanEnd): RolloutTurn {
	return reader.tallyRecords(new RolloutTally(), lines, scan);
}

export function isRolloutTurnStart(line: Record<string, unknown>): boolean {
	return startMarkerOf(line) !== null;
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

/** Codex's tally, fed newest first: spend by response id, the newest abort, question and reply. */
class RolloutTally implements reader.Tally<RolloutTurn> {
	private readonly usage = new Map<string, TokenSpend>();
	/** Outputs of tool calls already seen (later lines), by call id. */
	private readonly outputs = new Map<string, string>();
	private interrupt: RolloutTurn["interrupt"] = null;
	private pendingQuestion: string | null = null;
	private lastText: string | null = null;
	private anonymous = 0;
	private oldest: Record<string, unknown> | null = null;

	add(line: Record<string, unknown>): boolean {
		this.oldest = line;
		const payload = line.payload;
		if (!isRecord(payload)) return false;
		const item = line.type === "response_item" ? payload.type : null;
		if (line.type === "token_usage_record") {
			const id = typeof payload.response_id === "string" ? payload.response_id : `line-${this.anonymous++}`;
			if (isRecord(payload.usage)) this.usage.set(id, spendOf(payload.usage));
		} else if (line.type === "event_msg" && payload.type === "turn_aborted") {
			this.interrupt ??= { at: reader.timeOf(line.timestamp) };
		} else if (item === "function_call_output" && typeof payload.call_id === "string") {
			const output = typeof payload.output === "string" ? payload.output : JSON.stringify(payload.output);
			this.outputs.set(payload.call_id, output);
		} else if (item === "function_call" && payload.name === QUESTION_TOOL && typeof payload.call_id === "string") {
			if (!answered(this.outputs.get(payload.call_id))) {
				this.pendingQuestion ??= reader.askedQuestion(parsedArguments(payload.arguments));
			}
		} else if (item === "message" && payload.role === "assistant") {
			this.lastText ??= reader.partsText(payload.content, (part) => part.type === "output_text");
		}
		return isRolloutTurnStart(line);
	}

	reading(scan: reader.ScanEnd): RolloutTurn {
		let spend = reader.noSpend();
		for (const one of this.usage.values()) spend = reader.addSpend(spend, one);
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
 * Whether a `request_user_input` call's output holds the user's answers. A
 * refusal in words (where Codex cannot ask: `codex exec`, a mode without the
 * tool, a subagent) is none: the user never saw the question.
 */
function answered(output: string | undefined): boolean {
	return output !== undefined && isRecord(reader.parseLine(output)?.answers);
}

/** Codex writes a call's arguments as a JSON string; arguments that are not JSON still ask, in generic words. */
function parsedArguments(args: unknown): unknown {
	return typeof args === "string" ? reader.parseLine(args) : args;
}

/** Input tokens include the cached ones (not spend) and the cache writes (counted as such). */
function spendOf(usage: Record<string, unknown>): TokenSpend {
	const input = reader.count(usage.input_tokens);
	const cached = reader.count(usage.cached_input_tokens);
	const cacheWrite = reader.count(usage.cache_write_input_tokens);
	return { input: Math.max(0, input - cached - cacheWrite), output: reader.count(usage.output_tokens), cacheWrite };
}
