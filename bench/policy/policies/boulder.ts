/**
 * boulder's own policy, through the same pure core the adapters use: `decide`
 * at every idle and the turn transitions (`onTurnStart`, `onActivity`,
 * `onTurnEnd`, `onUserAbort`, `onDelivered`, `onDeliveryFailed`) on every
 * event, with the default config. Reference: DESIGN.md, "The decision on idle".
 *
 * The adapter mapping, written the way an engine would do it:
 * - state is per session and persisted (a restart loses nothing);
 * - provenance: user → `user`; a harness wake or compaction → `system`; the
 *   restart kick → `restart`; our own nudge → `onDelivered` starts the turn;
 * - the SIGTERM before a restart calls `onRestart`, which is how the core
 *   marks the coming abort as the restart's and the interrupted turn's idle
 *   as stale;
 * - activity counts file changes only (edits), as the adapters report it;
 * - an abort event → `onUserAbort(interrupt)`; the aborted turn end that
 *   always follows it is the same fact and is not booked twice;
 * - the stop command sets `disabled` (what `boulder stop` persists);
 * - a failed delivery asks to be decided again, and a `backoff` skip's
 *   `retryAt` becomes a timer, as the engine's retry does;
 * - running subagents are passed with their start, so the watchdog can stop
 *   waiting for one past its limit; the nudge then names it;
 * - a session whose plan asks for orchestrate mode reads its list as that
 *   plan: the continuation asks to delegate, and the verification note rides
 *   on each subagent's result (the core's `delegatedVerifyNote`);
 * - each file change goes through the core's todo hygiene, whose reminder
 *   rides on that tool's result;
 * - a harness's own continuation cap, where it has one, is the idle fact the
 *   Qwen Code and Copilot CLI adapters read from their transcripts.
 */
import type { Config } from "../../../src/core/config.js";
import { DEFAULT_CONFIG } from "../../../src/core/default-config.js";
import { changeMark, onFileChange } from "../../../src/core/hygiene.js";
import { delegatedItem, delegatedVerifyNote } from "../../../src/core/orchestrate.js";
import type { PlanItem } from "../../../src/core/plan-body.js";
import { decide, type SessionFacts } from "../../../src/core/policy.js";
import {
	type ContinuationState,
	emptyContinuationState,
	onActivity,
	onDelivered,
	onDeliveryFailed,
	onRestart,
	onTurnEnd,
	onTurnStart,
	onUserAbort,
	type Provenance,
	type TurnOutcome,
} from "../../../src/core/turns.js";
import { overdueTasks } from "../../../src/core/watchdog.js";
import { todosView, type WorkView } from "../../../src/core/work-view.js";
import type {
	Answer,
	HarnessEvent,
	IdleFacts,
	Outcome,
	Policy,
	PromptTraits,
	Recheck,
	SimTodo,
	SubagentResult,
	TurnSource,
} from "../model.js";

export const BOULDER_TRAITS: PromptTraits = {
	namesItems: true,
	asksToMark: true,
	blockedHint: true,
	completionPhrase: null,
};

const PROVENANCE: Record<Exclude<TurnSource, "nudge">, Provenance> = {
	user: "user",
	wake: "system",
	compaction: "system",
	restart: "restart",
};

const OUTCOME: Record<Outcome, TurnOutcome> = {
	end: "end",
	aborted: "aborted",
	error: "error",
	"context-overflow": "context-overflow",
};

