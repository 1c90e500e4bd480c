/**
 * Resume context in OpenCode: a session that comes back to unfinished work
 * after OpenCode restarted is told where the work stands. OpenCode wakes no
 * session by itself after a restart, so the first prompt the session gets in
 * this process is where the context goes: one synthetic text part added to
 * that prompt in `chat.message`, which OpenCode saves with the message and
 * sends to the model with it. Never a prompt of its own, never a nudge, and
 * the system prompt is left alone (the provider's prompt cache survives).
 *
 * A session created in this process has nothing to come back to; a prompt
 * that is boulder's own nudge already names the open items. Whether there is
 * anything to say, and what, is the engine's answer.
 */
import { BoundedSet } from "./bounded.js";
import { isRecord, MARK } from "./event-read.js";

/** Most sessions remembered as already handled in this process. */
const REMEMBERED = 5_000;

export class ResumeNotes {
	private readonly handled = new BoundedSet<string>(REMEMBERED);

	/** The session was created in this process: it comes back to nothing. */
	created(session: string): void {
		this.handled.add(session);
	}

	/** Whether this is the session's first prompt in this process (asked once per session). */
	firstPrompt(session: string): boolean {
		return this.handled.add(session);
	}
}

/**
 * The part that carries the context on the prompt's message: synthetic (the
 * model reads it, the user's own text is untouched) and marked as boulder's.
 * Its id sorts right after the prompt's last part, so it follows the user's text.
 */
export function resumePart(
	message: { id: string; sessionId: string },
	parts: readonly unknown[],
	text: string,
): Record<string, unknown> {
	const ids = parts
		.map((part) => (isRecord(part) && typeof part.id === "string" ? part.id : ""))
		.filter((id) => id !== "")
		.sort();
	const last = ids.at(-1) ?? `prt_${message.id.replace(/^msg_/, "")}`;
	return {
		id: `${last}boulder`,
		sessionID: message.sessionId,
		messageID: message.id,
		type: "text",
		text,
		synthetic: true,
		metadata: { [MARK]: { kind: "resume" } },
	};
}
