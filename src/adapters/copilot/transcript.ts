/**
 * What Copilot CLI does not tell a hook, read from the session's event log
 * (`session-state/<id>/events.jsonl`, the `transcriptPath` of agentStop):
 * the real token spend of the current turn, the file edits it made, whether
 * the user aborted it, whether a question to the user is still unanswered,
 * and the agent's last words.
 *
 * "The current turn" is everything after the last `user.message` of the main
 * agent: the user's prompt, or the reason of an agentStop block (ours or
 * another hook's), which Copilot enqueues as a user message. Lines of
 * subagents carry an `agentId` and begin no turn; their model calls are the
 * session's spend all the same. The scan is the family's backwards one
 * (`command-hook/turn-reader.ts`), bounded the same way; Copilot's tally
 * keeps the turn's lines and reads them in file order (`analyseTurn`).
 *
 * Copilot writes the log lazily and does not wait for it before it runs a
 * hook (1.0.102): at agentStop the file may still lack the whole turn, even
 * be missing. What it always writes, in order after the turn's lines, is the
 * invocation's own `hook.start` line, whose `input` is the hook's input
 * (the same `timestamp`). `readOwnTurn` waits for that line (bounded) and
 * reads the turn that ends there; without it the turn is unseen.
 */
import type { TokenSpend } from "../../core/turns.js";
import { FileProblem } from "../../engine/bounded-read.js";
import * as reader from "../command-hook/turn-reader.js";
import { type AwaitOptions, awaitRecord } from "../shared/await-record.js";
import { isRecord } from "../shared/hook-input.js";

/** Tools that change files: work the todo list may not show yet. Shell commands do not count. */
export const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["create", "edit", "apply_patch", "str_replace_editor"]);

/** Tools that wait for the user: a question, or the approval of a plan. */
export const QUESTION_TOOLS: ReadonlySet<string> = new Set(["ask_user", "exit_plan_mode"]);

/**
 * The turn as the event log shows it: spend and `calls` are the main
 * agent's and its subagents', `activity` and `pendingQuestion` (a question
 * tool without a result yet) the main agent's, `lastAssistantText` its last
 * non-empty message, `startMarker` the `id` of the `user.message` line that
 * began the turn.
 */
export interface TurnReading extends Omit<reader.TurnFacts, "interrupt">, reader.ScanEnd {
	/** The user aborted the turn: when (null if the line has no time). */
	abort: { at: number | null } | null;
	/** The reasons of agentStop hooks that blocked (continued the agent) in the turn, oldest first. */
	stopBlocks: string[];
	/** The hook invocation's own `hook.start` line was found (always false when none was asked for). */
	ownRecordSeen: boolean;
}

/** A hook invocation's own line in the log: its `hook.start`, whose `input` carries the hook input's `timestamp`. */
export interface OwnRecord {
	hookType: string;
	timestamp: number;
}

export interface TurnOptions extends reader.ScanOptions {
	/** Read the turn that ends at this invocation's own line; lines after it are not the turn's. */
	own?: OwnRecord;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readTurn(file: string, options: TurnOptions = {}): Promise<TurnReading> {
	return reader.readTally(file, options, new CopilotTally(options.own));
}

/** Copilot's tally: the turn's counts, begun afresh at the invocation's own line (lines after it are not the turn's). */
class CopilotTally implements reader.Tally<TurnReading> {
	private counts = new TurnCounts();
	private ownRecordSeen = false;

	constructor(private readonly own: OwnRecord | undefined) {}

	add(line: Record<string, unknown>): boolean {
		if (this.own && !this.ownRecordSeen && isOwnRecord(line, this.own)) {
			this.ownRecordSeen = true;
			this.counts = new TurnCounts();
		}
		return this.counts.add(line);
	}

