/**
 * A model of oh-my-opencode-slim's removed auto-continue hook (April–May
 * 2026), from its documented behaviour (reference:
 * anchor-oh-my-opencode-slim.md §1: state §1.2, guards §1.3, notification and
 * injection §1.4, events §1.5, weaknesses §1.8).
 *
 * Modelled as documented:
 * - one global in-memory state: the enabled flag, one consecutive-continuation
 *   counter (max 5), one pending timer, a post-abort suppression window (5 s);
 *   a restart forgets all of it, the enabled flag included;
 * - only the orchestrator session is continued (subagents never are);
 * - a todo is incomplete unless completed or cancelled (a denylist: `blocked`
 *   still counts as incomplete);
 * - the last assistant text is a question if it ends with `?` or contains one
 *   of ten phrases anywhere (plain substring match, so "should include" reads
 *   as "should i"); the question tool itself is not looked at;
 * - a 3 s cooldown before the injection, cancelled when the session turns
 *   busy; a busy that is not its own injection resets the counter ("user
 *   activity"); errors cancel the pending timer; a failed injection is
 *   swallowed;
 * - the stop command is `/auto-continue off`.
 *
 * Readings most favourable to the tool: the user switched auto-continue on
 * for the session (it is opt-in); the blocking injection returns before the
 * idle of the turn it started, so the in-flight guard does not eat that idle;
 * the plugin is created once per process (no second instance nudging too).
 */
import type { Answer, HarnessEvent, IdleFacts, Policy, PromptTraits, Recheck, SimTodo } from "../model.js";

const MAX_CONTINUATIONS = 5;
const COOLDOWN_MS = 3_000;
const SUPPRESS_AFTER_ABORT_MS = 5_000;
const QUESTION_PHRASES = [
	"would you like",
	"should i",
	"do you want",
	"please review",
	"let me know",
	"what do you think",
	"can you confirm",
	"would you prefer",
	"shall i",
	"any thoughts",
];

export const SLIM_TRAITS: PromptTraits = {
	namesItems: false,
	asksToMark: false,
	blockedHint: false,
	completionPhrase: null,
};

export function isSlimQuestion(text: string): boolean {
	const normalised = text.toLowerCase().trim();
	return /\?\s*$/.test(normalised) || QUESTION_PHRASES.some((phrase) => normalised.includes(phrase));
}

function incomplete(todos: readonly SimTodo[]): number {
	return todos.filter((todo) => todo.status !== "completed" && todo.status !== "cancelled").length;
}

export function slimPolicy(): Policy {
	let enabled = true;
	let consecutive = 0;
	let suppressUntil = 0;
	let pending: string | null = null;
	let injecting = false;
	let keys = 0;
	const orchestrators = new Set<string>();
	return {
		name: "oh-my-opencode-slim",
		countdownMs: COOLDOWN_MS,
		observe(event: HarnessEvent): Recheck | undefined {
			switch (event.type) {
				case "session-created":
					if (event.parent === null) orchestrators.add(event.session);
					return;
				case "turn-start":
					if (!orchestrators.has(event.session)) return;
					pending = null;
					if (event.source === "nudge") injecting = true;
					else if (consecutive > 0) consecutive = 0;
					return;
				case "turn-end":
					if (!orchestrators.has(event.session)) return;
					injecting = false;
					if (event.outcome !== "end") pending = null;
					return;
				case "abort":
					if (!orchestrators.has(event.session)) return;
					suppressUntil = event.at + SUPPRESS_AFTER_ABORT_MS;
					pending = null;
					return;
				case "stop-command":
					enabled = false;
					pending = null;
					return;
				case "restart":
					enabled = false;
					consecutive = 0;
					suppressUntil = 0;
					pending = null;
					injecting = false;
					return;
				case "delivered":
					consecutive++;
					return;
				case "delivery-failed":
					injecting = false;
					return;
				default:
					return;
			}
		},
		decide(facts: IdleFacts): Answer {
			const skip = (reason: string): Answer => ({ kind: "skip", reason });
			if (!orchestrators.has(facts.session)) return skip("not-orchestrator");
			if (!enabled) return skip("disabled");
			if (incomplete(facts.todos) === 0) return skip("no-incomplete");
			if (facts.lastAssistantText && isSlimQuestion(facts.lastAssistantText)) return skip("question");
			if (consecutive >= MAX_CONTINUATIONS) return skip("max-continuations");
			if (facts.now < suppressUntil) return skip("abort-suppressed");
			if (pending || injecting) return skip("pending");
			pending = `slim:${++keys}`;
			const text = `⎔ Auto-continue: ${incomplete(facts.todos)} incomplete todos remaining, resuming in 3s (Esc×2 to cancel)\n[auto-continue] Todos are still open: go on with the next one; if it needs the user's input or review, ask instead.`;
			return { kind: "inject", key: pending, text, traits: SLIM_TRAITS };
		},
		confirm(key: string): boolean {
			if (pending !== key || !enabled) return false;
			pending = null;
			return true;
		},
	};
}
