/**
 * Copilot CLI's hook events, mapped onto engine calls. Thin on purpose: every
 * decision is the engine's; this file says which engine call an event means,
 * fills in what the harness does not send (spend, edits, an abort, a pending
 * question, from the event log; the todo list, from the session database)
 * and turns the engine's answer into the JSON agentStop reads.
 *
 * Choices, and why:
 * - agentStop's `{"decision":"block","reason"}` makes Copilot enqueue the
 *   reason as the next user message, and fire userPromptSubmitted for it.
 *   Printing the block is the delivery (the continuation turn starts there),
 *   so the echo of boulder's own nudge starts nothing and never counts as a
 *   user turn. Another hook's
 *   block reason, echoed the same way, is a `system` turn: Copilot, not the
 *   user, sent it. Only a prompt the event log does not show as an agentStop
 *   block is the user's.
 * - Subagents: Copilot fires agentStop (and userPromptSubmitted) inside a
 *   subagent too, with its `agentId`; those, and subagentStop, are asked of
 *   the engine as subagents, which are never continued.
 * - The todo list is read from the session database when the agent stops,
 *   not from each `sql` call: one process fewer per tool call, and the
 *   database, not the SQL text, is what the list is.
 * - A stop whose turn the event log does not show fails closed, as in Claude
 *   Code: an abort or a pending question would show only there. Copilot runs
 *   agentStop before it has written the turn to the log, so the stop waits
 *   (bounded) for its own `hook.start` line there and reads the turn that
 *   ends at it; a log that never gets it is an unseen turn.
 * - Copilot delivers at most 8 blocks in a row (its own cap, which nothing
 *   lifts): the chain so far is an idle fact, so the policy does not send a
 *   ninth and says Copilot stopped the agent (`harness-cap`), not boulder.
 *   A chain the log cannot count is an unseen turn, never a free pass. The
 *   user's next prompt starts a fresh chain.
 * - sessionStart with `source: "resume"` carries the resume context (where
 *   the unfinished work stands) as `additionalContext`.
 * - agentStop has no channel for a notice to the user: a limit reached or a
 *   work completed is in `boulder why`, not on screen.
 * - While Copilot's autopilot is on (the event log's mode), agentStop hears of
 *   it (`otherDriver`) and the engine stands down unless `builtInGoals` is
 *   `take-over`; autopilot's own continuation prompt is a `system` turn,
 *   never the user's (`autopilot.ts`).
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import { endTurn } from "../command-hook/stop.js";
import { AWAIT_DEFAULTS, type AwaitOptions } from "../shared/await-record.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import { messageOf, stringField } from "../shared/hook-input.js";
import { AUTOPILOT_DRIVER, isAutopilotPrompt } from "./autopilot.js";
import { HARNESS, type HookInput } from "./hook-input.js";
import { type readTodos, sessionDbOf } from "./todos.js";
import {
	COPILOT_BLOCK_CAP,
	type OwnRecord,
	ownRecordMissingReason,
	type readBlockChain,
	readOwnTurn,
	type readTurn,
	type TurnReading,
	unreadableReason,
	unseenReason,
} from "./transcript.js";

export interface HookDeps {
	engine: Engine;
	readTurn: typeof readTurn;
	readTodos: typeof readTodos;
	readBlockChain: typeof readBlockChain;
	/** Whether Copilot's autopilot is on, from the event log (`autopilot.ts`); absent: never looked for. */
	readAutopilot?: (file: string) => Promise<boolean>;
	/** How long agentStop waits for Copilot to write its turn (tests shorten it). */
	wait?: AwaitOptions;
}