	reading(scan: reader.ScanEnd): TurnReading {
		return { ...this.counts.reading(), ...scan, ownRecordSeen: this.ownRecordSeen };
	}
}

function isOwnRecord(line: Record<string, unknown>, own: OwnRecord): boolean {
	if (line.type !== "hook.start" || line.agentId !== undefined) return false;
	const data = isRecord(line.data) ? line.data : {};
	const input = isRecord(data.input) ? data.input : {};
	return data.hookType === own.hookType && input.timestamp === own.timestamp;
}

/**
 * The turn that ends at this invocation's own line, once Copilot has written
 * it: the log is read again (bounded by `wait`) while it does not hold the
 * line, or does not exist yet. The last reading is returned either way;
 * `ownRecordSeen` says whether it is this invocation's turn.
 *
 * Contract: rejects only as `readTurn` does, when no reading succeeded.
 */
export async function readOwnTurn(
	file: string,
	own: OwnRecord,
	options: reader.ScanOptions & { wait?: AwaitOptions; read?: typeof readTurn; waitForFile?: boolean } = {},
): Promise<TurnReading> {
	const read = options.read ?? readTurn;
	const waitForFile = options.waitForFile ?? true;
	const missing = (error: unknown) => waitForFile && error instanceof FileProblem && error.kind === "missing";
	const { reading } = await awaitRecord(
		() => read(file, { ...options, own }),
		(turn) => turn.ownRecordSeen && !turn.partialLastLine,
		missing,
		options.wait,
	);
	return reading;
}

/** A line that begins a turn: a user message of the main agent. */
export function isTurnStart(line: Record<string, unknown>): boolean {
	return line.type === "user.message" && line.agentId === undefined;
}

type TurnCountsReading = Omit<
	TurnReading,
	"foundStart" | "ownRecordSeen" | "partialLastLine" | "skippedLines" | "limit"
>;

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseTurn(lines: readonly Record<string, unknown>[]): TurnCountsReading {
	return reader.tallyRecords(new TurnCounts(), lines);
}

/** What the lines of a turn say, newest first: the main agent's and its subagents' model calls, the main agent's tools, words, blocks and aborts. */
class TurnCounts implements reader.Tally<TurnCountsReading> {
	private spend = reader.noSpend();
	private calls = 0;
	private activity = 0;
	private abort: TurnReading["abort"] = null;
	private lastAssistantText: string | null = null;
	private readonly stopBlocksNewestFirst: string[] = [];
	/** Question calls not completed by a later line, by call id: the newest call's question, and (counted from the end) where its calls began. */
	private readonly open = new Map<string, { question: string; from: number }>();
	/** Call ids a later line completed: older calls of theirs were answered. */
	private readonly completed = new Set<string>();
	private taken = 0;
	private oldest: Record<string, unknown> | null = null;

	add(line: Record<string, unknown>): boolean {
		this.oldest = line;
		const at = this.taken++;
		const data = isRecord(line.data) ? line.data : {};
		const main = line.agentId === undefined;
		switch (line.type) {
			case "session.usage_record":
				if (!isRecord(data.usage)) break;
				this.spend = reader.addSpend(this.spend, spendOf(data.usage));
				this.calls++;
				break;
			case "assistant.message":
				if (main && typeof data.content === "string" && data.content.trim() !== "")
					this.lastAssistantText ??= data.content;
				break;
			case "tool.execution_start":
				if (!main || typeof data.toolName !== "string") break;
				if (ACTIVITY_TOOLS.has(data.toolName)) this.activity++;
				if (QUESTION_TOOLS.has(data.toolName) && typeof data.toolCallId === "string") {
					this.ask(data.toolCallId, questionText(data.toolName, data.arguments), at);
				}
				break;
			case "tool.execution_complete":
				if (typeof data.toolCallId === "string") this.completed.add(data.toolCallId);
				break;
			case "hook.end": {
				const output = isRecord(data.output) ? data.output : null;
				const blocked = data.hookType === "agentStop" && output?.decision === "block";
				if (main && blocked && typeof output.reason === "string") this.stopBlocksNewestFirst.push(output.reason);
				break;
			}
			case "abort":
				if (main) this.abort ??= { at: reader.timeOf(line.timestamp) };
				break;
		}
		return isTurnStart(line);
	}

