/**
 * Reads what OpenCode hands a plugin: bus events, messages and parts. Nothing
 * is trusted: payloads are `unknown` here, events outside the SDK's v1 union
 * arrive too (`question.*`, `permission.asked`, `message.part.delta`), and a
 * newer OpenCode may add or drop fields. Reading never throws; what cannot be
 * read comes back as null.
 *
 * Facts this relies on (OpenCode 1.18.33, see docs/opencode-notes.md): an
 * assistant message carries `tokens` (input without cache reads), `finish`
 * and `error`; boulder's own prompts carry `metadata.boulder` on their text
 * part; OpenCode's compaction "continue" carries `metadata.compaction_continue`.
 */
import { isContextOverflow } from "../../core/context-overflow.js";
import type { TokenSpend, TurnOutcome } from "../../core/turns.js";

/** The harness name boulder's state and log use for OpenCode sessions. */
export const HARNESS = "opencode";

/** Tools that change files: their completion is work the list may not show yet. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(["edit", "write", "patch", "multiedit", "apply_patch"]);

export interface BusEvent {
	id: string | null;
	type: string;
	properties: Record<string, unknown>;
}

export function readEvent(value: unknown): BusEvent | null {
	if (!isRecord(value) || typeof value.type !== "string") return null;
	return {
		id: typeof value.id === "string" ? value.id : null,
		type: value.type,
		properties: isRecord(value.properties) ? value.properties : {},
	};
}

/** The session an event is about, wherever this event type keeps it. */
export function sessionOf(event: BusEvent): string | null {
	const p = event.properties;
	if (typeof p.sessionID === "string") return p.sessionID;
	const info = p.info;
	if (isRecord(info)) {
		if (typeof info.sessionID === "string") return info.sessionID;
		if (event.type.startsWith("session.") && typeof info.id === "string") return info.id;
	}
	const part = p.part;
	if (isRecord(part) && typeof part.sessionID === "string") return part.sessionID;
	return null;
}

export interface SessionInfo {
	id: string;
	/** null: a root session; a string: a child (subagent) session. */
	parentId: string | null;
}

export function readSessionInfo(value: unknown): SessionInfo | null {
	if (!isRecord(value) || typeof value.id !== "string") return null;
	return { id: value.id, parentId: typeof value.parentID === "string" && value.parentID ? value.parentID : null };
}

export interface ErrorInfo {
	name: string;
	message: string;
}

export type ErrorKind = "abort" | "context-overflow" | "api" | "other";

const API_ERRORS: ReadonlySet<string> = new Set(["APIError", "ProviderAuthError"]);

export function readError(value: unknown): ErrorInfo | null {
	if (!isRecord(value)) return null;
	const data = isRecord(value.data) ? value.data : {};
	const name = typeof value.name === "string" ? value.name : "UnknownError";
	const message =
		typeof data.message === "string" ? data.message : typeof value.message === "string" ? value.message : "";
	return { name, message };
}

/** What an OpenCode error means for the turn: the user's abort, an overflow, a model API failure, or something else. */
export function errorKindOf(error: ErrorInfo): ErrorKind {
	if (error.name === "MessageAbortedError" || error.name === "AbortError") return "abort";
	if (error.name === "ContextOverflowError" || isContextOverflow(error.message)) return "context-overflow";
	if (API_ERRORS.has(error.name)) return "api";
	return "other";
}

export interface AssistantInfo {
	id: string;
	sessionId: string;
	parentId: string | null;
	agent: string | null;
	finish: string | null;
	error: ErrorInfo | null;
	spend: TokenSpend;
	completed: boolean;
}

export interface UserInfo {
	id: string;
	sessionId: string;
	agent: string | null;
	model: ModelRef | null;
}

export interface ModelRef {
	providerID: string;
	modelID: string;
}

export type MessageInfo = ({ role: "assistant" } & AssistantInfo) | ({ role: "user" } & UserInfo);

export function readMessageInfo(value: unknown): MessageInfo | null {
	if (!isRecord(value) || typeof value.id !== "string" || typeof value.sessionID !== "string") return null;
	if (value.role === "user") {
		return {
			role: "user",
			id: value.id,
			sessionId: value.sessionID,
			agent: typeof value.agent === "string" ? value.agent : null,
			model: readModel(value.model),
		};
	}
	if (value.role !== "assistant") return null;
	const time = isRecord(value.time) ? value.time : {};
	return {
		role: "assistant",
		id: value.id,
		sessionId: value.sessionID,
		parentId: typeof value.parentID === "string" ? value.parentID : null,
		agent: typeof value.agent === "string" ? value.agent : typeof value.mode === "string" ? value.mode : null,
		finish: typeof value.finish === "string" ? value.finish : null,
		error: value.error === undefined || value.error === null ? null : readError(value.error),
		spend: spendOf(value.tokens),
		completed: typeof time.completed === "number",
	};
}

export function readModel(value: unknown): ModelRef | null {
	if (!isRecord(value) || typeof value.providerID !== "string" || typeof value.modelID !== "string") return null;
	return { providerID: value.providerID, modelID: value.modelID };
}

/**
 * Real spend of one assistant message: input (OpenCode already leaves cache
 * reads out of it) + output + reasoning + cache writes. Cache reads are not spend.
 */
