/**
 * The family's event mapping, once for every command-hook harness: a harness
 * states an `EventSpec` (its event names → the family's meanings in `on` or
 * its own handlers, its todo tool, its turn view, its Stop's extras, its
 * answers); every decision is the engine's.
 *
 * Choices every harness shares, and why:
 * - The Stop ends the turn and asks the engine in one write; printing the
 *   block is the delivery by default. A turn the transcript does not show
 *   fails closed (unseen: no nudge), since an interrupt or a pending question
 *   shows only there. A subagent's Stop reads nothing: it owns no continuation.
 * - A harness's continuation cap is an idle fact (`harnessCap`), so the policy
 *   never decides a nudge the harness would override; a chain that cannot be
 *   counted is an unseen turn, never a free pass. Another driver of the
 *   session (goal mode, autopilot) is an idle fact too; unreadable: none.
 * - A todo tool whose result is the whole list replaces the list; every item
 *   the reading dropped or changed is recorded.
 * - A resumed or compacted session is told where its work stands: context, never a turn.
 * - A failed model call is a context overflow or an API error, with what the
 *   failed turn spent: the calls before the failing one were paid for.
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { NormalizedTodos } from "../../core/todo-normalize.js";
import type { Provenance, TokenSpend } from "../../core/turns.js";
import { FileProblem } from "../../engine/bounded-read.js";
import type { Engine, IdleFacts, IdleResult, SessionRef } from "../../engine/engine.js";
import { namedBackgroundTasks, runningBackgroundTasks } from "../shared/background-tasks.js";
import { type AnswerOptions, answerFor, contextAnswer, type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, messageOf, stringField } from "../shared/hook-input.js";
import {
	type ScanEnd,
	type ScanOptions,
	type TranscriptNames,
	unreadableTranscriptReason,
	unseenTurnReason,
} from "./turn-reader.js";

/** The events Codex CLI and Qwen Code copied from Claude Code, in its order. */
export const CLAUDE_CODE_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SubagentStop"] as const;

/** The input's copy of the turn's last reply (Claude Code's name, which others copied). */
export const LAST_MESSAGE = "last_assistant_message";

/** What the family reads of a turn, whatever the harness's reader calls it. */
export interface FamilyTurn {
	spend: TokenSpend;
	/** File edits the turn made; absent where they are counted as they happen (Codex). */
	activity?: number;
	interrupt?: { at: number | null } | null;
	pendingQuestion?: string | null;
	lastAssistantText: string | null;
	startMarker: string | null;
}

export interface TurnReadOptions extends ScanOptions {
	expectLastText?: string | null;
	/** Count the harness's continuations up to its cap (Qwen Code's transcript). */
	countUpTo?: number;
}

export interface EventDeps<T> {
	engine: Engine;
	readTurn(file: string, options: TurnReadOptions): Promise<T>;
}

export interface Hook<T, D extends EventDeps<T> = EventDeps<T>> {
	input: CommandHookInput;
	ref: SessionRef;
	deps: D;
	spec: EventSpec<T, D>;
}

/** One event's meaning. Contract: throws only what the engine throws. */
export type Handler<T, D extends EventDeps<T>> = (hook: Hook<T, D>) => Promise<HookAnswer>;
type Meaning = <T, D extends EventDeps<T>>(hook: Hook<T, D>) => Promise<HookAnswer>;

export interface Seen<T> {
	turn: T | null;
	unseen: string | null;
}

/** The harness's continuation cap, as data: the policy reads it as `HarnessCap`. */
export interface CapSpec<T, D extends EventDeps<T>> {
	/** The harness as `why` names it, and where the user raises the cap (null: nothing does). */
	harness: string;
	lift: string | null;
	/** The blocks in a row it honours plus the one it overrides; read before the turn, which may count up to it. */
	limit(deps: D): number | Promise<number>;
	/** How many it has honoured in a row; null: unknown, no cap stated. Rejects: the turn is unseen. */
	inRow(hook: Hook<T, D>, turn: T | null): number | null | Promise<number | null>;
}

