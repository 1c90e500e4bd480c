/**
 * Copilot CLI's hook events: the family's mapping (`command-hook/events.ts`)
 * under Copilot's camelCase names. What Copilot does that shapes it (a block's
 * reason echoed as a prompt, subagents' own agentStop, the late event log, its
 * cap of 8 blocks, the resume context's shape, autopilot) is in
 * `docs/copilot-notes.md`. The todo list is read from the session database
 * when the agent stops, not at each `sql` call: one process fewer per tool
 * call, and the table, not the SQL text, is the list.
 */
import path from "node:path";
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import { fileProblemOf } from "../../engine/bounded-read.js";
import type { Engine } from "../../engine/engine.js";
import {
	type EventSpec,
	type Hook,
	hookHandler,
	modelCallFailed,
	noteWarnings,
	on,
	readOwn,
	type Seen,
	seeTurn,
} from "../command-hook/events.js";
import { AWAIT_DEFAULTS, type AwaitOptions } from "../shared/await-record.js";
import { isBoulderPrompt } from "../shared/boulder-prompt.js";
import { NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, hookInputParser, type InputKeys, stringField } from "../shared/hook-input.js";
import { AUTOPILOT_DRIVER, isAutopilotPrompt } from "./autopilot.js";
import { readTable } from "./session-db.js";
import {
	COPILOT_BLOCK_CAP,
	EVENT_LOG,
	type OwnRecord,
	ownRecordMissingReason,
	type readBlockChain,
	readOwnTurn,
	type readTurn,
	type TurnReading,
} from "./transcript.js";

/** The harness name boulder's state and log use for Copilot CLI sessions. */
export const HARNESS = "copilot";

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

/** Copilot's camelCase keys; its input names no event (the event is the command's argument). */
const KEYS: InputKeys = {
	sessionId: "sessionId",
	transcriptPath: "transcriptPath",
	agentId: "agentId",
	agentType: "agentType",
	event: null,
};

export const parseHookInput = hookInputParser(HOOK_EVENTS, KEYS);

const TODO_ROWS: TodoShape = { label: "todos", listFields: ["todos"], text: "title", status: "status", id: "id" };

/** Rows of Copilot's `todos` table (or `{todos: rows}`) as boulder's todos; a row dropped or changed is a warning. */
export const normalizeCopilotTodos = (input: unknown): NormalizedTodos => normalizeTodoList(input, TODO_ROWS);

/**
 * The agent's list as the database holds it now; null: no database or table yet.
 * Contract: rejects with a `SessionDbProblem`, or a `FileProblem` not `missing`.
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

type Call = Hook<TurnReading, HookDeps>;

/** Who sent a prompt: Copilot echoing a block or running autopilot (`system`), the user, or boulder (no turn). */
async function provenanceOf(call: Call) {
	const { input, ref } = call;
	const prompt = stringField(input, "prompt") ?? "";
	if (ref.subagent || isBoulderPrompt(prompt)) return null;
	if (isAutopilotPrompt(prompt)) return "system";
	const fromStopHook = input.transcriptPath !== null && (await blockedWith(call, input.transcriptPath, prompt));
	return fromStopHook ? "system" : "user";
}

/** How long a prompt not boulder's waits for its own line in the log: a prompt runs no verify commands. */
const PROMPT_WAIT_MS = 3_000;

/**
 * Whether the log's current turn ends in an agentStop blocked with `prompt` as
 * its reason (Copilot echoing a stop hook's continuation). The block's hook.end
 * comes before this prompt's own hook.start, which is waited for, but not for a
 * log that does not exist yet (a session's first prompt). Unreadable: the user's.
 */
async function blockedWith(call: Call, file: string, prompt: string): Promise<boolean> {
	try {
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
	const database = path.join(path.dirname(input.transcriptPath), "session.db");
	try {
		const read = await deps.readTodos(database);
		if (read === null) return;
		await deps.engine.todosChanged(ref, read.todos);
		await noteWarnings(deps.engine, ref, "reading the agent's todos table", read.warnings);
	} catch (error) {
		await deps.engine.recordError(ref, `reading the agent's list from ${database}`, error);
	}
}

/** The log's current turn up to this invocation's own line, waited for; without a `timestamp`, the log as it is. */
function currentTurn({ input, deps }: Call, file: string, options: { wait?: AwaitOptions; waitForFile?: boolean }) {
	const own = ownRecordOf(input);
	return own === null ? deps.readTurn(file) : readOwnTurn(file, own, { read: deps.readTurn, ...options });
}

function ownRecordOf(input: CommandHookInput): OwnRecord | null {
	const timestamp = input.fields.timestamp;
	return typeof timestamp === "number" && Number.isFinite(timestamp) ? { hookType: input.event, timestamp } : null;
}

/** The current turn for agentStop, or why it cannot be seen: a log that never gets this stop's own line is unseen. */
async function seeOwnTurn(call: Call): Promise<Seen<TurnReading>> {
	const { wait } = call.deps;
	const seen = await seeTurn(call, undefined, (file) => currentTurn(call, file, wait ? { wait } : {}));
	const file = call.input.transcriptPath;
	const own = ownRecordOf(call.input);
	if (file === null || own === null || seen.turn?.ownRecordSeen !== false) return seen;
	return { turn: null, unseen: ownRecordMissingReason(file, own, wait?.timeoutMs ?? AWAIT_DEFAULTS.timeoutMs) };
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
	transcript: EVENT_LOG,
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
		answer: { notices: false },
	},
};

export const handleHook = hookHandler(COPILOT);