export function sessionRefOf(input: HookInput): SessionRef {
	return {
		harness: HARNESS,
		sessionId: input.sessionId,
		subagent: input.agentId !== null || input.event === "subagentStop",
		agent: input.agentType,
	};
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	const ref = sessionRefOf(input);
	switch (input.event) {
		case "agentStop":
			if (ref.subagent) {
				await deps.engine.onIdle(ref, {});
				return NOTHING;
			}
			return onAgentStop(input, ref, deps);
		case "subagentStop":
			await deps.engine.onIdle(ref, {});
			return NOTHING;
		case "userPromptSubmitted":
			if (!ref.subagent) await onUserPrompt(input, ref, deps);
			return NOTHING;
		case "errorOccurred":
			if (!ref.subagent) await onError(input, ref, deps);
			return NOTHING;
		case "preCompact":
			await deps.engine.sessionEvent(ref, { type: "compaction" });
			return NOTHING;
		case "sessionEnd":
			if (stringField(input, "reason") === "abort") await deps.engine.sessionEvent(ref, { type: "abort" });
			return NOTHING;
		case "sessionStart":
			return onSessionStart(input, ref, deps.engine);
	}
}

/**
 * A resumed session (`--resume`) is told where its unfinished work stands:
 * sessionStart's `additionalContext` (top level, not Claude Code's
 * `hookSpecificOutput`), which Copilot puts first in the conversation it
 * sends, ahead of the history, as a user message of its own. Context, never a
 * turn: the turn is the user's prompt. A new session has nothing to come back to.
 */
async function onSessionStart(input: HookInput, ref: SessionRef, engine: Engine): Promise<HookAnswer> {
	if (stringField(input, "source") !== "resume" || ref.subagent) return NOTHING;
	const context = await engine.resumeContext(ref, "resume");
	return context === null ? NOTHING : { output: { additionalContext: context } };
}

