/**
 * What Copilot CLI does not tell a hook, read from the session's event log
 * (agentStop's `transcriptPath`): the turn's spend, file edits, an abort, an
 * unanswered question, the last words, and the chain of blocks that led to it.
 * The current turn is everything after the main agent's last `user.message`
 * (the user's prompt, or a block's reason Copilot echoed); subagents' lines
 * begin no turn, but their model calls are spend. Copilot writes the log late,
 * so agentStop waits for its own `hook.start` line (`readOwnTurn`; see
 * `docs/copilot-notes.md`, "The event log").
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

/** Spend and `calls` count subagents too; the rest is the main agent's; `startMarker` is the turn's `user.message` id. */
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

/**
 * `own`: the turn ends at this invocation's own line, so the counts begin
 * afresh there (lines after it are not the turn's).
 * Contract: rejects only when the file cannot be opened or read, with a `FileProblem`.
 */
export async function readTurn(file: string, options: reader.ScanOptions & { own?: OwnRecord } = {}) {
	let counts = new TurnCounts();
	let ownRecordSeen = false;
	return reader.readTally<TurnReading>(file, options, {
		add(line) {
			if (options.own && !ownRecordSeen && isOwnRecord(line, options.own)) {
				ownRecordSeen = true;
				counts = new TurnCounts();
			}
			return counts.add(line);
		},
		reading: (scan) => ({ ...counts.reading(), ...scan, ownRecordSeen }),
	});
}

function isOwnRecord(line: Record<string, unknown>, own: OwnRecord): boolean {
	if (line.type !== "hook.start" || line.agentId !== undefined) return false;
	const data = isRecord(line.data) ? line.data : {};
	const input = isRecord(data.input) ? data.input : {};
	return data.hookType === own.hookType && input.timestamp === own.timestamp;
}

/**
 * The turn that ends at this invocation's own line: the log is read again
 * (bounded by `wait`) while it lacks the line or the file; the last reading is
 * returned either way. Contract: rejects as `readTurn` does, when none
 * succeeded.
 */
export async function readOwnTurn(
	file: string,
	own: OwnRecord,
	options: reader.ScanOptions & { wait?: AwaitOptions; read?: typeof readTurn; waitForFile?: boolean } = {},
): Promise<TurnReading> {
	const waitForFile = options.waitForFile ?? true;
	const { reading } = await awaitRecord(
		() => (options.read ?? readTurn)(file, { ...options, own }),
		(turn) => turn.ownRecordSeen && !turn.partialLastLine,
		(error) => waitForFile && error instanceof FileProblem && error.kind === "missing",
		options.wait,
	);
	return reading;
}

export function isTurnStart(line: Record<string, unknown>): boolean {
	return line.type === "user.message" && line.agentId === undefined;
}

type TurnCountsReading = Omit<TurnReading, keyof reader.ScanEnd | "ownRecordSeen">;

/** Pure: what the lines of one turn (file order, the start line first) say. */
export function analyseTurn(lines: readonly Record<string, unknown>[]): TurnCountsReading {
	return reader.tallyRecords(new TurnCounts(), lines);
}

/** What a turn's lines say, taken newest first. */
class TurnCounts implements reader.Tally<TurnCountsReading> {
	private spend = reader.noSpend();
	private calls = 0;
	private activity = 0;
	private abort: TurnReading["abort"] = null;
	private lastAssistantText: string | null = null;
	private readonly stopBlocksNewestFirst: string[] = [];
	/** Question calls no later line completed, by call id: the newest call's words, where its run began (from the end). */
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

	/** Of the open calls, the one asked last (where its run began, for an id asked again) is the pending question. */
	private ask(id: string, question: string, at: number): void {
		if (this.completed.has(id)) return;
		const open = this.open.get(id);
		if (open) open.from = at;
		else this.open.set(id, { question, from: at });
	}
}

/** Copilot ends the turn itself after this many agentStop blocks in a row; nothing lifts it (`docs/copilot-notes.md`). */
export const COPILOT_BLOCK_CAP = 8;

/**
 * How many agentStop blocks in a row led to the current turn: turns each begun
 * by Copilot echoing a block's reason, back to one something else began. Read
 * like a turn, within its limits; a longer chain counts what was read.
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

/** What Copilot's transcript is called, in the words `why` uses. */
export const EVENT_LOG: reader.TranscriptNames = { file: "event log", field: "transcriptPath" };

/** Why the turn cannot be seen when the log never got this invocation's own line. */
export function ownRecordMissingReason(file: string, own: OwnRecord, waitedMs: number): string {
	const seconds = Math.round(waitedMs / 100) / 10;
	return `Copilot CLI had not written this ${own.hookType} to the event log ${file} after ${seconds} s of waiting (no hook.start line with its timestamp ${own.timestamp}), so the turn it ends cannot be read`;
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
