/**
 * What a command-hook harness of Claude Code's family is told when its agent
 * would stop: the engine's decision as the hook's JSON (`{decision: "block",
 * reason}` continues with the reason as the next prompt; `{systemMessage}` is
 * shown to the user, never to the model), and the one-line notices that say
 * why boulder let the agent stop.
 */
import type { Engine, IdleResult, SessionRef } from "../../engine/engine.js";
import { isRecord } from "./hook-input.js";

/** What the harness is told: JSON for stdout (or nothing), and what to report once it is written. */
export interface HookAnswer {
	output: Record<string, unknown> | null;
	/** Called right after the output was written. */
	written?: () => Promise<void>;
	/** Called when writing the output failed. */
	failed?: (why: string) => Promise<void>;
}

export const NOTHING: HookAnswer = { output: null };

/** Shown when boulder lets the agent stop because a limit was reached: the user should know it was not "done". */
export function limitNotice(detail: string): string {
	return `boulder: not continuing — ${detail}. \`boulder why\` explains; your next message starts afresh.`;
}

/** Shown once when boulder's config turned bad: boulder is off until it is fixed. */
export function configNotice(problem: string): string {
	return `boulder: not continuing anything until its config is fixed — ${problem}. \`boulder doctor\` explains.`;
}

/** The engine's decision as the Stop hook's output. */
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

const FINISHED_TASK = /^(completed|complete|done|failed|error|killed|stopped|cancelled|canceled)$/i;

/** Stop's `background_tasks`: how many are still running (an entry without a status counts as running). */
export function runningBackgroundTasks(value: unknown): number | null {
	if (!Array.isArray(value)) return null;
	return value.filter((task) => !(isRecord(task) && typeof task.status === "string" && FINISHED_TASK.test(task.status)))
		.length;
}