async function onAgentStop(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<HookAnswer> {
	const { engine } = deps;
	const { turn, unseen } = await seeTurn(input, deps);
	if (input.transcriptPath !== null) await noteTodos(input.transcriptPath, ref, deps);
	const facts: IdleFacts & { interruptAt?: number | null } = { lastAssistantText: turn?.lastAssistantText ?? null };
	if (unseen !== null) facts.turnUnseen = unseen;
	if (turn?.abort) facts.interruptAt = turn.abort.at;
	if (turn?.pendingQuestion) facts.pendingInput = { kind: "question", detail: turn.pendingQuestion };
	if (input.transcriptPath !== null && !ref.subagent) {
		try {
			const inRow = await deps.readBlockChain(input.transcriptPath);
			facts.harnessCap = { harness: "Copilot CLI", limit: COPILOT_BLOCK_CAP + 1, inRow, lift: null };
		} catch (error) {
			facts.turnUnseen ??= `its continuations in a row cannot be counted in ${input.transcriptPath} (${messageOf(error)})`;
		}
	}
	if (await autopilotOn(input, ref, deps)) facts.otherDriver = AUTOPILOT_DRIVER;
	const end = {
		outcome: "end" as const,
		...(turn ? { spend: turn.spend, activity: turn.activity, marker: turn.startMarker } : {}),
	};
	return endTurn(engine, ref, end, facts, { deliverNow: false, answer: (result) => answerFor(result, ref, engine) });
}

/**
 * The engine's inject as agentStop's output: a block carries the nudge, and
 * printing it is the delivery; anything else lets the agent stop.
 */
export function answerFor(result: IdleResult, ref: SessionRef, engine: Engine): HookAnswer {
	if (result.kind !== "inject") return NOTHING;
	const { key, text } = result;
	return {
		output: { decision: "block", reason: text },
		written: () => engine.delivered(ref, key),
		failed: (why) => engine.deliveryFailed(ref, key, why),
	};
}

async function onUserPrompt(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<void> {
	const prompt = stringField(input, "prompt") ?? "";
	if (isBoulderPrompt(prompt)) return;
	// Autopilot's own continuation: Copilot's prompt, not the user's (no new episode).
	if (isAutopilotPrompt(prompt)) {
		await deps.engine.turnStarted(ref, "system");
		return;
	}
	const fromStopHook = input.transcriptPath !== null && (await blockedWith(input, input.transcriptPath, prompt, deps));
	await deps.engine.turnStarted(ref, fromStopHook ? "system" : "user");
}

/** How long a prompt that is not boulder's waits for its own line in the log: a prompt does not wait for verify commands. */
const PROMPT_WAIT_MS = 3_000;

/**
 * Whether the event log's current turn ends in an agentStop that was blocked
 * with `prompt` as its reason: Copilot is echoing a stop hook's continuation.
 * An unreadable log is a user's prompt, as it would be without the check.
 */
async function blockedWith(input: HookInput, file: string, prompt: string, deps: HookDeps): Promise<boolean> {
	let reading: TurnReading;
	const own = ownRecordOf(input);
	try {
		// The log is written late here too: the block's hook.end comes before this prompt's own hook.start.
		reading =
			own === null
				? await deps.readTurn(file)
				: await readOwnTurn(file, own, {
						read: deps.readTurn,
						wait: { timeoutMs: PROMPT_WAIT_MS, ...deps.wait },
						// A session's first prompt may come before its log exists: nothing to wait for.
						waitForFile: false,
					});
	} catch {
		// A session's first prompt comes before its event log has a turn: nothing to find, nothing wrong.
		return false;
	}
	return reading.stopBlocks.includes(prompt);
}

async function onError(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<void> {
	if (input.fields.recoverable === true || stringField(input, "errorContext") !== "model_call") return;
	const error = stringField(input, "error") ?? "unknown error";
	if (isContextOverflow(error)) {
		await deps.engine.sessionEvent(ref, { type: "context-overflow" });
		return;
	}
	await deps.engine.sessionEvent(ref, { type: "api-error", message: error });
}

/** Reads the session database's todo list into the engine; a database that cannot be read is logged and left. */
async function noteTodos(transcriptPath: string, ref: SessionRef, deps: HookDeps): Promise<void> {
	const database = sessionDbOf(transcriptPath);
	try {
		const read = await deps.readTodos(database);
		if (read === null) return;
		await deps.engine.todosChanged(ref, read.todos);
		if (read.warnings.length > 0) {
			await deps.engine.recordError(ref, "reading the agent's todos table", new Error(read.warnings.join("; ")));
		}
	} catch (error) {
		await deps.engine.recordError(ref, `reading the agent's list from ${database}`, error);
	}
}

/**
 * The current turn as the event log shows it, or why it cannot be seen: no
 * path, a file that is missing or unreadable, no line that begins the turn,
 * a limit reached. Each means boulder is blind to an abort or a pending
 * question, so the engine hears it and does not nudge.
 */
async function seeTurn(input: HookInput, deps: HookDeps): Promise<{ turn: TurnReading | null; unseen: string | null }> {
	const file = input.transcriptPath;
	if (file === null) return { turn: null, unseen: unreadableReason(null, null) };
	const own = ownRecordOf(input);
	try {
		if (own === null) {
			const turn = await deps.readTurn(file);
			return { turn, unseen: unseenReason(file, turn) };
		}
		const turn = await readOwnTurn(file, own, { read: deps.readTurn, ...(deps.wait ? { wait: deps.wait } : {}) });
		if (!turn.ownRecordSeen) {
			const waited = deps.wait?.timeoutMs ?? AWAIT_DEFAULTS.timeoutMs;
			return { turn: null, unseen: ownRecordMissingReason(file, own, waited) };
		}
		return { turn, unseen: unseenReason(file, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableReason(file, error) };
	}
}

/**
 * The line Copilot writes for this invocation: a `hook.start` of the event
 * whose input has this `timestamp`. An input without one (an older Copilot)
 * cannot be matched: its log is read as it is.
 */
function ownRecordOf(input: HookInput): OwnRecord | null {
	const timestamp = input.fields.timestamp;
	return typeof timestamp === "number" && Number.isFinite(timestamp) ? { hookType: input.event, timestamp } : null;
}

/** Whether autopilot is on in this session; an unreadable log is recorded and counts as off. */
async function autopilotOn(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<boolean> {
	if (input.transcriptPath === null || deps.readAutopilot === undefined) return false;
	try {
		return await deps.readAutopilot(input.transcriptPath);
	} catch (error) {
		await deps.engine.recordError(ref, "reading Copilot's autopilot mode from the event log", error);
		return false;
	}
}
