/**
 * The Claude Code shape of hook events (Claude Code's own, and Factory Droid,
 * which copied its events, input and answers): the family's mapping with
 * Claude Code's events; a dialect gives a `ClaudeStyleSpec`. The facts behind
 * these choices are in docs/claude-code-notes.md.
 *
 * Choices, and why:
 * - Every UserPromptSubmit is a user turn (a Stop continuation fires none),
 *   except a `system` one that neither opens an episode nor lifts an Esc: a
 *   `source` saying the harness woke the agent, a `<task-notification>`
 *   prompt, and boulder's read-only `/boulder:why|status`, which must not
 *   restart the episode it explains (that one waits for the user).
 * - SessionStart never starts a turn: `resume` reloads and waits for a prompt
 *   (not a `restart`, whose suppressed first idle would swallow the user's
 *   next one), and resets the background count (an earlier process's tasks
 *   are gone); `compact` is PreCompact's. Both get the resume context.
 * - File edits are counted from the transcript at the turn's end, not by a
 *   PostToolUse per tool (one process fewer per call); PostToolUse is
 *   installed only for the todo tools. A Stop for a turn that already ended
 *   is the engine's duplicate guard's.
 */
import type { NormalizedTodos } from "../../core/todo-normalize.js";
import type { Todo } from "../../core/todos.js";
import type { Provenance } from "../../core/turns.js";
import type { Engine, SessionRef } from "../../engine/engine.js";
import { contextAnswer, type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, isRecord, stringField } from "../shared/hook-input.js";
import {
	type EventSpec,
	type FamilyTurn,
	sessionRefOf as familyRefOf,
	type Hook,
	handleFamilyHook,
	noteInterrupt,
	noteWarnings,
	on,
	readOwn,
} from "./events.js";
import { fileChangeAnswer } from "./file-change.js";
import { subagentNotificationOf } from "./task-notification.js";
import { applyClaudeTaskEvent, normalizeClaudeTodoWrite } from "./todo-write.js";
import type { ScanEnd } from "./turn-reader.js";

type HookInput = CommandHookInput;

/** A turn as the transcript shows it: all the family reads, and how its scan ended. */
export type ClaudeStyleTurn = Required<FamilyTurn> & Pick<ScanEnd, "foundStart" | "limit" | "skippedLines">;

