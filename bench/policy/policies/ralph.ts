/**
 * A model of a ralph-style loop (the ralph-loop Stop hook of Claude Code),
 * from its documented behaviour (reference: harness-apis.md §1.8, with the
 * Stop-hook facts of §1.1 and §1.10).
 *
 * Modelled as documented:
 * - the user starts the loop with their request, a completion promise and an
 *   iteration cap; the state file persists (a restart changes nothing);
 * - at every Stop of the main session: if the iteration count reached the cap,
 *   or the last assistant text carries the exact promise, the loop ends;
 *   otherwise it counts an iteration and sends the same prompt again;
 * - it never looks at todos, questions or background work;
 * - Stop does not fire for subagents (they have SubagentStop), on Esc (no hook
 *   fires), or when the turn ended on an API error (StopFailure fires instead);
 * - `/cancel-ralph` deletes the state: that is the stop command.
 *
 * Readings most favourable to the tool: the user set `--max-iterations 20`
 * (the command's default is no cap at all); Stop fires once per turn end, so
 * paired idle events give one decision; while a question tool waits for the
 * user the turn has not ended, so Stop does not fire.
 */
import type { Answer, HarnessEvent, IdleFacts, Policy, PromptTraits, Recheck } from "../model.js";

export const RALPH_MAX_ITERATIONS = 20;
export const RALPH_PROMISE = "<promise>DONE</promise>";

export const RALPH_TRAITS: PromptTraits = {
	namesItems: false,
	asksToMark: false,
	blockedHint: false,
	completionPhrase: RALPH_PROMISE,
};

const REQUEST =
	"Work through the todo list for this task until every item is done. When it is all complete, output <promise>DONE</promise>.";

export function ralphPolicy(maxIterations = RALPH_MAX_ITERATIONS): Policy {
	let active = true;
	let iteration = 1;
	let stopPending = false;
	const children = new Set<string>();
	return {
		name: "ralph-loop",
		countdownMs: 0,
		requestTraits: RALPH_TRAITS,
		observe(event: HarnessEvent): Recheck | undefined {
			if (event.type === "session-created" && event.parent !== null) children.add(event.session);
			if (event.type === "turn-end" && !children.has(event.session)) stopPending = event.outcome === "end";
			if (event.type === "stop-command") active = false;
			return undefined;
		},
		decide(facts: IdleFacts): Answer {
			const skip = (reason: string): Answer => ({ kind: "skip", reason });
			if (facts.subagent || children.has(facts.session)) return skip("subagent-stop");
			if (!stopPending || facts.pendingQuestion) return skip("no-stop-event");
			stopPending = false;
			if (!active) return skip("no-loop");
			if (iteration >= maxIterations) {
				active = false;
				return skip("max-iterations");
			}
			if (facts.lastAssistantText?.includes(RALPH_PROMISE)) {
				active = false;
				return skip("promise");
			}
			iteration++;
			return { kind: "inject", key: `ralph:${iteration}`, text: REQUEST, traits: RALPH_TRAITS };
		},
	};
}
