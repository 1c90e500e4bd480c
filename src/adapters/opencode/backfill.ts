/**
 * What the events did not say, read back from OpenCode's API: whether a
 * session is a child, how its last turn ended, the agent and model of its
 * last real user message, and the agent's list. The plugin misses events
 * when it loads while a session is already running, or when OpenCode was
 * restarted mid-turn (see docs/opencode-notes.md).
 *
 * What is read is kept on the session's `SessionTrack`, so it is read once.
 *
 * Contract: `parentOf`, `turnEnd` and `todos` record a failed read and answer
 * as if nothing was learnt ("unknown", null, no list); `route` rejects, and
 * its caller says what a failure means there.
 */
import type { Engine, SessionRef } from "../../engine/engine.js";
import type { OpenCodeApi, PromptRoute } from "./api.js";
import { originOf, readMessageInfo, readPart } from "./event-read.js";
import type { SessionTrack, TurnSummary } from "./sessions.js";
import { normalizeOpenCodeTodos } from "./todos.js";

/** How many of a session's newest messages are read: the last turn is near the end. */
const MESSAGES_READ = 30;

export type ErrorRecorder = (ref: SessionRef | null, where: string, error: unknown) => Promise<void>;

export class Backfill {
	constructor(
		private readonly api: OpenCodeApi,
		private readonly recordError: ErrorRecorder,
	) {}

	/** The session's parent (null for a root), read from OpenCode when no event said; "unknown" when that failed. */
	async parentOf(track: SessionTrack): Promise<string | null | "unknown"> {
		if (track.parentId !== undefined) return track.parentId;
		try {
			track.parentId = await this.api.parentOf(track.id);
			return track.parentId;
		} catch (error) {
			await this.recordError(track.ref(), "reading whether the session is a subagent's", error);
			return "unknown";
		}
	}

	/** The agent and model of the last real user message, from the events or else from OpenCode's messages. */
	async route(track: SessionTrack): Promise<PromptRoute> {
		if (track.route) return track.route;
		const messages = await this.api.messages(track.id, MESSAGES_READ);
		for (const message of [...messages].reverse()) {
			const info = readMessageInfo(message.info);
			if (info?.role !== "user") continue;
			const parts = (Array.isArray(message.parts) ? message.parts : []).map(readPart).filter((p) => p !== null);
			if (originOf(parts).kind !== "user") continue;
			track.route = { agent: info.agent, model: info.model };
			return track.route;
		}
		return { agent: null, model: null };
	}

	/** How the last turn ended, from OpenCode's stored messages; null when its last message is the user's or none was read. */
	async turnEnd(track: SessionTrack): Promise<TurnSummary | null> {
		try {
			const messages = await this.api.messages(track.id, MESSAGES_READ);
			for (const message of [...messages].reverse()) {
				const info = readMessageInfo(message.info);
				if (info?.role === "assistant") return { spend: info.spend, last: info };
				if (info?.role === "user") return null;
			}
			return null;
		} catch (error) {
			await this.recordError(track.ref(), "reading how the turn ended", error);
			return null;
		}
	}

	/** Reads the agent's list and hands it to the engine. */
	async todos(track: SessionTrack, engine: Engine): Promise<void> {
		try {
			const list = await this.api.todos(track.id);
			track.todosKnown = true;
			const { todos, warnings } = normalizeOpenCodeTodos(list);
			await engine.todosChanged(track.ref(), todos);
			if (warnings.length > 0) {
				await engine.recordError(track.ref(), "reading the agent's list", new Error(warnings.join("; ")));
			}
		} catch (error) {
			await this.recordError(track.ref(), "reading the agent's list from OpenCode", error);
		}
	}
}