/** A harness of the Claude Code shape: what its dialect says differently. */
export interface ClaudeStyleSpec {
	harness: string;
	/** The harness as people write it, naming it where its transcript cannot be read. */
	title: string;
	tools: {
		/** The whole-list todo tool (`TodoWrite`): its input's `todos`, else its response. */
		todoWrite: string;
		/** Tools that change one item of the list (Claude Code's `TaskCreate`, `TaskUpdate`, …). */
		tasks: readonly string[];
		/** Tools whose result is a subagent's (`Agent`, `Task`): orchestrate mode's verification note rides on it. */
		subagents: readonly string[];
	};
	/** The harness's own goal, as `why` names it (`Claude Code's /goal`), read by `readGoal`. */
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

type Deps = ClaudeStyleDeps;
type Call = Hook<ClaudeStyleTurn, Deps>;

const LOOK_COMMAND = /^\s*\/boulder:(why|status)\b/;
const LOOK_COMMAND_EXPANDED = /<command-name>\s*\/boulder:(why|status)\s*<\/command-name>/;

/** `source` values that mean the harness, not a person, started the turn. */
const SYSTEM_SOURCES: ReadonlySet<string> = new Set(["system", "loop_wakeup", "schedule_wakeup", "poll_event"]);

export function sessionRefOf(input: HookInput, harness: string): SessionRef {
	return familyRefOf(input, harness, "SubagentStop");
}

function familySpecOf(spec: ClaudeStyleSpec): EventSpec<ClaudeStyleTurn, Deps> {
	const goalName = spec.goalName ?? "the harness's goal";
	const { tools } = spec;
	const onToolUsed = async (hook: Call): Promise<HookAnswer> => {
		const { input, ref, deps } = hook;
		const tool = stringField(input, "tool_name");
		if (tool !== null && tools.subagents.includes(tool)) return onSubagentResult(hook);
		if (tool === null || !tools.tasks.includes(tool)) return on.toolUsed(hook);
		const event = { tool, input: input.fields.tool_input, response: input.fields.tool_response };
		let warnings: string[] = [];
		await deps.engine.todosUpdated(ref, (current: readonly Todo[]) => {
			const next = applyClaudeTaskEvent(current, event);
			warnings = next.warnings;
			return next.todos;
		});
		await noteWarnings(deps.engine, ref, `reading the agent's list from ${tool}`, warnings);
		return NOTHING;
	};
	return {
		harness: spec.harness,
		events: {
			Stop: on.stop,
			SubagentStop: async (hook) => {
				const { input, ref, deps } = hook;
				await on.idle(hook);
				// The parent's watcher stops waiting: one still running holds back the notification that wakes the parent.
				if (input.agentId !== null) {
					await deps.engine.backgroundTaskEnded({ ...ref, subagent: false, agent: null }, input.agentId);
				}
				return NOTHING;
			},
			UserPromptSubmit: async (hook) => {
				await onUserPrompt(hook);
				return onSubagentNotification(hook);
			},
			PreToolUse: onToolAsked,
			PostToolUse: onToolUsed,
			SessionStart: on.sessionStart,
			StopFailure: on.failure,
			PreCompact: on.compaction,
			PostCompact: on.compaction,
		},
		subagentStop: "SubagentStop",
		title: spec.title,
		todoTool: {
			name: tools.todoWrite,
			list: (toolInput, response) =>
				spec.readTodoWrite?.(toolInput, response) ??
				normalizeClaudeTodoWrite(isRecord(toolInput) && Array.isArray(toolInput.todos) ? toolInput : response),
		},
		sessionStart: { context: ["resume", "compact"], resetsBackground: true, notesInterrupt: true },
		stop: {
			background: "named",
			driver: async (hook) => {
				const goal = await readOwn(hook, `reading ${goalName} from the transcript`, hook.deps.readGoal, null);
				return goal === null ? null : `${goalName} "${goal}"`;
			},
		},
	};
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleClaudeStyleHook<T extends ClaudeStyleTurn>(
	input: HookInput,
	spec: ClaudeStyleSpec,
	deps: ClaudeStyleDeps<T>,
): Promise<HookAnswer> {
	return handleFamilyHook<ClaudeStyleTurn, Deps>(input, familySpecOf(spec), deps);
}

async function onUserPrompt(hook: Call): Promise<void> {
	const { input, ref, deps } = hook;
	const { engine } = deps;
	await noteInterrupt(hook);
	const look = lookCommandOf(stringField(input, "prompt") ?? "");
	if (look !== null) {
		await engine.turnStarted(ref, "system");
		const detail = `the user ran /boulder:${look} to look at boulder itself; waiting for their next message`;
		await engine.pendingInputChanged(ref, { kind: "wait", detail });
		return;
	}
	await engine.turnStarted(ref, provenanceOf(stringField(input, "source"), stringField(input, "prompt")));
}

/** `why` or `status` when the prompt is one of boulder's read-only slash commands. */
export function lookCommandOf(prompt: string): string | null {
	return (LOOK_COMMAND.exec(prompt) ?? LOOK_COMMAND_EXPANDED.exec(prompt))?.[1] ?? null;
}

const TASK_NOTIFICATION = /^\s*<task-notification>/;

export function provenanceOf(source: string | null, prompt: string | null = null): Provenance {
	if (source !== null && SYSTEM_SOURCES.has(source)) return "system";
	return prompt !== null && TASK_NOTIFICATION.test(prompt) ? "system" : "user";
}

/** A file change about to run (`file-change.ts`). */
function onToolAsked({ input, ref, deps }: Call): Promise<HookAnswer> {
	return fileChangeAnswer(input, ref, (at, change) => deps.engine.fileChangeAsked(at, change));
}

/** A background subagent's end (a `<task-notification>` turn): orchestrate mode's note rides on it as context. */
async function onSubagentNotification({ input, ref, deps }: Call): Promise<HookAnswer> {
	if (ref.subagent) return NOTHING;
	const notification = subagentNotificationOf(stringField(input, "prompt"));
	if (notification === null || (notification.status !== null && notification.status !== "completed")) return NOTHING;
	const note = await deps.engine.subagentReturned(ref, {
		session: notification.agentId,
		description: notification.description,
	});
	return contextAnswer("UserPromptSubmit", note);
}

/** A subagent's result: orchestrate mode's note rides on it as context (a background one's, on its notification). */
async function onSubagentResult({ input, ref, deps }: Call): Promise<HookAnswer> {
	if (ref.subagent) return NOTHING;
	const response = isRecord(input.fields.tool_response) ? input.fields.tool_response : {};
	if (typeof response.status === "string" && response.status !== "completed") return NOTHING;
	const toolInput = isRecord(input.fields.tool_input) ? input.fields.tool_input : {};
	const description = [toolInput.description, toolInput.prompt].filter((text) => typeof text === "string").join("\n");
	const note = await deps.engine.subagentReturned(ref, {
		session: typeof response.agentId === "string" && response.agentId !== "" ? response.agentId : null,
		description: description === "" ? null : description,
	});
	return contextAnswer("PostToolUse", note);
}
