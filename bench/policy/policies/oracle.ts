/**
 * The oracle: reads the simulator's ground truth and nudges exactly when a
 * person watching would. Not a contestant; the tests use it to show that each
 * profile's right outcome is reachable and that the measurements see it.
 */
import type { Answer, HarnessEvent, IdleFacts, Policy, PromptTraits, Recheck, Truth } from "../model.js";

export const ORACLE_TRAITS: PromptTraits = {
	namesItems: true,
	asksToMark: true,
	blockedHint: true,
	completionPhrase: null,
};

export function oraclePolicy(truth: () => Truth): Policy {
	let answered = -1;
	return {
		name: "oracle",
		countdownMs: 0,
		observe(event: HarnessEvent): Recheck | undefined {
			if (event.type === "delivery-failed") {
				answered = -1;
				return { session: event.session, at: event.at + 10_000 };
			}
			return undefined;
		},
		decide(facts: IdleFacts): Answer {
			const now = truth();
			const skip = (reason: string): Answer => ({ kind: "skip", reason });
			if (facts.subagent || facts.busy) return skip("not-the-main-session");
			if (now.stuck || now.finishableLeft === 0) return skip("nothing-to-gain");
			if (now.stopped || now.abortedSinceUser || now.questionPending) return skip("the-user-decides");
			if (now.backgroundRunning > 0 || now.overflow) {
				// A wedged subagent never wakes it: decide again when it runs past its limit.
				const wake = "the-harness-will-wake-it";
				return now.nextDeadline === null ? skip(wake) : { kind: "skip", reason: wake, retryAt: now.nextDeadline };
			}
			if (answered === now.idleSeq) return skip("already-answered");
			const cap = facts.harnessCap;
			if (cap && cap.inRow + 1 >= cap.limit) return skip("the-harness-would-override-it");
			answered = now.idleSeq;
			return {
				kind: "inject",
				key: `oracle:${now.idleSeq}`,
				text: "Continue with the next open item.",
				traits: { ...ORACLE_TRAITS, delegates: facts.orchestrating, namesOverdue: now.overdue },
			};
		},
		subagentResult: (result) => result.parent.orchestrating,
	};
}
