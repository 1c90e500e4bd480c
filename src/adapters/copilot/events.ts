/**
 * Copilot CLI's hook events: the family's mapping (`command-hook/events.ts`,
 * where the shared choices are explained) under Copilot's camelCase names,
 * with its facts:
 *
 * - agentStop's `{"decision":"block","reason"}` makes Copilot enqueue the
 *   reason as the next user message, and fire userPromptSubmitted for it.
 *   Printing the block is the delivery (the continuation turn starts there),
 *   so the echo of boulder's own nudge starts nothing and never counts as a
 *   user turn. Another hook's block reason, echoed the same way, is a
 *   `system` turn: Copilot, not the user, sent it. Only a prompt the event
 *   log does not show as an agentStop block is the user's.
 * - Subagents: Copilot fires agentStop (and userPromptSubmitted) inside a
 *   subagent too, with its `agentId`; those, and subagentStop, are asked of
 *   the engine as subagents, which are never continued.
 * - The todo list is read from the session database when the agent stops,
 *   not from each `sql` call: one process fewer per tool call, and the
 *   database, not the SQL text, is what the list is.
 * - Copilot runs agentStop before it has written the turn to the event log,
 *   so the stop waits (bounded) for its own `hook.start` line there and reads
 *   the turn that ends at it; a log that never gets it is an unseen turn.
 * - Copilot delivers at most 8 blocks in a row (its own cap, which nothing
 *   lifts): the chain so far is an idle fact, so the policy does not send a
 *   ninth and says Copilot stopped the agent (`harness-cap`), not boulder.
 *   The user's next prompt starts a fresh chain.
 * - sessionStart with `source: "resume"` carries the resume context as a
 *   top-level `additionalContext` (not Claude Code's `hookSpecificOutput`),
 *   which Copilot puts first in the conversation it sends, ahead of the
 *   history, as a user message of its own.
 * - agentStop has no channel for a notice to the user: a limit reached or a
 *   work completed is in `boulder why`, not on screen.
 * - While Copilot's autopilot is on (the event log's mode), agentStop hears of
 *   it (`otherDriver`) and the engine stands down unless `builtInGoals` is
 *   `take-over`; autopilot's own continuation prompt is a `system` turn,
 *   never the user's (`autopilot.ts`).
 */
import path from "node:path";
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import { fileProblemOf } from "../../engine/bounded-read.js";
import type { Engine, IdleResult, SessionRef } from "../../engine/engine.js";
import {
	type EventSpec,
	type Hook,
	handleFamilyHook,
	modelCallFailed,
	noteWarnings,
	on,
	readOwn,
	type Seen,
} from "../command-hook/events.js";
import { AWAIT_DEFAULTS, type AwaitOptions } from "../shared/await-record.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { answerFor as blockAnswer, type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import {
	type CommandHookInput,
	type InputKeys,
	type ParsedCommandHookInput,
	parseCommandHookInput,
	stringField,
} from "../shared/hook-input.js";
import { AUTOPILOT_DRIVER, isAutopilotPrompt } from "./autopilot.js";
import { readTable } from "./session-db.js";
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

/** The harness name boulder's state and log use for Copilot CLI sessions. */
export const HARNESS = "copilot";

/*
 * The JSON Copilot CLI writes on a hook's stdin. Its fields are camelCase
 * (`sessionId`, `transcriptPath`, `stopReason`), except agentStop's
 * Claude-compatible `stop_hook_active`, and the input does not name its
 * event: the event is the command's argument. Inside a subagent every event
 * carries `agentId` (its `sessionId` is then the subagent's own) and
 * `parentAgentId`.
 *
 * Read by the shared reader (`shared/hook-input.ts`) with Copilot's keys:
 * nothing is trusted, reading never throws, and what cannot be used is a
 * `problem` the caller records before letting the agent stop.
 */
