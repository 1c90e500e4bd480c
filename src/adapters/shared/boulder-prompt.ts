/**
 * boulder's own continuation, told from anyone else's prompt: a harness that
 * reports a Stop hook's continuation as a submitted prompt hands boulder's
 * nudge back to it, and that turn is not the user's.
 */
import { CONTINUATION_PROMPT } from "../../core/prompts/continuation.prompt.js";

/** The first line of every boulder nudge: how boulder knows its own text. */
const NUDGE_MARK = CONTINUATION_PROMPT.split("\n")[0] ?? "";

export function isBoulderPrompt(prompt: string | null): boolean {
	return prompt !== null && NUDGE_MARK !== "" && prompt.trimStart().startsWith(NUDGE_MARK);
}
