/**
 * The engine's decision on idle as a command hook's Stop answer, in the shape
 * Claude Code set and Codex (and others) copied: `{"decision":"block",
 * "reason":…}` continues the agent with the reason as its next message;
 * `systemMessage` is shown to the user only.
 */
import type { Engine, IdleResult, SessionRef } from "../../engine/engine.js";
import { limitNotice } from "./hook-messages.js";

/** What the harness is told: JSON for stdout (or nothing), and what to report once it is written. */
export interface HookAnswer {
	output: Record<string, unknown> | null;
	/** Called right after the output was written. */
	written?: () => Promise<void>;
	/** Called when writing the output failed. */
	failed?: (why: string) => Promise<void>;
	/** Wakes the agent with this text instead (stderr and exit 2: Claude Code's `asyncRewake` hooks); already recorded as delivered. */
	wake?: string;
}

export const NOTHING: HookAnswer = { output: null };

/** How a harness words the decision: Claude Code's shape unless it says otherwise. */
export interface AnswerOptions {
	/** The engine already recorded the nudge as delivered (printing it is the delivery): nothing is reported after the write. */
	delivered?: boolean;
	/** The decision that continues the agent (Gemini CLI's `deny`); default `block`. */
	decision?: string;
	/** False: the harness shows no `systemMessage` (Copilot CLI), so only a block is answered. */
	notices?: boolean;
}

export function answerFor(
	result: IdleResult,
	ref: SessionRef,
	engine: Engine,
	options: AnswerOptions = {},
): HookAnswer {
	if (result.kind === "inject") {
		const { key, text } = result;
		const output = { decision: options.decision ?? "block", reason: text };
		if (options.delivered) return { output };
		return { output, written: () => engine.delivered(ref, key), failed: (why) => engine.deliveryFailed(ref, key, why) };
	}
	if (options.notices === false) return NOTHING;
	if (result.kind === "complete") return { output: { systemMessage: result.text } };
	if (result.kind === "skip" && result.notice) {
		return { output: { systemMessage: limitNotice(result.detail) } };
	}
	return NOTHING;
}

/**
 * Context for the model in the answer to `hookEventName` (the engine's resume
 * context at SessionStart, a note at PreToolUse, …), in the shape Claude Code
 * set and Codex, Gemini CLI and Qwen Code copied: the harness adds
 * `hookSpecificOutput.additionalContext` to what the model reads, never as a
 * turn of its own. Nothing when the engine has nothing to say.
 */
export function contextAnswer(hookEventName: string, context: string | null): HookAnswer {
	return context === null ? NOTHING : { output: { hookSpecificOutput: { hookEventName, additionalContext: context } } };
}
