/**
 * Every nudge boulder sends begins with the same kind of header line (see
 * `prompts/`), which says it is automatic. Harnesses that hand a hook's
 * continuation back to their prompt-submit hook (Copilot CLI, Gemini CLI,
 * Qwen Code) echo it as if the user had typed it: this is how an adapter
 * tells it apart, so that it never counts as a real user turn (which would
 * reset the episode's budgets and stagnation count).
 */
import { CONTINUATION_PROMPT } from "./prompts/continuation.prompt.js";
import { VERIFY_FAILED_PROMPT } from "./prompts/verify-failed.prompt.js";

const HEADERS: readonly string[] = [CONTINUATION_PROMPT, VERIFY_FAILED_PROMPT].map(firstLine);

/** Whether `prompt` is one of boulder's own nudges, as a harness echoes it back. */
export function isOwnPrompt(prompt: string): boolean {
	return HEADERS.includes(firstLine(prompt.trimStart()).trimEnd());
}

function firstLine(text: string): string {
	const end = text.indexOf("\n");
	return end === -1 ? text : text.slice(0, end);
}