export interface StopSpec<T, D extends EventDeps<T>> {
	/** Reads the turn; default `seeTurn`, the transcript at the input's path. */
	see?(hook: Hook<T, D>): Promise<Seen<T>>;
	/** What the Stop notes first from the turn it read (Gemini CLI's and Copilot CLI's todo lists). */
	before?(hook: Hook<T, D>, turn: T | null): Promise<void>;
	/** The last reply's text; default the input's `last_assistant_message`, else the turn's. */
	lastText?(input: CommandHookInput, turn: FamilyTurn | null): string | null;
	/** The input's `background_tasks`: their count, or their names too. */
	background?: "count" | "named";
	/** Why boulder waits for the user when no question is pending (plan mode); null: it does not. */
	waitsFor?(input: CommandHookInput, turn: T | null): string | null;
	cap?: CapSpec<T, D>;
	/** Another driver of the session, as `why` names it; null: none. */
	driver?(hook: Hook<T, D>): Promise<string | null>;
	/** The transcript is written before the hook runs (Gemini CLI): a turn it does not show made no request. */
	recordedBeforeHook?: true;
	/** False: the answer reports the delivery once written (Copilot CLI). Default: printing it is the delivery. */
	deliverNow?: boolean;
	/** The decision in the harness's words, where they are not Claude Code's (`answerFor`). */
	answer?: Omit<AnswerOptions, "delivered">;
}

export interface TodoToolSpec {
	name: string;
	/** The whole list the call left, from its input and response. */
	list(toolInput: unknown, toolResponse: unknown): NormalizedTodos;
	/** What the list is called in the record of a bad reading (default `list`). */
	noun?: string;
	/** The error a failed call's response carries (the list is as it was); undefined: it did not fail. */
	failure?(toolResponse: unknown): unknown;
}

export interface SessionStartSpec {
	/** The sources that get the resume context. */
	context: readonly ("resume" | "compact")[];
	/** A `compact` start is the compaction's only report (Codex). */
	compaction?: boolean;
	/** Any other source is a new process: tasks of an earlier one do not survive it. */
	resetsBackground?: boolean;
	/** Any other source: an interrupt the transcript shows is noted. */
	notesInterrupt?: boolean;
	/** The context in the harness's shape; default Claude Code's (`contextAnswer`). */
	answer?(context: string | null): HookAnswer;
}

interface SpecFields<T, D extends EventDeps<T>> {
	harness: string;
	/** The harness as people write it ("Qwen Code"), as the reasons a transcript is not read name it. */
	title: string;
	events: Readonly<Record<string, Handler<T, D>>>;
	/** The event that ends a subagent (a subagent's even without `agentId`); null: no subagent fields (Gemini CLI). */
	subagentStop: string | null;
	/** The session an input concerns, where the dialect says more than `sessionRefOf`. */
	refOf?(input: CommandHookInput): SessionRef;
	/** What the harness calls its transcript and the input field naming it, where not Claude Code's words. */
	transcript?: TranscriptNames;
	/** Who started the turn a prompt announces; null: none (boulder's own nudge echoed back). Default: the user. */
	provenance?(hook: Hook<T, D>): Provenance | null | Promise<Provenance | null>;
	todoTool?: TodoToolSpec;
	/** Tools whose use is a file edit, counted when used (Codex: code-mode scripts hide them from the rollout). */
	editTools?: readonly string[];
	sessionStart?: SessionStartSpec;
	stop?: StopSpec<T, D>;
	/** A StopFailure's spend: whether a missing transcript is normal, whether a subagent's is read. */
	failure?: { missingIsNormal: boolean; inSubagents: boolean };
}

/**
 * A turn with the family's names needs no `view`; `unseenReason` (why a turn
 * read cannot be judged, or null) defaults to the family scan's.
 */
export type EventSpec<T, D extends EventDeps<T> = EventDeps<T>> = SpecFields<T, D> &
	(T extends FamilyTurn ? { view?(turn: T): FamilyTurn } : { view(turn: T): FamilyTurn }) &
	(T extends Scanned ? { unseenReason?: Unseen<T> } : { unseenReason: Unseen<T> });
type Scanned = Pick<ScanEnd, "foundStart" | "limit" | "skippedLines">;
type Unseen<T> = (file: string, turn: T) => string | null;