export const HOOK_EVENTS = [
	"sessionStart",
	"userPromptSubmitted",
	"agentStop",
	"subagentStop",
	"errorOccurred",
	"preCompact",
	"sessionEnd",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export type HookInput = CommandHookInput<HookEvent>;

/** Copilot's camelCase keys; its input names no event. */
const KEYS: InputKeys = {
	sessionId: "sessionId",
	transcriptPath: "transcriptPath",
	agentId: "agentId",
	agentType: "agentType",
	event: null,
};

export function parseHookInput(text: string, event: string | undefined): ParsedCommandHookInput<HookEvent> {
	return parseCommandHookInput(text, event, HOOK_EVENTS, KEYS);
}

/*
 * Copilot CLI's todo list: the rows of the `todos` table in the session's
 * SQLite database (`session-db.ts`), which the agent writes with its `sql`
 * tool (`id, title, description, status` with status `pending`,
 * `in_progress`, `done` or `blocked`). The database sits beside the event
 * log, in the session's state folder; it is read whole when the agent stops.
 *
 * Contract: as `core/todo-normalize.ts`: nothing throws past `readTodos`'s
 * own read errors, and every row dropped or changed is named in `warnings`.
 */
const TODO_ROWS: TodoShape = { label: "todos", listFields: ["todos"], text: "title", status: "status", id: "id" };

export const SESSION_DB = "session.db";

/** Rows of Copilot's `todos` table (or `{todos: rows}`) as boulder's todos. */
export function normalizeCopilotTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_ROWS);
}

/** The session database of the session whose event log is `transcriptPath`. */
export function sessionDbOf(transcriptPath: string): string {
	return path.join(path.dirname(transcriptPath), SESSION_DB);
}

/**
 * The agent's list as the database holds it now; null when the session has
 * no database yet or no `todos` table (the agent never made a list).
 * Contract: rejects with a `SessionDbProblem` or a `FileProblem` other than a missing file.
 */
export async function readTodos(database: string): Promise<NormalizedTodos | null> {
	try {
		const rows = await readTable(database, "todos");
		return rows === null ? null : normalizeCopilotTodos(rows);
	} catch (error) {
		if (fileProblemOf(error)?.kind === "missing") return null;
		throw error;
	}
}

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

type Input = CommandHookInput;
type Call = Hook<TurnReading, HookDeps>;

/**
 * The engine's inject as agentStop's output: a block carries the nudge,
 * reported delivered once printed; anything else lets the agent stop.
 */
export function answerFor(result: IdleResult, ref: SessionRef, engine: Engine): HookAnswer {
	return result.kind === "inject" ? blockAnswer(result, ref, engine) : NOTHING;
}

/** Who sent a prompt: Copilot echoing a block or running autopilot (`system`), the user, or boulder (no turn). */
async function provenanceOf(call: Call) {
	const { input, ref } = call;
	const prompt = stringField(input, "prompt") ?? "";
	if (ref.subagent || isBoulderPrompt(prompt)) return null;
	// Autopilot's own continuation: Copilot's prompt, not the user's (no new episode).
	if (isAutopilotPrompt(prompt)) return "system";
	const fromStopHook = input.transcriptPath !== null && (await blockedWith(call, input.transcriptPath, prompt));
	return fromStopHook ? "system" : "user";
}

/** How long a prompt that is not boulder's waits for its own line in the log: a prompt does not wait for verify commands. */
const PROMPT_WAIT_MS = 3_000;

/**
 * Whether the event log's current turn ends in an agentStop that was blocked
 * with `prompt` as its reason: Copilot is echoing a stop hook's continuation.
 * An unreadable log is a user's prompt, as it would be without the check.
 */
async function blockedWith(call: Call, file: string, prompt: string): Promise<boolean> {
	try {
		// The log is written late here too: the block's hook.end comes before this prompt's own hook.start.
		// A session's first prompt may come before its log exists: nothing to wait for.
		const wait = { timeoutMs: PROMPT_WAIT_MS, ...call.deps.wait };
		return (await currentTurn(call, file, { wait, waitForFile: false })).stopBlocks.includes(prompt);
	} catch {
		// A session's first prompt comes before its event log has a turn: nothing to find, nothing wrong.
		return false;
	}
}

