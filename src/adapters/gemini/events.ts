/**
 * Gemini CLI's hook events, mapped onto engine calls. Thin on purpose: every
 * decision is the engine's; this file only says which engine call an event
 * means, fills in what the harness does not send (spend, whether the turn
 * finished, plan mode: from the transcript) and turns the engine's answer
 * into the JSON Gemini CLI reads.
 *
 * Choices, and why:
 * - BeforeAgent fires for the user's prompts and also for boulder's own
 *   continuation (AfterAgent's `deny` sends its reason as the next prompt,
 *   which goes through BeforeAgent again). Our text begins with the mark of
 *   boulder's nudges (`shared/boulder-prompt.ts`): that turn is a `continuation`, and only any other
 *   prompt is the user's, which starts a new episode. Counting our own
 *   prompt as the user's would reset the budgets on every nudge.
 * - AfterAgent is the idle: the turn ends and the engine decides in one
 *   write. Gemini CLI fires it for a turn the user cancelled or that failed
 *   too, with nothing in the input saying so; the transcript says whether
 *   the turn ended with a finished reply (`transcript.ts`), and a turn it
 *   does not show finished, or a transcript that cannot be read, is never
 *   continued.
 * - Printing `{"decision":"deny"}` is the delivery: recorded as delivered in
 *   the same write as the decision. Gemini CLI may end the turn a deny began
 *   without any model request (after "Potential loop detected" its loop
 *   detector stops every later turn of the prompt, and AfterAgent still
 *   fires): the transcript, written before AfterAgent, then shows no new
 *   turn. That nudge is not counted as delivered and boulder stops denying,
 *   or the two would spin.
 * - AfterTool is installed for `write_todos` only: its input is the whole list.
 *   Gemini CLI runs a subagent's tool hooks with the parent's `session_id`
 *   and `transcript_path`, so a subagent's `write_todos` arrives as if it
 *   were the parent's. The transcript holds only the parent's own calls
 *   (a subagent's are in a file of its own): at AfterAgent the list is the
 *   parent's last `write_todos` there, whatever AfterTool heard in between.
 * - PreCompress is no longer installed: Gemini CLI fires it (`trigger:
 *   "auto"`) before every model request, before it decides whether to
 *   compress, so it says nothing about a compaction. An older install's
 *   registration is answered with nothing and logs nothing.
 * - SessionStart with `source: "resume"` (`--resume`) tells the session where
 *   its unfinished work stands: the engine's resume context as
 *   `hookSpecificOutput.additionalContext`, which Gemini CLI puts before the
 *   prompt (headless) or into the history (interactive), wrapped in
 *   `<hook_context>`. Context, never a turn: the turn is the user's prompt.
 * - Plan mode (the agent called `enter_plan_mode` and has not left it) waits
 *   for the user, who approves the plan.
 * - Gemini CLI has no subagent-stop event and fires no AfterAgent inside a
 *   subagent: every AfterAgent is the main session's.
 */
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import { endTurn } from "../command-hook/stop.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { type HookAnswer, NOTHING, sessionStartContext } from "../shared/hook-answer.js";
import { isRecord } from "../shared/hook-input.js";
import { limitNotice } from "../shared/hook-messages.js";
import { HARNESS, type HookInput, textField } from "./hook-input.js";
import { PLAN_MODE_WAIT } from "./messages.js";
import { normalizeGeminiTodos, TODO_TOOL } from "./todos.js";
import { type TurnReading, unfinishedReason, unreadableReason } from "./transcript.js";

export interface HookDeps {
	engine: Engine;
	readTurn(file: string): Promise<TurnReading>;
}