function unseenOf<T>(spec: { unseenReason?: Unseen<T>; transcript?: TranscriptNames }, file: string, turn: T) {
	return spec.unseenReason ? spec.unseenReason(file, turn) : unseenTurnReason(file, turn as Scanned, spec.transcript);
}

function unreadableOf(spec: { title: string; transcript?: TranscriptNames }, file: string | null, error: unknown) {
	return unreadableTranscriptReason(spec.title, file, error, spec.transcript);
}

export function sessionRefOf(input: CommandHookInput, harness: string, subagentStop: string | null): SessionRef {
	const { sessionId, agentId, agentType, transcriptPath } = input;
	const seen = { transcriptPath, promptId: stringField(input, "prompt_id") };
	if (subagentStop === null) return { harness, sessionId, subagent: false, agent: null, ...seen };
	return { harness, sessionId, subagent: agentId !== null || input.event === subagentStop, agent: agentType, ...seen };
}

/** Contract: throws only what the engine throws; the caller records it and lets the agent stop. */
export async function handleFamilyHook<T, D extends EventDeps<T>>(
	input: CommandHookInput,
	spec: EventSpec<T, D>,
	deps: D,
): Promise<HookAnswer> {
	const handler = spec.events[input.event];
	if (handler === undefined) return NOTHING;
	const ref = spec.refOf?.(input) ?? sessionRefOf(input, spec.harness, spec.subagentStop);
	return handler({ input, ref, deps, spec });
}

/** A harness's `handleFamilyHook` for its spec. Contract: as `handleFamilyHook`. */
export function hookHandler<T, D extends EventDeps<T>>(spec: EventSpec<T, D>) {
	return (input: CommandHookInput, deps: D) => handleFamilyHook(input, spec, deps);
}

function viewOf<T>(spec: { view?(turn: T): FamilyTurn }, turn: T | null): FamilyTurn | null {
	if (turn === null) return null;
	return spec.view ? spec.view(turn) : (turn as FamilyTurn);
}

const stop: Meaning = async (hook) => {
	const { input, ref, deps, spec } = hook;
	const how = spec.stop ?? {};
	const limit = how.cap ? await how.cap.limit(deps) : undefined;
	const { turn, unseen } = await (how.see?.(hook) ?? seeTurn(hook, limit));
	await how.before?.(hook, turn);
	const seen = viewOf(spec, turn);
	const lastText = how.lastText?.(input, seen);
	const facts: IdleFacts & { interruptAt?: number | null } = {
		lastAssistantText:
			lastText !== undefined ? lastText : (stringField(input, LAST_MESSAGE) ?? seen?.lastAssistantText ?? null),
	};
	if (unseen !== null) facts.turnUnseen = unseen;
	if (seen?.interrupt) facts.interruptAt = seen.interrupt.at;
	const running = how.background ? runningBackgroundTasks(input.fields.background_tasks) : null;
	if (running !== null) facts.backgroundTasks = running;
	const named = how.background === "named" ? namedBackgroundTasks(input.fields.background_tasks) : null;
	if (named !== null) facts.named = named;
	const wait = seen?.pendingQuestion ? null : (how.waitsFor?.(input, turn) ?? null);
	if (seen?.pendingQuestion) facts.pendingInput = { kind: "question", detail: seen.pendingQuestion };
	else if (wait !== null) facts.pendingInput = { kind: "wait", detail: wait };
	if (how.cap && limit !== undefined) {
		try {
			const inRow = await how.cap.inRow(hook, turn);
			if (inRow !== null) facts.harnessCap = { harness: how.cap.harness, limit, inRow, lift: how.cap.lift };
		} catch (error) {
			facts.turnUnseen ??= `its continuations in a row cannot be counted in ${input.transcriptPath} (${messageOf(error)})`;
		}
	}
	const driver = (await how.driver?.(hook)) ?? null;
	if (driver !== null) facts.otherDriver = driver;
	const end = { outcome: "end" as const, ...(seen ? endOf(seen, how.recordedBeforeHook) : {}) };
	const { engine } = deps;
	const deliverNow = how.deliverNow ?? true;
	const answer = (result: IdleResult) => answerFor(result, ref, engine, { delivered: deliverNow, ...how.answer });
	return endTurn(engine, ref, end, facts, { deliverNow, answer });
};

