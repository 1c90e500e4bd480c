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

/**
 * `delivered`: the engine already recorded the nudge as delivered (printing
 * it is the delivery), so nothing is reported after the write.
 */
export function answerFor(
	result: IdleResult,
	ref: SessionRef,
	engine: Engine,
	options: { delivered?: boolean } = {},
): HookAnswer {
	if (result.kind === "inject") {
		const { key, text } = result;
		if (options.delivered) return { output: { decision: "block", reason: text } };
		return {
			output: { decision: "block", reason: text },
			written: () => engine.delivered(ref, key),
			failed: (why) => engine.deliveryFailed(ref, key, why),
		};
	}
	if (result.kind === "complete") return { output: { systemMessage: result.text } };
	if (result.kind === "skip" && result.notice) {
		return { output: { systemMessage: limitNotice(result.detail) } };
	}
	return NOTHING;
}

/**
 * The engine's resume context as a SessionStart answer in the shape Claude
 * Code set and Codex, Gemini CLI and Qwen Code copied: the harness adds
 * `hookSpecificOutput.additionalContext` to what the model reads, never as a
 * turn of its own. Nothing when the engine has nothing to say.
 */
export function sessionStartContext(context: string | null): HookAnswer {
	if (context === null) return NOTHING;
	return { output: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } } };
}
