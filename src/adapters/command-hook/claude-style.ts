/**
 * The Claude Code shape of hook events, mapped onto engine calls: Claude
 * Code's own, and any harness that copied its events, input and answers
 * (Factory Droid). A dialect gives its harness's name, tool names, transcript
 * reader and words (`ClaudeStyleSpec`); Claude Code's is `claude-code/events.ts`.
 *
 * Claude Code's hook events, mapped onto engine calls. Thin on purpose: every
 * decision is the engine's; this file only says which engine call an event
 * means, fills in what the harness does not send (spend, interrupts and
 * pending questions, from the transcript) and turns the engine's answer into
 * the JSON Claude Code reads.
 *
 * Choices, and why:
 * - Every UserPromptSubmit is a real user turn (or an SDK's prompt, which is
 *   the user's too): a Stop continuation fires none. The exceptions are
 *   boulder's own read-only commands (`/boulder:why`, `/boulder:status`):
 *   asking boulder why it stopped must not restart the episode it stopped,
 *   so those are `system` turns that wait for the user. A `source` saying the
 *   harness itself woke the agent (`system`, `loop_wakeup`, `schedule_wakeup`,
 *   `poll_event`: peers, task notifications, `/loop` and scheduled wakeups)
 *   makes a `system` turn too: it neither opens a fresh episode nor lifts an
 *   Esc. So does a `<task-notification>` prompt, which is how 2.1.332 wakes
 *   the parent when a background subagent or shell ends, with no `source`.
 * - SessionStart never starts a turn. `resume` is not a `restart`: Claude Code
 *   reloads the conversation and waits for a prompt, so there is no turn of
 *   the restart to end, and suppressing the first idle would only swallow the
 *   first idle of the user's own next prompt. It does reset the background
 *   count: tasks of an earlier process do not survive it. `compact` is left to
 *   PreCompact, which has already reported the compaction. Both `resume` and
 *   `compact` tell the agent where its unfinished work stands (resume
 *   context: `additionalContext`, not a turn).
 * - Activity (file edits: Edit, MultiEdit, Write, NotebookEdit) is counted
 *   from the transcript when the turn ends, not by a PostToolUse hook on
 *   every tool: one process fewer per tool call. PostToolUse is installed
 *   only for the todo tools.
 * - A Stop for a turn that already ended (a second registration of the hook,
 *   say) ends nothing; the engine's duplicate guard answers it.
 * - A Stop whose turn the transcript does not show (no path, a file that is
 *   missing, not a regular file or unreadable, no line that begins the turn)
 *   fails closed: the engine hears that the turn is unseen and does not
 *   nudge, since an Esc or a pending question shows only there.
 * - StopFailure counts what the failed turn spent, read like Stop's: the
 *   calls before the failing one were paid for.
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { NormalizedTodos } from "../../core/todo-normalize.js";
import type { Todo } from "../../core/todos.js";
import type { Provenance, TokenSpend } from "../../core/turns.js";
import { FileProblem } from "../../engine/bounded-read.js";
import type { Engine, IdleFacts, SessionRef } from "../../engine/engine.js";
import { namedBackgroundTasks, runningBackgroundTasks } from "../shared/background-tasks.js";
import { answerFor, type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, isRecord, stringField } from "../shared/hook-input.js";
import { endTurn } from "./stop.js";
import { subagentNotificationOf } from "./task-notification.js";
import { applyClaudeTaskEvent, normalizeClaudeTodoWrite } from "./todo-write.js";

type HookInput = CommandHookInput;

/** What the event mapping needs of a turn as the harness's transcript shows it. */
export interface ClaudeStyleTurn {
	spend: TokenSpend;
	/** File edits the turn made. */
	activity: number;
	/** The user interrupted the turn (Esc): when. */
	interrupt: { at: number | null } | null;
	/** A question to the user without an answer: its text. */
	pendingQuestion: string | null;
	lastAssistantText: string | null;
	/** The same for every report of this turn's end. */
	startMarker: string | null;
}