export type TurnEnd = Parameters<Engine["turnEndedAndIdle"]>[1];

/**
 * The idle facts (the cap among them) into the engine's decision, and that into the answer;
 * `deliverNow`: printing the block is the delivery. Contract: throws only what the engine throws.
 */
export async function endTurn(
	engine: Engine,
	ref: SessionRef,
	end: TurnEnd,
	facts: IdleFacts,
	options: { deliverNow: boolean; answer(result: IdleResult): HookAnswer },
): Promise<HookAnswer> {
	const result = await engine.turnEndedAndIdle(ref, end, facts, options.deliverNow ? { deliverNow: true } : {});
	return options.answer(result);
}

function endOf(turn: FamilyTurn, recordedBeforeHook: true | undefined) {
	return {
		spend: turn.spend,
		...(turn.activity === undefined ? {} : { activity: turn.activity }),
		marker: turn.startMarker,
		...(recordedBeforeHook ? { recordedBeforeHook } : {}),
	};
}

/** The current turn as the transcript (or the dialect's `read`) shows it for a Stop, or why it cannot be seen. */
export async function seeTurn<T, D extends EventDeps<T>>(
	{ input, ref, deps, spec }: Hook<T, D>,
	countUpTo?: number,
	read?: (file: string) => Promise<T>,
): Promise<Seen<T>> {
	if (ref.subagent) return { turn: null, unseen: null };
	const file = input.transcriptPath;
	if (file === null) return { turn: null, unseen: unreadableOf(spec, null, null) };
	try {
		const expectLastText = stringField(input, LAST_MESSAGE);
		const options = countUpTo === undefined ? { expectLastText } : { expectLastText, countUpTo };
		const turn = await (read ? read(file) : deps.readTurn(file, options));
		return { turn, unseen: unseenOf(spec, file, turn) };
	} catch (error) {
		return { turn: null, unseen: unreadableOf(spec, file, error) };
	}
}

/**
 * The turn for events that only note what it shows (an interrupt, a failed
 * turn's spend); null when unreadable, recorded unless normal (a first prompt
 * comes before its transcript exists).
 */
export async function readTurnOf<T, D extends EventDeps<T>>(
	{ input, ref, deps, spec }: Hook<T, D>,
	options: { missingIsNormal: boolean; inSubagents?: boolean },
): Promise<FamilyTurn | null> {
	if (input.transcriptPath === null || (ref.subagent && !options.inSubagents)) return null;
	try {
		return viewOf(spec, await deps.readTurn(input.transcriptPath, { expectLastText: null }));
	} catch (error) {
		const missing = error instanceof FileProblem && error.kind === "missing";
		if (!(missing && options.missingIsNormal)) {
			await deps.engine.recordError(ref, input.event, new Error(unreadableOf(spec, input.transcriptPath, error)));
		}
		return null;
	}
}

/** Reports an interrupt the transcript shows in the current turn (the engine keeps it to once). */
export async function noteInterrupt<T, D extends EventDeps<T>>(hook: Hook<T, D>): Promise<void> {
	const turn = await readTurnOf(hook, { missingIsNormal: true });
	if (turn?.interrupt) await hook.deps.engine.interruptSeen(hook.ref, turn.interrupt.at);
}

/** Something of the harness's own in the transcript (its goal, its autopilot); `none` where unread (recorded). */
export async function readOwn<R>(
	{ input, ref, deps }: Pick<Hook<unknown>, "input" | "ref" | "deps">,
	what: string,
	read: ((file: string) => Promise<R>) | undefined,
	none: R,
): Promise<R> {
	if (ref.subagent || input.transcriptPath === null || read === undefined) return none;
	try {
		return await read(input.transcriptPath);
	} catch (error) {
		await deps.engine.recordError(ref, what, error);
		return none;
	}
}