export function sessionRefOf(input: HookInput): SessionRef {
	return { harness: HARNESS, sessionId: input.sessionId, subagent: false, agent: null };
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	const ref = sessionRefOf(input);
	switch (input.event) {
		case "SessionStart":
			return onSessionStart(input, ref, deps.engine);
		case "BeforeAgent":
			await deps.engine.turnStarted(ref, provenanceOf(textField(input, "prompt") ?? ""));
			return NOTHING;
		case "AfterAgent":
			return onAfterAgent(input, ref, deps);
		case "AfterTool":
			await onToolUsed(input, ref, deps.engine);
			return NOTHING;
		case "PreCompress":
			return NOTHING;
	}
}

/** A resumed session is told where its unfinished work stands; a new or cleared one has nothing to come back to. */
async function onSessionStart(input: HookInput, ref: SessionRef, engine: Engine): Promise<HookAnswer> {
	if (textField(input, "source") !== "resume") return NOTHING;
	return sessionStartContext(await engine.resumeContext(ref, "resume"));
}

/** Our own continuation, echoed back as a prompt, is never the user's turn. */
export function provenanceOf(prompt: string) {
	return isBoulderPrompt(prompt) ? ("continuation" as const) : ("user" as const);
}

async function onAfterAgent(input: HookInput, ref: SessionRef, deps: HookDeps): Promise<HookAnswer> {
	const { turn, unseen } = await seeTurn(input, deps);
	// Its warnings were recorded when AfterTool heard the same call.
	if (turn && turn.todoInput !== null) await deps.engine.todosChanged(ref, normalizeGeminiTodos(turn.todoInput).todos);
	const facts: IdleFacts & { interruptAt?: number | null } = {
		lastAssistantText: turn?.lastAssistantText ?? textField(input, "prompt_response"),
	};
	if (unseen !== null) facts.turnUnseen = unseen;
	if (turn?.interrupt) facts.interruptAt = turn.interrupt.at;
	if (turn?.planMode) facts.pendingInput = { kind: "wait", detail: PLAN_MODE_WAIT };
	// The transcript is written before AfterAgent runs: a turn it does not show made no model request.
	const end = {
		outcome: "end" as const,
		...(turn ? { spend: turn.spend, activity: turn.activity, marker: turn.startMarker, recordedBeforeHook: true } : {}),
	};
	return endTurn(deps.engine, ref, end, facts, { deliverNow: true, answer: answerFor });
}

/** The engine's decision as Gemini CLI's AfterAgent output. */
export function answerFor(result: IdleResult): HookAnswer {
	if (result.kind === "inject") return { output: { decision: "deny", reason: result.text } };
	if (result.kind === "complete") return { output: { systemMessage: result.text } };
	if (result.kind === "skip" && result.notice) return { output: { systemMessage: limitNotice(result.detail) } };
	return NOTHING;
}

/** The turn as the transcript shows it, or why it is not continued (unreadable, or not finished). */
async function seeTurn(input: HookInput, deps: HookDeps): Promise<{ turn: TurnReading | null; unseen: string | null }> {
	if (input.transcriptPath === null) return { turn: null, unseen: unreadableReason(null, null) };
	try {
		const turn = await deps.readTurn(input.transcriptPath);
		return { turn, unseen: unfinishedReason(input.transcriptPath, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableReason(input.transcriptPath, error) };
	}
}

async function onToolUsed(input: HookInput, ref: SessionRef, engine: Engine): Promise<void> {
	if (textField(input, "tool_name") !== TODO_TOOL) return;
	const response = input.fields.tool_response;
	if (isRecord(response) && response.error !== undefined && response.error !== null) {
		await engine.recordError(ref, `${TODO_TOOL} failed; the list is as it was`, new Error(String(response.error)));
		return;
	}
	await noteTodos(input.fields.tool_input, ref, engine);
}

async function noteTodos(toolInput: unknown, ref: SessionRef, engine: Engine): Promise<void> {
	const { todos, warnings } = normalizeGeminiTodos(toolInput);
	await engine.todosChanged(ref, todos);
	if (warnings.length > 0) {
		await engine.recordError(ref, `reading the agent's list from ${TODO_TOOL}`, new Error(warnings.join("; ")));
	}
}