/** A harness of the Claude Code shape: what its dialect says differently. */
export interface ClaudeStyleSpec<T extends ClaudeStyleTurn = ClaudeStyleTurn> {
	harness: string;
	tools: {
		/** The whole-list todo tool (`TodoWrite`): its input's `todos`, else its response. */
		todoWrite: string;
		/** Tools that change one item of the list (Claude Code's `TaskCreate`, `TaskUpdate`, …). */
		tasks: readonly string[];
		/** Tools whose result is a subagent's (`Agent`, `Task`): orchestrate mode's verification note rides on it. */
		subagents: readonly string[];
	};
	/** Why a turn the transcript was read for cannot be judged (a limit, no start), or null. */
	unseenReason(file: string, turn: T): string | null;
	/** Why the transcript could not be read (null: no path). */
	unreadableReason(file: string | null, error: unknown): string;
	/** The harness's own goal, as `why` names it (`Claude Code's /goal`), read by `ClaudeStyleDeps.readGoal`. */
	goalName?: string;
	/** The todo tool's list in the harness's own shape (Droid's one string); absent: Claude Code's `{todos: [...]}`. */
	readTodoWrite?(toolInput: unknown, response: unknown): NormalizedTodos;
}

export interface ClaudeStyleDeps<T extends ClaudeStyleTurn = ClaudeStyleTurn> {
	engine: Engine;
	readTurn(file: string, options: { expectLastText: string | null }): Promise<T>;
	/** The condition of a goal of the harness's own active in the transcript, or null; absent: none is looked for. */
	readGoal?(file: string): Promise<string | null>;
}

type Deps = ClaudeStyleDeps & { spec: ClaudeStyleSpec };
type TurnReading = ClaudeStyleTurn;

/** Why boulder waits after the user ran one of its read-only slash commands. */
export function lookingAtBoulder(command: string): string {
	return `the user ran /boulder:${command} to look at boulder itself; waiting for their next message`;
}

/** boulder's own slash commands that only look: they are not a new instruction to the agent. */
const LOOK_COMMAND = /^\s*\/boulder:(why|status)\b/;
const LOOK_COMMAND_EXPANDED = /<command-name>\s*\/boulder:(why|status)\s*<\/command-name>/;

/** `source` values (newer Claude Code) that mean the harness, not a person, started the turn. */
const SYSTEM_SOURCES: ReadonlySet<string> = new Set(["system", "loop_wakeup", "schedule_wakeup", "poll_event"]);

