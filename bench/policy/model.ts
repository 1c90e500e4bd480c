/**
 * What every policy under test sees and answers: the event stream a plugin of
 * a coding harness would see (turns, tool activity, todo lists, questions,
 * aborts, background tasks, compaction, restarts, deliveries) and, at each
 * idle, the facts it could read. A policy answers inject or skip.
 *
 * Contract: policies see only these events and facts, never the simulator's
 * ground truth (the oracle used by the tests is the one exception, and says so).
 */
import type { TodoStatus } from "../../src/core/todos.js";

/** Who started a turn, as the harness shows it. */
export type TurnSource =
	/** A real message from the user (a request, an answer, a status question). */
	| "user"
	/** A nudge of the policy under test. */
	| "nudge"
	/** The harness woke the session: background work or subagents finished. */
	| "wake"
	/** The harness came back after a restart and resumed the session. */
	| "restart"
	/** The harness compacted the context and continued on its own. */
	| "compaction";

export type Outcome = "end" | "aborted" | "error" | "context-overflow";

/** Real spend of a turn: cache reads are not spend. */
export interface Spend {
	input: number;
	output: number;
	cacheWrite: number;
}

/** An item as the harness shows it (the agent's own list). */
export interface SimTodo {
	id: string;
	content: string;
	status: TodoStatus;
}

export type HarnessEvent =
	| { type: "session-created"; session: string; parent: string | null; agent: string; readOnly: boolean; at: number }
	| { type: "turn-start"; session: string; source: TurnSource; at: number }
	/** The agent started answering (an assistant message appeared). */
	| { type: "assistant"; session: string; at: number }
	/** A tool call that changed something: an edit or a command. */
	| { type: "activity"; session: string; tool: "edit" | "bash"; at: number }
	| { type: "todos"; session: string; todos: SimTodo[]; at: number }
	/** The question tool: asked (waits for the user) or answered. */
	| { type: "question"; session: string; state: "asked" | "answered"; at: number }
	| {
			type: "turn-end";
			session: string;
			outcome: Outcome;
			spend: Spend;
			/** Size of the last model call's context (what a "tokens" field of a message often holds). */
			lastCallTokens: number;
			text: string;
			at: number;
	  }
	/** The running turn was aborted (Esc, or a restart tearing it down: the event looks the same). */
	| { type: "abort"; session: string; at: number }
	| { type: "background"; session: string; running: number; at: number }
	| { type: "compacted"; session: string; at: number }
	/** The user's explicit stop: the tool's own stop command where it has one. */
	| { type: "stop-command"; session: string; at: number }
	/** The harness is about to restart (a SIGTERM a plugin may catch). */
	| { type: "shutdown"; at: number }
	/** The harness restarted: every plugin process is new; only what they persisted survives. */
	| { type: "restart"; at: number }
	| { type: "delivered"; session: string; key: string; at: number }
	| { type: "delivery-failed"; session: string; key: string; at: number };

/** What a plugin can read when a session goes idle. */
export interface IdleFacts {
	session: string;
	subagent: boolean;
	agent: string;
	/** The session's agent may not edit or write (an explorer, a reviewer). */
	readOnly: boolean;
	todos: SimTodo[];
	lastAssistantText: string | null;
	/** A question tool call waits for the user. */
	pendingQuestion: boolean;
	backgroundTasks: number;
	/** The session status says busy (a stale idle event arrived after a new turn started). */
	busy: boolean;
	/** The latest message is a compaction summary, with nothing after it yet. */
	latestIsCompaction: boolean;
	/** The session is the orchestrator of a plan that asks for orchestrate mode (its front matter says so). */
	orchestrating: boolean;
	/** Its running subagents, by session, agent type and start: what a plugin can list. */
	background: { id: string; agent: string; startedAt: number }[];
	/** The harness's own cap on continuations in a row, and the prompt's run against it; null: it has none. */
	harnessCap: { limit: number; inRow: number } | null;
	now: number;
}

/** A subagent's result as it reaches its parent: a hook may add a note to it (never a turn of its own). */
export interface SubagentResult {
	parent: IdleFacts;
	child: string;
	agent: string;
	/** The task description the parent gave it (the item's title). */
	description: string;
}

/** What the agent can tell from a nudge's text; the agents react to these. */
export interface PromptTraits {
	/** Names the next open items. */
	namesItems: boolean;
	/** Asks the agent to mark items done as it finishes them. */
	asksToMark: boolean;
	/** Tells the agent to mark an item it cannot do as blocked or cancelled. */
	blockedHint: boolean;
	/** A phrase the agent must print to be let go. */
	completionPhrase: string | null;
	/** Asks an orchestrator to delegate the open items rather than do them itself. */
	delegates?: boolean;
	/** Names a subagent that has run past its time limit and asks to treat it as failed. */
	namesOverdue?: boolean;
}

export type Answer =
	| { kind: "inject"; key: string; text: string; traits: PromptTraits }
	| { kind: "skip"; reason: string; retryAt?: number };

/** A request to be asked again at `at` if the session is still idle then. */
export interface Recheck {
	session: string;
	at: number;
}

export interface Policy {
	readonly name: string;
	/** Pause between the decision and the delivery, in which user activity cancels the nudge. */
	readonly countdownMs: number;
	/** Traits of the user's first request under this tool (a loop command may add a completion phrase). */
	readonly requestTraits?: PromptTraits;
	observe(event: HarnessEvent): Recheck | undefined;
	decide(facts: IdleFacts): Answer;
	/** Last check when the countdown ends; false drops the nudge. */
	confirm?(key: string, facts: IdleFacts): boolean;
	/** The session is about to change a file: true when a reminder to update its list rides on the tool's result. */
	fileChange?(facts: IdleFacts): boolean;
	/** A subagent returned to its parent: true when the policy adds a note asking the parent to check the work. */
	subagentResult?(result: SubagentResult): boolean;
}

/** Ground truth, for the oracle only. */
export interface Truth {
	finishableLeft: number;
	questionPending: boolean;
	abortedSinceUser: boolean;
	stopped: boolean;
	/** Running subagents and jobs of the main session that will finish or are still within their time limit. */
	backgroundRunning: number;
	/** A wedged subagent has run past its time limit (the parent should be told). */
	overdue: boolean;
	/** When a wedged subagent still within its limit runs past it. */
	nextDeadline: number | null;
	overflow: boolean;
	/** The profile's agent cannot make progress at all. */
	stuck: boolean;
	/** Identifies the current idle of the main session. */
	idleSeq: number;
}

export const NO_TRAITS: PromptTraits = {
	namesItems: false,
	asksToMark: false,
	blockedHint: false,
	completionPhrase: null,
};