export function spendOf(tokens: unknown): TokenSpend {
	if (!isRecord(tokens)) return { input: 0, output: 0, cacheWrite: 0 };
	const cache = isRecord(tokens.cache) ? tokens.cache : {};
	return {
		input: count(tokens.input),
		output: count(tokens.output) + count(tokens.reasoning),
		cacheWrite: count(cache.write),
	};
}

export function addSpend(a: TokenSpend, b: TokenSpend): TokenSpend {
	return { input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/**
 * How a turn ended, from its last assistant message. A finish that says the
 * model still wanted tools, or none at all, is `unknown`: the engine then
 * fails closed rather than nudging a turn that may still be running.
 */
export function outcomeOf(last: Pick<AssistantInfo, "finish" | "error"> | null): TurnOutcome {
	if (!last) return "unknown";
	if (last.error) {
		const kind = errorKindOf(last.error);
		if (kind === "abort") return "aborted";
		if (kind === "context-overflow") return "context-overflow";
		if (last.error.name === "MessageOutputLengthError") return "length";
		return "error";
	}
	switch (last.finish) {
		case "stop":
		case "end_turn":
			return "end";
		case "length":
			return "length";
		case "content-filter":
		case "error":
			return "error";
		default:
			return "unknown";
	}
}

export interface PartInfo {
	id: string;
	messageId: string;
	sessionId: string;
	type: string;
	text: string | null;
	synthetic: boolean;
	ignored: boolean;
	metadata: Record<string, unknown> | null;
	/** Tool parts only. */
	tool: string | null;
	callId: string | null;
	toolStatus: string | null;
}

export function readPart(value: unknown): PartInfo | null {
	if (!isRecord(value) || typeof value.type !== "string") return null;
	const state = isRecord(value.state) ? value.state : {};
	return {
		id: typeof value.id === "string" ? value.id : "",
		messageId: typeof value.messageID === "string" ? value.messageID : "",
		sessionId: typeof value.sessionID === "string" ? value.sessionID : "",
		type: value.type,
		text: typeof value.text === "string" ? value.text : null,
		synthetic: value.synthetic === true,
		ignored: value.ignored === true,
		metadata: isRecord(value.metadata) ? value.metadata : null,
		tool: typeof value.tool === "string" ? value.tool : null,
		callId: typeof value.callID === "string" ? value.callID : null,
		toolStatus: typeof state.status === "string" ? state.status : null,
	};
}

/** The `metadata.boulder` mark on boulder's own text parts. */
export const MARK = "boulder";

export type BoulderMark = { kind: "nudge"; key: string } | { kind: "answer" };

export function markOf(metadata: Record<string, unknown> | null): BoulderMark | null {
	const mark = metadata?.[MARK];
	if (!isRecord(mark)) return null;
	if (mark.kind === "nudge" && typeof mark.key === "string") return { kind: "nudge", key: mark.key };
	if (mark.kind === "answer") return { kind: "answer" };
	return null;
}

/** Who wrote a new user message, judged from its parts. */
export type PromptOrigin =
	/** boulder's nudge with this idempotency key. */
	| { kind: "nudge"; key: string }
	/** boulder's answer to a `/boulder` command: no turn at all. */
	| { kind: "answer" }
	/** OpenCode itself or another tool: synthetic text only, or OpenCode's compaction "continue". */
	| { kind: "system" }
	| { kind: "user" };

export function originOf(parts: readonly PartInfo[]): PromptOrigin {
	for (const part of parts) {
		const mark = markOf(part.metadata);
		if (mark) return mark;
	}
	if (parts.some((part) => part.metadata?.compaction_continue === true)) return { kind: "system" };
	const texts = parts.filter((part) => part.type === "text");
	if (texts.length > 0 && texts.every((part) => part.synthetic)) return { kind: "system" };
	return { kind: "user" };
}

export interface PendingAsk {
	id: string;
	kind: "question" | "permission";
	detail: string;
}

/** `question.asked`, `permission.asked` (and the v1 `permission.updated`) as a pending ask, or null. */
export function readAsk(event: BusEvent): PendingAsk | null {
	const p = event.properties;
	if (typeof p.id !== "string") return null;
	if (event.type === "question.asked") {
		const first = Array.isArray(p.questions) ? p.questions[0] : undefined;
		const detail = isRecord(first) && typeof first.question === "string" ? first.question : "a question";
		return { id: p.id, kind: "question", detail: clip(detail, 160) };
	}
	if (event.type === "permission.asked" || event.type === "permission.updated") {
		const what = typeof p.permission === "string" ? p.permission : typeof p.type === "string" ? p.type : "a permission";
		const title = typeof p.title === "string" ? `: ${p.title}` : "";
		return { id: p.id, kind: "permission", detail: clip(`${what}${title}`, 160) };
	}
	return null;
}

/** The ask an answer event closes (`question.replied`/`rejected`, `permission.replied`), or null. */
export function answeredAsk(event: BusEvent): string | null {
	if (!["question.replied", "question.rejected", "permission.replied"].includes(event.type)) return null;
	const p = event.properties;
	if (typeof p.requestID === "string") return p.requestID;
	if (typeof p.permissionID === "string") return p.permissionID;
	if (typeof p.id === "string") return p.id;
	return null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function clip(text: string, max: number): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