export function sessionRefOf(input: HookInput, harness: string): SessionRef {
	return {
		harness,
		sessionId: input.sessionId,
		subagent: input.agentId !== null || input.event === "SubagentStop",
		agent: input.agentType,
		transcriptPath: input.transcriptPath,
	};
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleClaudeStyleHook<T extends ClaudeStyleTurn>(
	input: HookInput,
	spec: ClaudeStyleSpec<T>,
	given: ClaudeStyleDeps<T>,
): Promise<HookAnswer> {
	const deps = { ...given, spec } as unknown as Deps;
	const ref = sessionRefOf(input, spec.harness);
	switch (input.event) {
		case "Stop":
			return onStop(input, ref, deps);
		case "SubagentStop":
			await deps.engine.onIdle(ref, {});
			// A background subagent has ended: the parent's watcher must stop waiting on it, since a
			// watcher still running holds back the notification that wakes the parent.
			if (input.agentId !== null) {
				await deps.engine.backgroundTaskEnded({ ...ref, subagent: false, agent: null }, input.agentId);
			}
			return NOTHING;
		case "UserPromptSubmit":
			await onUserPrompt(input, ref, deps);
			return onSubagentNotification(input, ref, deps);
		case "PreToolUse":
			return onToolAsked(input, ref, deps);
		case "PostToolUse":
			return onToolUsed(input, ref, deps);
		case "SessionStart":
			return onSessionStart(input, ref, deps);
		case "StopFailure":
			await onStopFailure(input, ref, deps);
			return NOTHING;
		case "PreCompact":
		case "PostCompact":
			await deps.engine.sessionEvent(ref, { type: "compaction" });
			return NOTHING;
		default:
			// An event the dialect reads but this shape has no meaning for.
			return NOTHING;
	}
}

async function onStop(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	const { engine } = deps;
	const lastMessage = stringField(input, "last_assistant_message");
	const { turn, unseen } = await seeTurn(input, ref, deps, lastMessage);
	const facts: IdleFacts & { interruptAt?: number | null } = {
		lastAssistantText: lastMessage ?? turn?.lastAssistantText ?? null,
	};
	if (unseen !== null) facts.turnUnseen = unseen;
	if (turn?.interrupt) facts.interruptAt = turn.interrupt.at;
	const background = runningBackgroundTasks(input.fields.background_tasks);
	if (background !== null) facts.backgroundTasks = background;
	const named = namedBackgroundTasks(input.fields.background_tasks);
	if (named !== null) facts.named = named;
	if (turn?.pendingQuestion) facts.pendingInput = { kind: "question", detail: turn.pendingQuestion };
	const goal = await goalOf(input, ref, deps);
	if (goal !== null) facts.otherDriver = `${deps.spec.goalName ?? "the harness's goal"} "${goal}"`;
	const end = {
		outcome: "end" as const,
		...(turn ? { spend: turn.spend, activity: turn.activity, marker: turn.startMarker } : {}),
	};
	// Printing the block is the delivery: recorded in the same write as the decision.
	return endTurn(engine, ref, end, facts, {
		deliverNow: true,
		answer: (result) => answerFor(result, ref, engine, { delivered: true }),
	});
}

async function onUserPrompt(input: HookInput, ref: SessionRef, deps: Deps): Promise<void> {
	const { engine } = deps;
	await noteInterrupt(ref, await readTurnOf(input, ref, deps, { missingIsNormal: true }), engine);
	const look = lookCommandOf(stringField(input, "prompt") ?? "");
	if (look !== null) {
		await engine.turnStarted(ref, "system");
		await engine.pendingInputChanged(ref, { kind: "wait", detail: lookingAtBoulder(look) });
		return;
	}
	await engine.turnStarted(ref, provenanceOf(stringField(input, "source"), stringField(input, "prompt")));
}

/** `why` or `status` when the prompt is one of boulder's read-only slash commands. */
export function lookCommandOf(prompt: string): string | null {
	return (LOOK_COMMAND.exec(prompt) ?? LOOK_COMMAND_EXPANDED.exec(prompt))?.[1] ?? null;
}

/** The message Claude Code submits as a turn of its own when a background task ends. */
const TASK_NOTIFICATION = /^\s*<task-notification>/;

export function provenanceOf(source: string | null, prompt: string | null = null): Provenance {
	if (source !== null && SYSTEM_SOURCES.has(source)) return "system";
	return prompt !== null && TASK_NOTIFICATION.test(prompt) ? "system" : "user";
}

/**
 * A file change about to run: orchestrate mode may warn about it (context) or
 * refuse it (a deny the model reads); todo hygiene may remind the agent to
 * update its list (context, which reaches the model with the tool's result).
 */
async function onToolAsked(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	const tool = stringField(input, "tool_name");
	if (tool === null || ref.subagent) return NOTHING;
	const toolInput = isRecord(input.fields.tool_input) ? input.fields.tool_input : {};
	const files = [toolInput.file_path, toolInput.notebook_path].filter(
		(file): file is string => typeof file === "string" && file !== "",
	);
	const { verdict, reminder } = await deps.engine.fileChangeAsked(ref, { tool, files });
	if (verdict.kind === "deny") {
		const output = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: verdict.text };
		return { output: { hookSpecificOutput: output } };
	}
	const context = [verdict.kind === "warn" ? verdict.text : null, reminder].filter((text) => text !== null);
	if (context.length === 0) return NOTHING;
	return { output: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: context.join("\n\n") } } };
}