/** A failed model call: a context overflow when `all` (what the harness said of it) says so, else an API error. */
export async function modelCallFailed(
	engine: Engine,
	ref: SessionRef,
	failure: { all: string; message: string; spend?: TokenSpend },
): Promise<void> {
	const spend = failure.spend ? { spend: failure.spend } : {};
	if (isContextOverflow(failure.all)) await engine.sessionEvent(ref, { type: "context-overflow", ...spend });
	else await engine.sessionEvent(ref, { type: "api-error", message: failure.message, ...spend });
}

export async function noteWarnings(engine: Engine, ref: SessionRef, where: string, warnings: readonly string[]) {
	if (warnings.length > 0) await engine.recordError(ref, where, new Error(warnings.join("; ")));
}

/** Claude Code's StopFailure (Qwen Code copied it): `error`, `error_details` and the reply shown. */
const failure: Meaning = async (hook) => {
	const { input, ref, deps, spec } = hook;
	const error = stringField(input, "error") ?? "unknown error";
	const details = input.fields.error_details;
	const shown = stringField(input, LAST_MESSAGE);
	const all = [error, typeof details === "string" ? details : JSON.stringify(details ?? ""), shown ?? ""].join(" ");
	const turn = await readTurnOf(hook, spec.failure ?? { missingIsNormal: false });
	const message = shown ? `${error} (${shown})` : error;
	await modelCallFailed(deps.engine, ref, { all, message, ...(turn ? { spend: turn.spend } : {}) });
	return NOTHING;
};

const sessionStart: Meaning = async (hook) => {
	const { input, ref, deps, spec } = hook;
	const how = spec.sessionStart ?? { context: [] };
	const source = stringField(input, "source");
	if (source === "compact") {
		if (how.compaction) await deps.engine.sessionEvent(ref, { type: "compaction" });
	} else {
		if (how.notesInterrupt) await noteInterrupt(hook);
		if (how.resetsBackground) await deps.engine.backgroundChanged(ref, 0);
	}
	const resumed = how.context.find((wanted) => wanted === source);
	if (resumed === undefined || ref.subagent) return NOTHING;
	const context = await deps.engine.resumeContext(ref, resumed);
	return how.answer ? how.answer(context) : contextAnswer("SessionStart", context);
};

const toolUsed: Meaning = async ({ input, ref, deps: { engine }, spec }) => {
	const tool = stringField(input, "tool_name");
	const todo = spec.todoTool;
	if (tool !== null && spec.editTools?.includes(tool)) await engine.activity(ref);
	if (tool === null || todo === undefined || tool !== todo.name) return NOTHING;
	const failed = todo.failure?.(input.fields.tool_response);
	if (failed !== undefined) {
		await engine.recordError(ref, `${tool} failed; the list is as it was`, new Error(String(failed)));
		return NOTHING;
	}
	const { todos, warnings } = todo.list(input.fields.tool_input, input.fields.tool_response);
	await engine.todosChanged(ref, todos);
	await noteWarnings(engine, ref, `reading the agent's ${todo.noun ?? "list"} from ${tool}`, warnings);
	return NOTHING;
};

/** The family's meanings, for a spec's `events` table. */
export const on = {
	stop,
	/** A subagent is idle: never continued. */
	idle: (async ({ ref, deps }) => {
		await deps.engine.onIdle(ref, {});
		return NOTHING;
	}) satisfies Meaning,
	prompt: (async (hook) => {
		const provenance = hook.spec.provenance ? await hook.spec.provenance(hook) : "user";
		if (provenance !== null) await hook.deps.engine.turnStarted(hook.ref, provenance);
		return NOTHING;
	}) satisfies Meaning,
	toolUsed,
	sessionStart,
	failure,
	compaction: (async ({ ref, deps }) => {
		await deps.engine.sessionEvent(ref, { type: "compaction" });
		return NOTHING;
	}) satisfies Meaning,
	/** Answered with nothing (an event an older install still registers). */
	nothing: (async () => NOTHING) satisfies Meaning,
};

/** What Claude Code's events mean, where Codex CLI and Qwen Code copied them. */
export const claudeCodeMeanings = {
	SessionStart: on.sessionStart,
	UserPromptSubmit: on.prompt,
	PostToolUse: on.toolUsed,
	Stop: on.stop,
	SubagentStop: on.idle,
} satisfies Record<(typeof CLAUDE_CODE_EVENTS)[number], Meaning>;
