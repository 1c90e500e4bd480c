/**
 * A model of oh-my-opencode's todo-continuation enforcer, from its documented
 * behaviour (reference: anchor-oh-my-opencode.md §2: constants §2.1, events
 * §2.3, the idle gate §2.4, progress and the turn-boundary pause §2.5, the
 * countdown §2.6, injection §2.7, abort and token limit §2.8, stop §2.9).
 *
 * Modelled as documented, bugs included:
 * - state is in memory per session: a restart forgets it (the stop marker is
 *   a file and survives);
 * - the abort flag stays set until new assistant, tool or user activity; the
 *   3 s abort window; the last assistant message carrying an abort also skips;
 * - background tasks running, a pending question tool, an active turn, a
 *   compaction marker as the latest message, skip-listed agents: skip;
 * - `blocked` does not count as incomplete (the project's convention);
 * - cooldown 5 s × 2^failures (max 5 failures, reset after 5 min), with no
 *   retry timer: an idle that falls inside the cooldown is simply lost;
 * - progress is a lower incomplete count, a higher completed count, or any
 *   change of the id→status signature, so a status flip counts;
 * - stagnation counts only after an injection awaiting its check (limit 3);
 *   after one injected turn that showed activity but changed no status, the
 *   turn-boundary pause blocks re-arming until real todo progress;
 * - a genuine user message after an accepted continuation records a
 *   user interruption, which likewise blocks until progress;
 * - a context-length error blocks until a genuine user message;
 * - any session is continued, subagents included; only agents without write
 *   permission are left out, at injection time;
 * - a plan in orchestrate mode is an Atlas work session (§3): Atlas's
 *   verification reminder rides on every subagent result, and a continuation
 *   asks to delegate (Atlas's own prompt; it and the enforcer's coalesce by
 *   their dedupe key, §2.7, and we read the delegating one as the one sent).
 *   Atlas's own idle gate is not modelled.
 *
 * Readings most favourable to the tool where the document is unclear: todos
 * carry stable ids, so rewording an item is not taken for progress (without
 * ids the signature key is the content); the aborted message's own update is
 * taken to arrive before the abort error, so it does not clear the flag.
 */
import type { Answer, HarnessEvent, IdleFacts, Policy, PromptTraits, Recheck, SimTodo } from "../model.js";

const ABORT_WINDOW_MS = 3_000;
const COOLDOWN_MS = 5_000;
const MAX_FAILURES = 5;
const FAILURE_RESET_MS = 5 * 60_000;
const MAX_STAGNATION = 3;
const COUNTDOWN_MS = 2_000;
const SKIP_AGENTS = ["prometheus", "compaction", "plan"];
const DONE_STATUSES = new Set<SimTodo["status"]>(["completed", "cancelled", "blocked"]);

export const OMO_TRAITS: PromptTraits = {
	namesItems: true,
	asksToMark: true,
	blockedHint: false,
	completionPhrase: null,
};

interface SessionState {
	lastIncomplete: number | undefined;
	lastCompleted: number;
	lastSignature: string;
	awaiting: boolean;
	observed: boolean;
	block: "directive-response" | "user-interruption" | null;
	stagnation: number;
	failures: number;
	lastInjectedAt: number | undefined;
	wasCancelled: boolean;
	abortAt: number | undefined;
	tokenLimit: boolean;
	lastAssistantAborted: boolean;
	inFlight: boolean;
	countdown: string | null;
	injections: number;
}

function fresh(): SessionState {
	return {
		lastIncomplete: undefined,
		lastCompleted: 0,
		lastSignature: "",
		awaiting: false,
		observed: false,
		block: null,
		stagnation: 0,
		failures: 0,
		lastInjectedAt: undefined,
		wasCancelled: false,
		abortAt: undefined,
		tokenLimit: false,
		lastAssistantAborted: false,
		inFlight: false,
		countdown: null,
		injections: 0,
	};
}

export function incompleteCount(todos: readonly SimTodo[]): number {
	return todos.filter((todo) => !DONE_STATUSES.has(todo.status)).length;
}

export function todoSignature(todos: readonly SimTodo[]): string {
	return todos
		.map((todo) => `${todo.id}=${todo.status}`)
		.sort()
		.join("|");
}