async function onToolUsed(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	const { engine } = deps;
	const tool = stringField(input, "tool_name");
	const toolInput = input.fields.tool_input;
	const { tools } = deps.spec;
	if (tool !== null && tools.subagents.includes(tool)) return onSubagentResult(input, ref, deps);
	if (tool === tools.todoWrite) {
		const response = input.fields.tool_response;
		const source = isRecord(toolInput) && Array.isArray(toolInput.todos) ? toolInput : response;
		const { todos, warnings } = deps.spec.readTodoWrite?.(toolInput, response) ?? normalizeClaudeTodoWrite(source);
		await engine.todosChanged(ref, todos);
		await noteWarnings(engine, ref, tool, warnings);
		return NOTHING;
	}
	if (tool !== null && tools.tasks.includes(tool)) {
		let warnings: string[] = [];
		await engine.todosUpdated(ref, (current: readonly Todo[]) => {
			const next = applyClaudeTaskEvent(current, { tool, input: toolInput, response: input.fields.tool_response });
			warnings = next.warnings;
			return next.todos;
		});
		await noteWarnings(engine, ref, tool, warnings);
	}
	return NOTHING;
}

/**
 * A background subagent's end, brought as a `<task-notification>` turn: in
 * orchestrate mode the verification note rides on it as context (the Agent
 * tool's result was only the launch).
 */
async function onSubagentNotification(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	if (ref.subagent) return NOTHING;
	const notification = subagentNotificationOf(stringField(input, "prompt"));
	if (notification === null || (notification.status !== null && notification.status !== "completed")) return NOTHING;
	const note = await deps.engine.subagentReturned(ref, {
		session: notification.agentId,
		description: notification.description,
	});
	if (note === null) return NOTHING;
	return { output: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: note } } };
}

/**
 * A subagent's result (the Agent tool's `agentId` names its session): in
 * orchestrate mode the verification note rides on it as context, never as a
 * new turn. A subagent launched into the background has not returned yet: its
 * note rides on the `<task-notification>` turn that brings its end.
 */
async function onSubagentResult(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	if (ref.subagent) return NOTHING;
	const response = isRecord(input.fields.tool_response) ? input.fields.tool_response : {};
	if (typeof response.status === "string" && response.status !== "completed") return NOTHING;
	const toolInput = isRecord(input.fields.tool_input) ? input.fields.tool_input : {};
	const description = [toolInput.description, toolInput.prompt].filter((text) => typeof text === "string").join("\n");
	const note = await deps.engine.subagentReturned(ref, {
		session: typeof response.agentId === "string" && response.agentId !== "" ? response.agentId : null,
		description: description === "" ? null : description,
	});
	if (note === null) return NOTHING;
	return { output: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: note } } };
}

/**
 * A resumed or compacted session is told where its unfinished work stands
 * (context on the session's start, never a turn). `startup` and `clear` begin
 * a new conversation: nothing to pick up in it.
 */
async function onSessionStart(input: HookInput, ref: SessionRef, deps: Deps): Promise<HookAnswer> {
	const source = stringField(input, "source");
	if (source !== "compact") {
		await noteInterrupt(ref, await readTurnOf(input, ref, deps, { missingIsNormal: true }), deps.engine);
		await deps.engine.backgroundChanged(ref, 0);
	}
	if ((source !== "resume" && source !== "compact") || ref.subagent) return NOTHING;
	const context = await deps.engine.resumeContext(ref, source);
	if (context === null) return NOTHING;
	return { output: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } } };
}

