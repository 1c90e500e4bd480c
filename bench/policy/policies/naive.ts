/**
 * The naive rule: at every idle event of any session, if its todo list has an
 * open item (pending or in progress), send "continue". No memory, no budget,
 * no stop command: the baseline every guard is measured against.
 */
import type { Answer, IdleFacts, Policy, PromptTraits, Recheck } from "../model.js";

export const NAIVE_TRAITS: PromptTraits = {
	namesItems: false,
	asksToMark: false,
	blockedHint: false,
	completionPhrase: null,
};

export function naivePolicy(): Policy {
	let sent = 0;
	return {
		name: "naive",
		countdownMs: 0,
		observe(): Recheck | undefined {
			return undefined;
		},
		decide(facts: IdleFacts): Answer {
			const open = facts.todos.some((todo) => todo.status === "pending" || todo.status === "in_progress");
			if (!open) return { kind: "skip", reason: "no-open-todos" };
			return {
				kind: "inject",
				key: `naive:${++sent}`,
				text: "Continue working on your todo list.",
				traits: NAIVE_TRAITS,
			};
		},
	};
}
