/**
 * What the adapter remembers about each OpenCode session between events, in
 * memory: whether it is a child, whether it is idle, which messages it has
 * seen, the assistant messages of the current turn (their spend and how they
 * ended), the route (agent and model) of the last real user message, pending
 * questions and permissions, and running child sessions.
 *
 * Nothing here decides anything; it only lets the hub turn a stream of
 * events into the engine's calls. What matters across restarts is persisted
 * by the engine, and what is lost here is read back from OpenCode's API.
 */
import type { PendingInput } from "../../core/policy.js";
import type { BackgroundTask, TokenSpend } from "../../core/turns.js";
import type { SessionRef } from "../../engine/engine.js";
import type { PromptRoute } from "./api.js";
import { BoundedMap, BoundedSet } from "./bounded.js";
import { type AssistantInfo, addSpend, HARNESS, type PendingAsk } from "./event-read.js";
import type { PluginHost } from "./host.js";

export type SessionStatus = "idle" | "busy" | "unknown";

/** Most message ids (and tool calls of a turn) remembered per session: enough to recognise repeats, bounded for long sessions. */
const MAX_SEEN = 500;

/** Assistant messages whose text is kept: only the newest with any text is ever read. */
const MAX_TEXTS = 20;

/** How the turn ended so far: its assistant messages' spend, summed, and the last one. */
export interface TurnSummary {
	spend: TokenSpend;
	last: AssistantInfo;
}

export class SessionTrack {
	readonly id: string;
	/** undefined: not known yet; null: a root session. */
	parentId: string | null | undefined = undefined;
	status: SessionStatus = "unknown";
	/** The route of the last real user message; null until one is seen. */
	route: PromptRoute | null = null;
	/** The list was read from OpenCode (or reported by `todo.updated`) since this process started. */
	todosKnown = false;
	readonly pending = new Map<string, PendingAsk>();
	/** Running child sessions, with when they were first seen busy and their agent: the watchdog reads them. */
	readonly runningChildren = new Map<string, BackgroundTask>();
	private readonly seenMessages = new BoundedSet<string>(MAX_SEEN);
	private turnAssistants = new Map<string, AssistantInfo>();
	private lastAssistant: AssistantInfo | null = null;
	private readonly assistantIds = new BoundedSet<string>(MAX_SEEN);
	private readonly assistantText = new BoundedMap<string, Map<string, string>>(MAX_TEXTS);
	private readonly countedTools = new BoundedSet<string>(MAX_SEEN);

	/** The harness name the engine files the session under (`opencode`, `kilo`). */
	readonly harness: PluginHost["harness"];

	constructor(id: string, harness: PluginHost["harness"] = HARNESS) {
		this.id = id;
		this.harness = harness;
	}

	get isChild(): boolean {
		return typeof this.parentId === "string";
	}

	/** How the engine knows this session: a child owns no continuation; the skip list is checked against the last agent. */
	ref(): SessionRef {
		return { harness: this.harness, sessionId: this.id, subagent: this.isChild, agent: this.lastAgent() };
	}

	/** Marks a message id seen; returns false when it was seen already. */
	see(messageId: string): boolean {
		return this.seenMessages.add(messageId);
	}

	/** A new turn starts: spend and tool counts begin again. */
	startTurn(): void {
		this.turnAssistants = new Map();
		this.countedTools.clear();
	}

	noteAssistant(info: AssistantInfo): void {
		this.turnAssistants.set(info.id, info);
		this.lastAssistant = info;
		this.assistantIds.add(info.id);
	}

	isAssistantMessage(messageId: string): boolean {
		return this.assistantIds.has(messageId);
	}

	noteText(messageId: string, partId: string, text: string): void {
		let parts = this.assistantText.get(messageId);
		if (!parts) {
			parts = new Map();
			this.assistantText.set(messageId, parts);
		}
		parts.set(partId, text);
	}

	/** Counts a file-changing tool call once, however many times its part is updated. */
	countTool(callId: string): boolean {
		return this.countedTools.add(callId);
	}

	/** The turn's assistant messages, summed, and the last one (how the turn ended); null when none was seen. */
	turnSummary(): TurnSummary | null {
		let last: AssistantInfo | null = null;
		let spend: TokenSpend = { input: 0, output: 0, cacheWrite: 0 };
		for (const info of this.turnAssistants.values()) {
			spend = addSpend(spend, info.spend);
			last = info;
		}
		return last ? { spend, last } : null;
	}

	/** The agent that answered last (what the skip list is checked against). */
	lastAgent(): string | null {
		return this.lastAssistant?.agent ?? this.route?.agent ?? null;
	}

	/** The text of the newest assistant message that has any. */
	lastAssistantText(): string | null {
		const ids = [...this.assistantText.keys()].reverse();
		for (const id of ids) {
			const text = [...(this.assistantText.get(id)?.values() ?? [])].join("\n").trim();
			if (text) return text;
		}
		return null;
	}

	pendingInput(): PendingInput | null {
		const first = this.pending.values().next().value;
		return first ? { kind: first.kind, detail: first.detail } : null;
	}
}

export class SessionTable {
	private readonly sessions = new Map<string, SessionTrack>();

	constructor(private readonly harness: PluginHost["harness"] = HARNESS) {}

	get(id: string): SessionTrack {
		let track = this.sessions.get(id);
		if (!track) {
			track = new SessionTrack(id, this.harness);
			this.sessions.set(id, track);
		}
		return track;
	}

	peek(id: string): SessionTrack | undefined {
		return this.sessions.get(id);
	}

	delete(id: string): void {
		this.sessions.delete(id);
	}

	all(): IterableIterator<SessionTrack> {
		return this.sessions.values();
	}
}
