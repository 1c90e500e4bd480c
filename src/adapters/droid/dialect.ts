/**
 * Factory Droid's dialect of the command-hook family (`command-hook/dialect.ts`),
 * as seen on the pinned version (`docs/droid-notes.md`): Claude Code's hook
 * shape (the same input fields, `{"decision":"block","reason":…}`),
 * `FACTORY_PROJECT_DIR`, no continuation cap (boulder's guards are the only
 * bound), and its own facts:
 *
 * - UserPromptSubmit fires for the user's message only (never for a Stop
 *   hook's reason, nor for Droid's own reminders): a real user turn.
 * - TodoWrite's `todos` is a string, one item per line (`1. [in_progress] …`).
 * - The transcript (`~/.factory/sessions/…/<id>.jsonl`) has `message`
 *   records with Anthropic-style blocks; a turn begins at a user message with
 *   text that is no hook record and no Droid reminder (`__internal__…` ids).
 *   It records no token usage, so a Droid turn's spend is not known.
 */

import { type NormalizedTodos, normalizeTodoList } from "../../core/todo-normalize.js";
import type { TodoStatus } from "../../core/todos.js";
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import type { HookRegistration } from "../command-hook/registrations.js";
import { endTurn } from "../command-hook/stop.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { answerFor, type HookAnswer, NOTHING, sessionStartContext } from "../shared/hook-answer.js";
import { type CommandHookInput, isRecord, parseCommandHookInput, stringField } from "../shared/hook-input.js";
import * as scan from "../shared/transcript-scan.js";

export const HARNESS = "droid";
const TITLE = "Factory Droid";
const TODO_TOOL = "TodoWrite";

/** What boulder registers (timeouts in seconds, as Droid reads them): the Stop may run a plan's verify commands. */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: 60 },
	{ event: "UserPromptSubmit", timeout: 60 },
	{ event: "PostToolUse", matcher: TODO_TOOL, timeout: 60 },
	{ event: "Stop", timeout: 900 },
	{ event: "SubagentStop", timeout: 60 },
	{ event: "PreCompact", timeout: 60 },
];
export const EVENTS = REGISTRATIONS.map((registration) => registration.event);
type Input = CommandHookInput;

const STATUSES: Record<string, TodoStatus> = { pending: "pending", in_progress: "in_progress", completed: "completed" };
const LINE = /^(?:\d+[.)]\s*|[-*]\s+)?(?:\[(completed|in_progress|pending|[xX ]?)\]\s*)?(.*)$/;

/**
 * TodoWrite's list as boulder's todos: its `todos` string (one item per
 * line, a status marker in brackets; `[x]` is completed, no marker pending),
 * or a list of `{content, status}` items, which Droid also takes.
 */
export function normalizeDroidTodos(input: unknown): NormalizedTodos {
	const todos = isRecord(input) ? input.todos : input;
	if (typeof todos !== "string") return normalizeTodoList(input, SHAPE);
	const items = todos
		.split("\n")
		.map((line) => LINE.exec(line.trim()))
		.filter((match): match is RegExpExecArray => match !== null && (match[2] ?? "").trim() !== "")
		.map(([, marker = "", content = ""], index) => ({
			id: String(index + 1),
			content: content.trim(),
			status: STATUSES[marker] ?? (marker.toLowerCase() === "x" ? "completed" : "pending"),
		}));
	return normalizeTodoList(items, SHAPE);
}
const SHAPE = { label: TODO_TOOL, listFields: ["todos"], text: "content", status: "status", id: "id" };

export interface DroidTurn extends scan.ScanEnd {
	lastAssistantText: string | null;
	/** Uses of the tools that change files: work the list may not show yet. */
	activity: number;
	pendingQuestion: string | null;
	lagging: boolean;
}

const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["Edit", "Create", "ApplyPatch", "MultiEdit"]);