	reading(): TurnCountsReading {
		let pending: { question: string; from: number } | null = null;
		for (const call of this.open.values()) if (pending === null || call.from < pending.from) pending = call;
		const start = this.oldest && isTurnStart(this.oldest) ? this.oldest : null;
		return {
			spend: this.spend,
			calls: this.calls,
			activity: this.activity,
			abort: this.abort,
			pendingQuestion: pending?.question ?? null,
			stopBlocks: this.stopBlocksNewestFirst.toReversed(),
			lastAssistantText: this.lastAssistantText,
			startMarker: typeof start?.id === "string" ? start.id : null,
		};
	}

	/**
	 * A question call not completed later is open; of the open calls, the one
	 * asked last (where its run of calls began, for a call id asked again) is
	 * the pending question, with the newest call's words.
	 */
	private ask(id: string, question: string, at: number): void {
		if (this.completed.has(id)) return;
		const open = this.open.get(id);
		if (open) open.from = at;
		else this.open.set(id, { question, from: at });
	}
}

/**
 * Copilot ends a turn by itself after this many agentStop blocks in a row
 * (seen on 1.0.102: "Agent stop hook blocked 8 consecutive times; ending
 * turn", with a tool call in every continuation too); a ninth block is not
 * delivered. No setting of the CLI lifts it.
 */
export const COPILOT_BLOCK_CAP = 8;

/**
 * How many agentStop blocks in a row led up to the current turn: the chain
 * of turns each begun by Copilot echoing a block's reason, back to the last
 * turn something else began (the user's prompt). Read backwards like a turn,
 * within the same limits; a chain longer than they allow counts what was read.
 */
export async function readBlockChain(file: string, options: reader.ScanOptions = {}): Promise<number> {
	let blocks = 0;
	let echo: string | null = null;
	const chainStart = (line: Record<string, unknown>): boolean => {
		if (line.agentId !== undefined) return false;
		const data = isRecord(line.data) ? line.data : {};
		if (line.type === "user.message") {
			echo = typeof data.content === "string" ? data.content : "";
			return false;
		}
		if (echo === null) return false;
		if (line.type === "hook.start" || line.type === "hook.end") {
			const output = isRecord(data.output) ? data.output : null;
			if (data.hookType !== "agentStop") return false;
			if (output?.decision === "block" && output.reason === echo) {
				blocks++;
				echo = null;
				return false;
			}
			return line.type === "hook.end";
		}
		return true;
	};
	await reader.scanTurn(file, options, chainStart);
	return blocks;
}

/** The session's event log, as the reasons below name it. */
const EVENT_LOG: reader.TranscriptNames = { file: "event log", field: "transcriptPath" };

/** Why the current turn cannot be seen in this reading, naming the file; null when it can. */
export function unseenReason(
	file: string,
	reading: Pick<TurnReading, "foundStart" | "limit" | "skippedLines">,
): string | null {
	return reader.unseenTurnReason(file, reading, EVENT_LOG);
}

/** Why the turn cannot be seen when the log never held this invocation's own line, naming the file. */
export function ownRecordMissingReason(file: string, own: OwnRecord, waitedMs: number): string {
	const seconds = Math.round(waitedMs / 100) / 10;
	return `Copilot CLI had not written this ${own.hookType} to the event log ${file} after ${seconds} s of waiting (no hook.start line with its timestamp ${own.timestamp}), so the turn it ends cannot be read`;
}

/** Why the event log could not be read at all, naming the file. */
export function unreadableReason(file: string | null, error: unknown): string {
	return reader.unreadableTranscriptReason("Copilot CLI", file, error, EVENT_LOG);
}

function questionText(tool: string, args: unknown): string {
	if (tool === "exit_plan_mode") return "the agent asked the user to approve its plan";
	const question = isRecord(args) ? (args.question ?? args.message) : null;
	return typeof question === "string" && question.trim() !== "" ? question.trim() : reader.GENERIC_QUESTION;
}

/** `inputTokens` counts the whole prompt, cache reads included; those are not spend. */
function spendOf(usage: Record<string, unknown>): TokenSpend {
	return {
		input: Math.max(0, reader.count(usage.inputTokens) - reader.count(usage.cacheReadTokens)),
		output: reader.count(usage.outputTokens),
		cacheWrite: reader.count(usage.cacheWriteTokens),
	};
}