export function omoPolicy(): Policy {
	const sessions = new Map<string, SessionState>();
	const stopped = new Set<string>();
	const state = (session: string): SessionState => {
		let found = sessions.get(session);
		if (!found) {
			found = fresh();
			sessions.set(session, found);
		}
		return found;
	};

	const resetProgress = (s: SessionState) => {
		s.lastIncomplete = undefined;
		s.lastSignature = "";
		s.awaiting = false;
		s.observed = false;
		s.block = null;
		s.stagnation = 0;
	};

	const trackProgress = (s: SessionState, todos: readonly SimTodo[]) => {
		const incomplete = incompleteCount(todos);
		const completed = todos.filter((todo) => todo.status === "completed").length;
		const signature = todoSignature(todos);
		if (s.lastIncomplete === undefined) {
			s.stagnation = 0;
		} else if (incomplete < s.lastIncomplete || completed > s.lastCompleted || signature !== s.lastSignature) {
			s.stagnation = 0;
			s.awaiting = false;
			s.observed = false;
			s.block = null;
		} else if (s.awaiting) {
			s.awaiting = false;
			if (s.observed && s.block !== "user-interruption") s.block = "directive-response";
			s.stagnation++;
		}
		s.lastIncomplete = incomplete;
		s.lastCompleted = completed;
		s.lastSignature = signature;
	};

	const clearAbort = (s: SessionState) => {
		s.wasCancelled = false;
		s.abortAt = undefined;
		s.countdown = null;
	};

	return {
		name: "oh-my-opencode",
		countdownMs: COUNTDOWN_MS,
		observe(event: HarnessEvent): Recheck | undefined {
			switch (event.type) {
				case "turn-start": {
					if (event.source !== "user") return;
					const s = state(event.session);
					s.tokenLimit = false;
					clearAbort(s);
					if (s.awaiting) s.block = "user-interruption";
					return;
				}
				case "assistant":
				case "activity": {
					const s = state(event.session);
					if (s.awaiting) s.observed = true;
					clearAbort(s);
					if (event.type === "assistant") s.lastAssistantAborted = false;
					return;
				}
				case "turn-end": {
					const s = state(event.session);
					if (event.outcome === "context-overflow") {
						s.tokenLimit = true;
						s.countdown = null;
					}
					s.lastAssistantAborted = event.outcome === "aborted";
					return;
				}
				case "abort": {
					const s = state(event.session);
					resetProgress(s);
					s.wasCancelled = true;
					s.abortAt = event.at;
					s.lastInjectedAt = undefined;
					s.failures = 0;
					s.countdown = null;
					return;
				}
				case "stop-command":
					stopped.add(event.session);
					for (const s of sessions.values()) s.countdown = null;
					return;
				case "restart":
					sessions.clear();
					return;
				case "delivered": {
					const s = state(event.session);
					s.lastInjectedAt = event.at;
					s.awaiting = true;
					s.observed = false;
					s.block = null;
					s.failures = 0;
					s.inFlight = false;
					s.injections++;
					return;
				}
				case "delivery-failed": {
					const s = state(event.session);
					s.failures++;
					s.lastInjectedAt = event.at;
					s.inFlight = false;
					return;
				}
				default:
					return;
			}
		},
		decide(facts: IdleFacts): Answer {
			const s = state(facts.session);
			const skip = (reason: string): Answer => ({ kind: "skip", reason });
			if (s.wasCancelled) return skip("cancelled");
			if (s.tokenLimit) return skip("token-limit");
			if (s.abortAt !== undefined) {
				const recent = facts.now - s.abortAt < ABORT_WINDOW_MS;
				s.abortAt = undefined;
				if (recent) return skip("abort-window");
			}
			if (facts.backgroundTasks > 0) return skip("background");
			if (s.lastAssistantAborted) return skip("last-message-aborted");
			if (facts.pendingQuestion) return skip("pending-question");
			if (facts.busy) return skip("turn-active");
			if (facts.todos.length === 0 || incompleteCount(facts.todos) === 0) {
				resetProgress(s);
				return skip("no-incomplete");
			}
			if (s.inFlight) return skip("in-flight");
			if (
				s.failures >= MAX_FAILURES &&
				s.lastInjectedAt !== undefined &&
				facts.now - s.lastInjectedAt >= FAILURE_RESET_MS
			) {
				s.failures = 0;
			}
			if (s.failures >= MAX_FAILURES) return skip("max-failures");
			const cooldown = COOLDOWN_MS * 2 ** Math.min(s.failures, 5);
			if (s.lastInjectedAt !== undefined && facts.now - s.lastInjectedAt < cooldown) return skip("cooldown");
			if (facts.latestIsCompaction) return skip("compaction");
			if (SKIP_AGENTS.includes(facts.agent.toLowerCase())) return skip("skip-agent");
			if (stopped.has(facts.session)) return skip("stopped");
			trackProgress(s, facts.todos);
			if (s.block) return skip(`paused: ${s.block}`);
			if (s.stagnation >= MAX_STAGNATION) return skip("stagnation");
			const key = `omo:${facts.session}:${s.injections}`;
			s.countdown = key;
			const traits = { ...OMO_TRAITS, delegates: facts.orchestrating };
			return { kind: "inject", key, text: omoPrompt(facts.todos), traits };
		},
		confirm(key: string, facts: IdleFacts): boolean {
			const s = state(facts.session);
			if (s.countdown !== key) return false;
			s.countdown = null;
			if (s.wasCancelled || s.block || stopped.has(facts.session)) return false;
			if (facts.backgroundTasks > 0 || facts.busy || incompleteCount(facts.todos) === 0) return false;
			if (facts.readOnly) return false;
			s.inFlight = true;
			return true;
		},
		subagentResult: (result) => result.parent.orchestrating,
	};
}

/** Our own wording of what the enforcer's prompt asks, with its status line and remaining list. */
function omoPrompt(todos: readonly SimTodo[]): string {
	const incomplete = incompleteCount(todos);
	const remaining = todos
		.filter((todo) => todo.status !== "completed" && todo.status !== "cancelled")
		.map((todo) => `- [${todo.status}] ${todo.content}`);
	return [
		"[todo continuation] Items on your list are not finished. Go on with the next pending one without asking.",
		"Mark each item completed as you finish it and keep going until all are done; if you think they all are, check each again and fix the list.",
		`[Status: ${todos.length - incomplete}/${todos.length} completed, ${incomplete} remaining]`,
		"Remaining:",
		...remaining,
	].join("\n");
}
