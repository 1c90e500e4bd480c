/** How a chat-completions suite tells the requests a boulder nudge started from the rest. */
import { contentText, type RecordedRequest } from "./openai-server.js";
import { NUDGE } from "./suite.js";

/** A request a nudge started: its very last message is the user message carrying the nudge. */
export function endsInNudge(request: RecordedRequest): boolean {
	const last = request.body.messages?.at(-1);
	return last?.role === "user" && contentText(last.content).includes(NUDGE);
}