export function boulderPolicy(config: Config = DEFAULT_CONFIG): Policy {
	const states = new Map<string, ContinuationState>();
	const get = (session: string) => states.get(session) ?? emptyContinuationState();
	const set = (session: string, state: ContinuationState) => states.set(session, state);
	// Each session's tally marks, as the store keeps them (`Store.tally`).
	const tallies = new Map<string, string[]>();
	return {
		name: "boulder",
		countdownMs: config.countdownMs,
		observe(event: HarnessEvent): Recheck | undefined {
			switch (event.type) {
				case "turn-start":
					if (event.source !== "nudge")
						set(event.session, onTurnStart(get(event.session), PROVENANCE[event.source], event.at));
					return;
				case "activity":
					// Only file changes are activity to boulder: commands alone earn no grace.
					if (event.tool === "edit") set(event.session, onActivity(get(event.session), 1));
					return;
				case "turn-end":
					if (event.outcome === "aborted") return;
					set(
						event.session,
						onTurnEnd(get(event.session), { outcome: OUTCOME[event.outcome], spend: event.spend }, event.at),
					);
					return;
				case "abort":
					set(event.session, onUserAbort(get(event.session), "interrupt", event.at));
					return;
				case "stop-command":
					set(event.session, { ...get(event.session), disabled: { at: event.at, by: "the user's stop command" } });
					return;
				case "shutdown":
					for (const [session, state] of states) set(session, onRestart(state));
					return;
				case "delivered":
					set(event.session, onDelivered(get(event.session), event.key, event.at));
					return;
				case "delivery-failed":
					set(event.session, onDeliveryFailed(get(event.session), event.key, event.at));
					return { session: event.session, at: event.at };
				default:
					return;
			}
		},
		decide(facts: IdleFacts): Answer {
			const sessionFacts: SessionFacts = {
				subagent: facts.subagent,
				agent: facts.agent,
				pendingInput: facts.pendingQuestion ? { kind: "question" } : null,
				lastAssistantText: facts.lastAssistantText,
				backgroundTasks: facts.backgroundTasks,
				background: facts.background.map((task) => ({ id: task.id, agent: task.agent, startedAt: task.startedAt })),
				harnessCap: facts.harnessCap ? { harness: "the harness", ...facts.harnessCap, lift: null } : null,
			};
			const decision = decide({
				state: get(facts.session),
				work: workOf(facts, config),
				facts: sessionFacts,
				config,
				now: facts.now,
				scope: facts.session,
			});
			set(facts.session, decision.next);
			if (decision.kind === "inject" && decision.key) {
				const traits: PromptTraits = {
					...BOULDER_TRAITS,
					delegates: facts.orchestrating,
					namesOverdue: overdueTasks(sessionFacts.background ?? [], config.watchdog, facts.now).length > 0,
				};
				return { kind: "inject", key: decision.key, text: decision.text ?? "", traits };
			}
			return decision.retryAt === null
				? { kind: "skip", reason: decision.reason }
				: { kind: "skip", reason: decision.reason, retryAt: decision.retryAt };
		},
		fileChange(facts: IdleFacts): boolean {
			// A subagent's list is its own business: never reminded.
			if (facts.subagent) return false;
			const threshold = config.hygiene.editsBeforeReminder || 0;
			if (facts.todos.length === 0 || threshold === 0) return false;
			const list = todosView(facts.todos, config.nextItems);
			if (list.counts.open === 0) return false;
			const marks = tallies.get(facts.session) ?? [];
			marks.push(changeMark(list, false));
			tallies.set(facts.session, marks);
			return onFileChange(marks.slice(-(threshold + 1)), { list }, threshold) !== null;
		},
		subagentResult(result: SubagentResult): boolean {
			if (!result.parent.orchestrating) return false;
			const item = delegatedItem(result.parent.todos.map(planItemOf), result.description);
			return item !== null && delegatedVerifyNote(item, result.child) !== "";
		},
	};
}

/** The session's list as the core reads it; an orchestrator's list is its plan, in orchestrate mode. */
function workOf(facts: IdleFacts, config: Config): WorkView | null {
	if (facts.todos.length === 0) return null;
	const view = todosView(facts.todos, config.nextItems);
	return facts.orchestrating ? { ...view, orchestrate: { subagents: {} } } : view;
}

/** A list item as a plan item with no acceptance criteria: what the verification note is built from. */
function planItemOf(todo: SimTodo): PlanItem {
	return { title: todo.content, status: todo.status, line: 0, criteria: [], section: null };
}
