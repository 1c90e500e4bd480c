/**
 * A model of typeclaw's todo continuation, from its documented behaviour
 * (reference: anchor-typeclaw.md §3: the policy §3.1, state transitions
 * §3.2, persist-then-deliver §3.3, wiring §3.4, the TUI flow §3.5, restart
 * recovery §3.6; subagent wake-ups §4).
 *
 * Modelled as documented, bugs included:
 * - persisted state per scope; subagent sessions have no scope (never continued);
 * - budgets per episode: 3 automatic turns, 25 000 "tokens", 30 minutes;
 *   the tokens folded in at each decision are the last model call's total,
 *   i.e. the size of the context, not the spend;
 * - stagnation: the hash of the incomplete items (id, status, content) equal
 *   to the last one adds 1; the count never resets; the limit is 2;
 * - only the continuation's own turns are not "real": a user message, the
 *   restart kick, a subagent-completion wake and a compaction all reset the
 *   episode and lift the abort block (the TUI drain's rule);
 * - an aborted turn arms the durable abort block unless a restart marked it
 *   (SIGTERM handler); `error` and `length` turns may be continued; unknown
 *   or aborted ones may not;
 * - no check for background work or for questions in plain text; no wait
 *   before the nudge (it is queued straight into the drain loop).
 *
 * Readings most favourable to the tool: the drain decides once per turn end,
 * so paired idle events give one decision; a question tool call blocks inside
 * the turn, so a pending question counts as a running turn; the user's stop is
 * its `/stop`, taken to arm the durable abort block even between turns;
 * `blocked` is not one of its statuses, so such items are dropped as invalid.
 *
 * Not modelled: its subagent runtime's spawn timeout (§4), which settles a
 * wedged subagent as failed and wakes the parent. It is set per subagent
 * definition (30 min for the researcher, reviewer and planner; none for the
 * operator, explorer and scout), and the benchmark's subagents are general
 * workers, the operator's kind, so no ceiling would apply to them.
 */
import { createHash } from "node:crypto";
import type { Answer, HarnessEvent, IdleFacts, Outcome, Policy, PromptTraits, Recheck, SimTodo } from "../model.js";

export const TYPECLAW_LIMITS = { maxAutoTurns: 3, maxTokens: 25_000, maxWallClockMs: 30 * 60_000, stagnationLimit: 2 };

export const TYPECLAW_TRAITS: PromptTraits = {
	namesItems: false,
	asksToMark: true,
	blockedHint: false,
	completionPhrase: null,
};

type StopReason = "stop" | "aborted" | "error" | "unknown";

interface Episode {
	startedAt: number;
	autoTurns: number;
	tokens: number;
	stagnation: number;
	lastHash: string | null;
}

interface ScopeState {
	episode: Episode | null;
	lastOutcome: { stopReason: StopReason; tokens: number } | null;
	abortBlock: boolean;
	restartAbortPending: boolean;
	turnEnds: number;
	decidedAt: number;
}

const STOP_REASON: Record<Outcome, StopReason> = {
	end: "stop",
	aborted: "aborted",
	error: "error",
	"context-overflow": "error",
};

export function incompleteHash(todos: readonly SimTodo[]): string {
	const items = todos
		.filter((todo) => todo.status === "pending" || todo.status === "in_progress")
		.map((todo) => ({ id: todo.id, status: todo.status, content: todo.content.replace(/\s+/g, " ").trim() }))
		.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return createHash("sha256").update(JSON.stringify(items)).digest("hex");
}

export function typeclawPolicy(): Policy {
	const scopes = new Map<string, ScopeState>();
	const children = new Set<string>();
	const scope = (session: string): ScopeState => {
		let found = scopes.get(session);
		if (!found) {
			found = {
				episode: null,
				lastOutcome: null,
				abortBlock: false,
				restartAbortPending: false,
				turnEnds: 0,
				decidedAt: -1,
			};
			scopes.set(session, found);
		}
		return found;
	};
	return {
		name: "typeclaw",
		countdownMs: 0,
		observe(event: HarnessEvent): Recheck | undefined {
			switch (event.type) {
				case "session-created":
					if (event.parent !== null) children.add(event.session);
					return;
				case "turn-start": {
					if (event.source === "nudge") return;
					const s = scope(event.session);
					s.episode = null;
					s.abortBlock = false;
					s.restartAbortPending = false;
					return;
				}
				case "turn-end": {
					const s = scope(event.session);
					s.lastOutcome = { stopReason: STOP_REASON[event.outcome], tokens: event.lastCallTokens };
					if (event.outcome === "aborted" && !s.restartAbortPending) s.abortBlock = true;
					s.restartAbortPending = false;
					s.turnEnds++;
					return;
				}
				case "stop-command":
					scope(event.session).abortBlock = true;
					return;
				case "shutdown":
					for (const s of scopes.values()) s.restartAbortPending = true;
					return;
				default:
					return;
			}
		},
		decide(facts: IdleFacts): Answer {
			const skip = (reason: string): Answer => ({ kind: "skip", reason });
			if (facts.subagent || children.has(facts.session)) return skip("no-scope");
			const s = scope(facts.session);
			if (s.decidedAt === s.turnEnds) return skip("already-decided");
			s.decidedAt = s.turnEnds;
			const open = facts.todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress");
			if (open.length === 0) return skip("no-incomplete-todos");
			if (s.abortBlock) return skip("user-abort-blocked");
			const outcome = s.lastOutcome;
			if (!outcome || outcome.stopReason === "unknown" || outcome.stopReason === "aborted" || facts.pendingQuestion) {
				return skip("turn-not-safe");
			}
			const base: Episode = s.episode ?? {
				startedAt: facts.now,
				autoTurns: 0,
				tokens: 0,
				stagnation: 0,
				lastHash: null,
			};
			const tokens = base.tokens + outcome.tokens;
			if (base.autoTurns >= TYPECLAW_LIMITS.maxAutoTurns) return skip("max-auto-turns");
			if (tokens >= TYPECLAW_LIMITS.maxTokens) return skip("max-tokens");
			if (facts.now - base.startedAt >= TYPECLAW_LIMITS.maxWallClockMs) return skip("max-wall-clock");
			const hash = incompleteHash(facts.todos);
			const stagnation = base.stagnation + (hash === base.lastHash ? 1 : 0);
			if (stagnation >= TYPECLAW_LIMITS.stagnationLimit) return skip("stagnation");
			s.episode = { ...base, autoTurns: base.autoTurns + 1, tokens, stagnation, lastHash: hash };
			return {
				kind: "inject",
				key: `typeclaw:${facts.session}:${s.turnEnds}`,
				text: "---\n[system message, not from a human] Items on your todo list are still incomplete. Carry on with the next pending one without asking; mark each completed or cancelled with the todo tool. If you think all are done, look at each again and check it really landed. Do not reply to this notice.\n---",
				traits: TYPECLAW_TRAITS,
			};
		},
	};
}