/** Pure: takes the transcript's records newest first; true at the record that begins the current turn. */
export function droidTally(turn: DroidTurn, answered: Set<string>, line: Record<string, unknown>): boolean {
	if (line.type === "session_start") return true;
	const message = isRecord(line.message) ? line.message : null;
	if (line.type !== "message" || message === null) return false;
	const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
	if (message.role === "assistant") {
		if (turn.lastAssistantText === null) {
			const text = blocks.flatMap((block) => (block.type === "text" ? [String(block.text ?? "")] : [])).join("\n");
			turn.lastAssistantText = text.trim() === "" ? null : text;
		}
		for (const block of blocks.filter((block) => block.type === "tool_use")) {
			if (ACTIVITY_TOOLS.has(String(block.name))) turn.activity++;
			if (block.name === "AskUser" && !answered.has(String(block.id)))
				turn.pendingQuestion ??= "the agent asked the user (AskUser)";
		}
		return false;
	}
	for (const block of blocks) if (block.type === "tool_result") answered.add(String(block.tool_use_id));
	const hidden = typeof line.id === "string" && /^(__internal__|context-)/.test(line.id);
	const text = blocks.some((block) => block.type === "text");
	return message.role === "user" && text && !hidden && message.hookEventName === undefined;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readDroidTurn(file: string): Promise<DroidTurn> {
	const once = async (): Promise<DroidTurn> => {
		const turn = { lastAssistantText: null, activity: 0, pendingQuestion: null, lagging: false } as DroidTurn;
		const answered = new Set<string>();
		let start = false;
		const ended = await scan.scanTurn(
			file,
			{},
			() => start,
			(line) => {
				start = droidTally(turn, answered, line);
			},
		);
		return { ...turn, ...ended, foundStart: start };
	};
	return scan.readSettled(once, {}, file);
}

async function onStop(input: Input, ref: SessionRef, engine: Engine, read: typeof readDroidTurn): Promise<HookAnswer> {
	const facts: IdleFacts = { lastAssistantText: null };
	let turn: DroidTurn | null = null;
	const file = input.transcriptPath;
	try {
		turn = file === null ? null : await read(file);
		facts.turnUnseen =
			turn === null ? scan.unreadableTranscriptReason(TITLE, null, null) : scan.unseenTurnReason(String(file), turn);
	} catch (error) {
		facts.turnUnseen = scan.unreadableTranscriptReason(TITLE, file, error);
	}
	facts.lastAssistantText = turn?.lastAssistantText ?? null;
	if (turn?.pendingQuestion) facts.pendingInput = { kind: "question", detail: turn.pendingQuestion };
	const marker = stringField(input, "message_id");
	const end = { outcome: "end" as const, ...(turn ? { activity: turn.activity, marker } : {}) };
	// No cap: Droid honours every block, so boulder's guards are the only bound.
	const answer = (result: IdleResult) => answerFor(result, ref, engine, { delivered: true });
	return endTurn(engine, ref, end, facts, { deliverNow: true, answer });
}

/** Contract: throws only what the engine throws. */
export async function handleDroidHook(input: Input, engine: Engine, read = readDroidTurn): Promise<HookAnswer> {
	const ref: SessionRef = { harness: HARNESS, sessionId: input.sessionId, subagent: input.event === "SubagentStop" };
	switch (input.event) {
		case "Stop":
			return onStop(input, ref, engine, read);
		case "SubagentStop":
			await engine.onIdle(ref, {});
			return NOTHING;
		case "UserPromptSubmit":
			if (!isBoulderPrompt(stringField(input, "prompt"))) await engine.turnStarted(ref, "user");
			return NOTHING;
		case "PostToolUse": {
			if (stringField(input, "tool_name") !== TODO_TOOL) return NOTHING;
			const { todos, warnings } = normalizeDroidTodos(input.fields.tool_input);
			await engine.todosChanged(ref, todos);
			if (warnings.length > 0) await engine.recordError(ref, `reading ${TODO_TOOL}`, new Error(warnings.join("; ")));
			return NOTHING;
		}
		case "SessionStart": {
			const source = stringField(input, "source");
			if (source !== "resume" && source !== "compact") return NOTHING;
			return sessionStartContext(await engine.resumeContext(ref, source));
		}
		case "PreCompact":
			await engine.sessionEvent(ref, { type: "compaction" });
			return NOTHING;
		default:
			return NOTHING;
	}
}

export const dialect: CommandHookDialect<Input> = {
	harness: HARNESS,
	events: EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: "FACTORY_PROJECT_DIR",
	parse: (text, event) => parseCommandHookInput(text, event, EVENTS),
	handle: (input, engine) => handleDroidHook(input, engine),
	stopEvent: "Stop",
};
