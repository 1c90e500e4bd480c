/**
 * boulder's own nudges, told from anyone else's prompt: a harness that reports
 * a Stop hook's continuation as a submitted prompt (Codex, Gemini CLI, Qwen
 * Code, Copilot CLI) hands boulder's nudge back to it, and that turn is not
 * the user's (counting it would reset the episode's budgets and stagnation).
 */
import { CONTINUATION_PROMPT } from "../../core/prompts/continuation.prompt.js";
import { ORCHESTRATE_CONTINUATION_PROMPT } from "../../core/prompts/orchestrate.prompt.js";
import { VERIFY_FAILED_PROMPT } from "../../core/prompts/verify-failed.prompt.js";

/** The header line every nudge begins with: how boulder knows its own text. */
const HEADERS: ReadonlySet<string> = new Set(
	[CONTINUATION_PROMPT, ORCHESTRATE_CONTINUATION_PROMPT, VERIFY_FAILED_PROMPT].map(firstLine),
);

/** Whether `prompt` is one of boulder's nudges as a harness echoes it: its whole first line is a nudge's header. */
export function isBoulderPrompt(prompt: string | null): boolean {
	return prompt !== null && HEADERS.has(firstLine(prompt.trimStart()).trimEnd());
}

function firstLine(text: string): string {
	const end = text.indexOf("\n");
	return end === -1 ? text : text.slice(0, end);
}