/** Reads the session database's todo list into the engine; a database that cannot be read is logged and left. */
async function noteTodos({ input, ref, deps }: Call): Promise<void> {
	if (input.transcriptPath === null) return;
	const database = sessionDbOf(input.transcriptPath);
	try {
		const read = await deps.readTodos(database);
		if (read === null) return;
		await deps.engine.todosChanged(ref, read.todos);
		await noteWarnings(deps.engine, ref, "reading the agent's todos table", read.warnings);
	} catch (error) {
		await deps.engine.recordError(ref, `reading the agent's list from ${database}`, error);
	}
}

/**
 * The event log's current turn, up to this invocation's own line: a
 * `hook.start` of the event whose input has this `timestamp`, which Copilot
 * writes late, so the reading waits for it (bounded). An input without one
 * (an older Copilot) cannot be matched: its log is read as it is.
 */
function currentTurn({ input, deps }: Call, file: string, options: { wait?: AwaitOptions; waitForFile?: boolean }) {
	const own = ownRecordOf(input);
	return own === null ? deps.readTurn(file) : readOwnTurn(file, own, { read: deps.readTurn, ...options });
}

function ownRecordOf(input: Input): OwnRecord | null {
	const timestamp = input.fields.timestamp;
	return typeof timestamp === "number" && Number.isFinite(timestamp) ? { hookType: input.event, timestamp } : null;
}

/** The current turn for agentStop, or why it cannot be seen: a log that never gets this stop's own line is unseen. */
async function seeOwnTurn(call: Call): Promise<Seen<TurnReading>> {
	const file = call.input.transcriptPath;
	if (file === null) return { turn: null, unseen: unreadableReason(null, null) };
	const own = ownRecordOf(call.input);
	const { wait } = call.deps;
	try {
		const turn = await currentTurn(call, file, wait ? { wait } : {});
		if (own !== null && !turn.ownRecordSeen) {
			return { turn: null, unseen: ownRecordMissingReason(file, own, wait?.timeoutMs ?? AWAIT_DEFAULTS.timeoutMs) };
		}
		return { turn, unseen: unseenReason(file, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableReason(file, error) };
	}
}

export const COPILOT: EventSpec<TurnReading, HookDeps> = {
	harness: HARNESS,
	title: "Copilot CLI",
	events: {
		sessionStart: on.sessionStart,
		userPromptSubmitted: on.prompt,
		agentStop: (hook) => (hook.ref.subagent ? on.idle(hook) : on.stop(hook)),
		subagentStop: on.idle,
		errorOccurred: async ({ input, ref, deps }) => {
			if (ref.subagent || input.fields.recoverable === true || stringField(input, "errorContext") !== "model_call") {
				return NOTHING;
			}
			const error = stringField(input, "error") ?? "unknown error";
			await modelCallFailed(deps.engine, ref, { all: error, message: error });
			return NOTHING;
		},
		preCompact: on.compaction,
		sessionEnd: async ({ input, ref, deps }) => {
			if (stringField(input, "reason") === "abort") await deps.engine.sessionEvent(ref, { type: "abort" });
			return NOTHING;
		},
	},
	subagentStop: "subagentStop",
	unseenReason,
	unreadableReason,
	view: (turn) => ({ ...turn, interrupt: turn.abort }),
	provenance: provenanceOf,
	sessionStart: {
		context: ["resume"],
		answer: (context) => (context === null ? NOTHING : { output: { additionalContext: context } }),
	},
	stop: {
		see: seeOwnTurn,
		before: noteTodos,
		lastText: (_input, turn) => turn?.lastAssistantText ?? null,
		cap: {
			harness: "Copilot CLI",
			lift: null,
			limit: () => COPILOT_BLOCK_CAP + 1,
			inRow: ({ input, ref, deps }) =>
				input.transcriptPath === null || ref.subagent ? null : deps.readBlockChain(input.transcriptPath),
		},
		driver: async (hook) => {
			const what = "reading Copilot's autopilot mode from the event log";
			return (await readOwn(hook, what, hook.deps.readAutopilot, false)) ? AUTOPILOT_DRIVER : null;
		},
		deliverNow: false,
		answer: answerFor,
	},
};

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export function handleHook(input: HookInput, deps: HookDeps): Promise<HookAnswer> {
	return handleFamilyHook(input, COPILOT, deps);
}