async function onStopFailure(input: HookInput, ref: SessionRef, deps: Deps): Promise<void> {
	const error = stringField(input, "error") ?? "unknown error";
	const details = input.fields.error_details;
	const shown = stringField(input, "last_assistant_message");
	const all = [error, typeof details === "string" ? details : JSON.stringify(details ?? ""), shown ?? ""].join(" ");
	// The calls that succeeded before the failing one were paid for: the turn's spend counts like Stop's.
	const turn = await readTurnOf(input, ref, deps, { missingIsNormal: false });
	const spend = turn ? { spend: turn.spend } : {};
	if (isContextOverflow(all)) {
		await deps.engine.sessionEvent(ref, { type: "context-overflow", ...spend });
		return;
	}
	await deps.engine.sessionEvent(ref, { type: "api-error", message: shown ? `${error} (${shown})` : error, ...spend });
}

/**
 * Reports an interrupt the transcript shows in the current turn, once: not
 * when the state already holds an abort at least as recent, nor when the
 * state's turn began after it.
 */
async function noteInterrupt(ref: SessionRef, turn: TurnReading | null, engine: Engine): Promise<void> {
	if (turn?.interrupt) await engine.interruptSeen(ref, turn.interrupt.at);
}

/**
 * The current turn as the transcript shows it for a Stop, or why it cannot
 * be seen: no path, a file that does not exist or is not a regular file, a
 * read that failed, no line that begins the turn, a limit reached. Claude
 * Code writes the prompt before the turn ends, so at Stop each of these
 * means boulder is blind to an Esc or a pending question: the engine is
 * told, and does not nudge. A subagent's Stop reads nothing; it owns no
 * continuation.
 */
async function seeTurn(
	input: HookInput,
	ref: SessionRef,
	deps: Deps,
	expectLastText: string | null,
): Promise<{ turn: TurnReading | null; unseen: string | null }> {
	if (ref.subagent) return { turn: null, unseen: null };
	if (input.transcriptPath === null) return { turn: null, unseen: deps.spec.unreadableReason(null, null) };
	try {
		const turn = await deps.readTurn(input.transcriptPath, { expectLastText });
		return { turn, unseen: deps.spec.unseenReason(input.transcriptPath, turn) };
	} catch (error) {
		return { turn: null, unseen: deps.spec.unreadableReason(input.transcriptPath, error) };
	}
}

/** The harness's own goal (Claude Code's `/goal`), active in this session: its condition; null when none is, or it cannot be read (recorded). */
async function goalOf(input: HookInput, ref: SessionRef, deps: Deps): Promise<string | null> {
	if (ref.subagent || input.transcriptPath === null || deps.readGoal === undefined) return null;
	try {
		return await deps.readGoal(input.transcriptPath);
	} catch (error) {
		await deps.engine.recordError(
			ref,
			`reading ${deps.spec.goalName ?? "the harness's goal"} from the transcript`,
			error,
		);
		return null;
	}
}

/**
 * The current turn for events that only note what it shows (an interrupt,
 * the spend of a failed turn); null when it cannot be read, which is
 * recorded unless it is normal: a session's first prompt comes before its
 * transcript exists.
 */
async function readTurnOf(
	input: HookInput,
	ref: SessionRef,
	deps: Deps,
	options: { missingIsNormal: boolean },
): Promise<TurnReading | null> {
	if (input.transcriptPath === null || ref.subagent) return null;
	try {
		return await deps.readTurn(input.transcriptPath, { expectLastText: null });
	} catch (error) {
		const missing = error instanceof FileProblem && error.kind === "missing";
		if (!(missing && options.missingIsNormal)) {
			await deps.engine.recordError(
				ref,
				input.event,
				new Error(deps.spec.unreadableReason(input.transcriptPath, error)),
			);
		}
		return null;
	}
}

async function noteWarnings(engine: Engine, ref: SessionRef, tool: string, warnings: readonly string[]): Promise<void> {
	if (warnings.length === 0) return;
	await engine.recordError(ref, `reading the agent's list from ${tool}`, new Error(warnings.join("; ")));
}
