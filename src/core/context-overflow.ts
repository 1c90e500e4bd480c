/**
 * What a context-overflow error looks like in the words providers and
 * harnesses use: one reading for every adapter, so "the turn ran out of
 * context" means the same thing in each harness.
 */
const CONTEXT_OVERFLOW =
	/prompt is too long|prompt_too_long|context[ _-]?(length|window)|context_length_exceeded|too many tokens|maximum context|token limit/i;

/** Whether an error's text (name, message, details joined) says the prompt no longer fits the model's context. */
export function isContextOverflow(text: string): boolean {
	return CONTEXT_OVERFLOW.test(text);
}
