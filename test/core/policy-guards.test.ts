import { describe, expect, it } from "vitest";
import { decide } from "../../src/core/policy.js";
import {
	type ContinuationState,
	emptyContinuationState,
	onDelivered,
	onDeliveryFailed,
	onRestart,
	onTurnEnd,
	onTurnStart,
	onUserAbort,
	onVerified,
} from "../../src/core/turns.js";
import { afterTurn, config, idle, T0, view } from "./builders.js";

const open = view("x..");

describe("the decision on idle, guard by guard", () => {
	it("injects when work is open after a finished user turn", () => {
		const decision = idle(afterTurn(), open);
		expect(decision.kind).toBe("inject");
		expect(decision.reason).toBe("continue");
		expect(decision.text).toContain("1 of 3 done");
		expect(decision.text).toContain("task 2");
	});

	describe("1 disabled", () => {
		it("fires when the config turns continuation off", () => {
			expect(idle(afterTurn(), open, { config: config({ enabled: false }) }).reason).toBe("disabled");
		});
		it("fires when the user stopped this scope", () => {
			const state = { ...afterTurn(), disabled: { at: T0, by: "boulder stop" } };
			expect(idle(state, open).reason).toBe("disabled");
		});
		it("fires when the worktree is stopped, and says who stopped it", () => {
			const decision = idle(afterTurn(), open, {
				facts: { switchedOff: { kind: "worktree-stopped", by: "`boulder stop`" } },
			});
			expect(decision.reason).toBe("disabled");
			expect(decision.detail).toContain("`boulder stop`");
		});
		it("fires when the work is paused, and names the work", () => {
			const decision = idle(afterTurn(), open, { facts: { switchedOff: { kind: "work-paused", work: "Settings" } } });
			expect(decision.reason).toBe("disabled");
			expect(decision.detail).toContain('"Settings" is paused');
		});
		it("fires when the works file is unreadable (fail closed)", () => {
			const decision = idle(afterTurn(), open, { facts: { switchedOff: { kind: "works-unreadable", movedTo: null } } });
			expect(decision.reason).toBe("disabled");
			expect(decision.detail).toContain("boulder doctor");
		});
		it("lets the next guard answer when nothing is turned off", () => {
			expect(idle(afterTurn(), open, { facts: { subagent: true } }).reason).toBe("not-eligible");
		});
	});

	describe("2 not-eligible", () => {
		it("fires for a subagent session", () => {
			expect(idle(afterTurn(), open, { facts: { subagent: true } }).reason).toBe("not-eligible");
		});
		it("fires for a skip-listed agent, whatever its case", () => {
			expect(idle(afterTurn(), open, { facts: { agent: "Plan" } }).reason).toBe("not-eligible");
		});
		it("fires when the active work is bound to another session and this one has no list", () => {
			const owner = { work: "Settings", harness: "claude-code", sessionId: "ses_other" };
			const decision = idle(afterTurn(), null, { facts: { boundElsewhere: owner } });
			expect(decision.reason).toBe("not-eligible");
			expect(decision.detail).toContain("ses_other");
			expect(decision.detail).toContain('"Settings"');
		});
		it("lets a session with a list of its own roll it while another session owns the plan", () => {
			const owner = { work: "Settings", harness: "claude-code", sessionId: "ses_other" };
			expect(idle(afterTurn(), open, { facts: { boundElsewhere: owner } }).kind).toBe("inject");
		});
		it("lets the next guard answer for an eligible session", () => {
			expect(idle(afterTurn(), view("xx"), { facts: { agent: "build" } }).reason).toBe("complete");
		});
	});

	describe("3 no-open-work", () => {
		it("fires, naming the file, when the bound plan is missing, unreadable or has errors", () => {
			for (const [problem, words] of [
				["missing", "plan.md is missing"],
				["unreadable", "plan.md cannot be read: not a regular file"],
				["errors", "plan.md has errors: line 3"],
			] as const) {
				const planUnusable = {
					path: "plan.md",
					problem,
					detail: problem === "errors" ? "line 3" : "not a regular file",
				};
				const decision = idle(afterTurn(), open, { facts: { planUnusable } });
				expect([decision.reason, decision.detail]).toEqual(["no-open-work", expect.stringContaining(words)]);
			}
		});
		it("never completes a plan with errors, even when every item it could read is done", () => {
			const planUnusable = { path: "plan.md", problem: "errors" as const, detail: "an unclosed fence" };
			expect(idle(afterTurn(), view("xx"), { facts: { planUnusable } }).kind).toBe("skip");
		});
		it("fires when there is no list", () => {
			expect(idle(afterTurn(), null).reason).toBe("no-open-work");
			expect(idle(afterTurn(), view("")).reason).toBe("no-open-work");
		});
		it("answers complete once when everything is done", () => {
			const first = idle(afterTurn(), view("xx-"));
			expect(first.kind).toBe("complete");
			expect(first.text).toContain("complete");
			const again = idle(first.next, view("xx-"));
			expect(again.kind).toBe("skip");
			expect(again.reason).toBe("no-open-work");
		});
		it("does not complete, nor nudge, a list whose only remaining items are blocked", () => {
			const decision = idle(afterTurn(), view("x~~"));
			expect(decision.kind).toBe("skip");
			expect(decision.reason).toBe("no-open-work");
			expect(decision.detail).toContain("blocked");
		});
		it("asks for verification before completing work that has verify commands", () => {
			const work = { ...view("xx"), verify: ["npm test"] };
			expect(idle(afterTurn(), work).kind).toBe("verify");
		});
		it("completes once verification passed", () => {
			const work = { ...view("xx"), verify: ["npm test"] };
			const verified = onVerified(
				afterTurn(),
				{ fingerprint: work.fingerprint, passed: true, command: null, exitCode: 0, output: "" },
				T0,
			);
			const decision = idle(verified, work);
			expect(decision.kind).toBe("complete");
			expect(decision.text).toContain("verified");
		});
		it("sends the failure back when verification failed", () => {
			const work = { ...view("xx"), verify: ["npm test"] };
			const verified = onVerified(
				afterTurn(),
				{ fingerprint: work.fingerprint, passed: false, command: "npm test", exitCode: 1, output: "1 failing" },
				T0,
			);
			const decision = idle(verified, work);
			expect(decision.kind).toBe("inject");
			expect(decision.reason).toBe("verify-failed");
			expect(decision.text).toContain("1 failing");
			expect(decision.text).toContain("npm test");
		});
		it("verifies again after a turn that followed a failed verification", () => {
			const work = { ...view("xx"), verify: ["npm test"] };
			const failed = onVerified(
				afterTurn(),
				{ fingerprint: work.fingerprint, passed: false, command: "npm test", exitCode: 1, output: "1 failing" },
				T0,
			);
			const nudge = idle(failed, work);
			const next = onTurnEnd(onDelivered(nudge.next, nudge.key ?? "", T0 + 3000), { outcome: "end" }, T0 + 4000);
			expect(idle(next, work, { now: T0 + 5000 }).kind).toBe("verify");
		});
		it("lets the next guard answer while items are open", () => {
			const aborted = afterTurn("user", { outcome: "aborted" });
			expect(idle(aborted, open).reason).toBe("user-aborted");
		});
	});

	describe("4 user-aborted", () => {
		it("fires after an abort, and keeps firing after later non-user turns", () => {
			let state = afterTurn("user", { outcome: "aborted" });
			expect(idle(state, open).reason).toBe("user-aborted");
			state = afterTurn("system", { outcome: "end" }, state);
			expect(idle(state, open).reason).toBe("user-aborted");
		});
		it("fires after an interrupt (Esc) seen later", () => {
			const state = onUserAbort(afterTurn(), "interrupt", T0 + 1500);
			const decision = idle(state, open);
			expect(decision.reason).toBe("user-aborted");
			expect(decision.detail).toContain("interrupted");
		});
		it("is lifted by a real user turn", () => {
			const state = afterTurn("user", { outcome: "end" }, afterTurn("user", { outcome: "aborted" }));
			expect(idle(state, open).kind).toBe("inject");
		});
		it("lets the next guard answer without an abort", () => {
			expect(idle(afterTurn(), open, { facts: { pendingInput: { kind: "question" } } }).reason).toBe("awaiting-user");
		});
	});

	describe("5 awaiting-user", () => {
		it("fires while a question or permission is pending", () => {
			expect(idle(afterTurn(), open, { facts: { pendingInput: { kind: "permission" } } }).reason).toBe("awaiting-user");
		});
		it("fires when the last message asks the user to choose", () => {
			const facts = { lastAssistantText: "I can use Postgres or SQLite. Which would you prefer?" };
			expect(idle(afterTurn(), open, { facts }).reason).toBe("awaiting-user");
		});
		it("does not read the last message when question detection is off", () => {
			const facts = { lastAssistantText: "Which would you prefer?" };
			expect(idle(afterTurn(), open, { facts, config: config({ questionDetection: false }) }).kind).toBe("inject");
		});
		it("lets the next guard answer when nobody is being asked", () => {
			const running = onTurnStart(afterTurn(), "system", T0 + 1500);
			expect(idle(running, open, { facts: { lastAssistantText: "Done with task 1." } }).reason).toBe("turn-unsafe");
		});
	});

	describe("6 turn-unsafe", () => {
		it("fires when the adapter could not see how the turn went, and says why", () => {
			const decision = idle(afterTurn(), open, { facts: { turnUnseen: "the transcript is not a regular file" } });
			expect([decision.reason, decision.detail]).toEqual([
				"turn-unsafe",
				"how the last turn went cannot be seen: the transcript is not a regular file",
			]);
		});
		it("fires when no turn was seen", () => {
			expect(idle(emptyContinuationState(), open).reason).toBe("turn-unsafe");
		});
		it("fires while the turn is still running", () => {
			expect(idle(onTurnStart(emptyContinuationState(), "user", T0), open).reason).toBe("turn-unsafe");
		});
		it("fires when the last turn's outcome is unknown", () => {
			expect(idle(afterTurn("user", { outcome: "unknown" }), open).reason).toBe("turn-unsafe");
		});
		it("fires once for the stale idle a restart left behind, then lets it go", () => {
			const restarted = onRestart(afterTurn());
			const first = idle(restarted, open);
			expect(first.reason).toBe("turn-unsafe");
			expect(first.detail).toContain("restart");
			expect(idle(first.next, open).kind).toBe("inject");
		});
		it("lets the restart's own turn be decided normally when it ends", () => {
			const kicked = afterTurn("restart", { outcome: "end" }, onRestart(afterTurn()));
			expect(idle(kicked, open).kind).toBe("inject");
		});
		it("lets the next guard answer after a safe turn", () => {
			expect(idle(afterTurn("user", { outcome: "context-overflow" }), open).reason).toBe("context-overflow");
		});
	});

	describe("7 context-overflow", () => {
		it("fires when the last turn ran out of context", () => {
			expect(idle(afterTurn("user", { outcome: "context-overflow" }), open).reason).toBe("context-overflow");
		});
		it("lets the next guard answer after a turn cut by the output length", () => {
			expect(idle(afterTurn("user", { outcome: "length" }), open).kind).toBe("inject");
		});
	});

	describe("8 background-busy", () => {
		it("fires while background tasks run", () => {
			expect(idle(afterTurn(), open, { facts: { backgroundTasks: 2 } }).reason).toBe("background-busy");
		});
		it("lets the next guard answer once they finish", () => {
			const first = idle(afterTurn(), open);
			expect(idle(first.next, open, { facts: { backgroundTasks: 0 } }).reason).toBe("duplicate");
		});
	});

	describe("9 duplicate", () => {
		it("answers duplicate to a second idle for the same turn", () => {
			const first = idle(afterTurn(), open);
			expect(first.kind).toBe("inject");
			const second = idle(first.next, open);
			expect(second.reason).toBe("duplicate");
			expect(second.key).toBe(first.key);
		});
		it("keeps the pending nudge's record through the duplicate skip", () => {
			const first = idle(afterTurn(), open);
			const second = idle(first.next, open);
			expect(second.next.lastDecision?.delivery).toBe("pending");
			expect(onDelivered(second.next, first.key ?? "", T0 + 3000).turn?.provenance).toBe("continuation");
		});
		it("lets the next guard answer after the delivery failed", () => {
			const first = idle(afterTurn(), open);
			const failed = onDeliveryFailed(first.next, first.key ?? "", T0 + 2500);
			expect(idle(failed, open, { now: T0 + 2600 }).reason).toBe("backoff");
		});
	});

	describe("10 backoff", () => {
		it("waits base × 2^(failures−1) after failures and says until when", () => {
			let state = afterTurn("user", { outcome: "error" });
			state = afterTurn("system", { outcome: "error" }, state);
			const lastAt = state.failures?.lastAt ?? 0;
			const decision = idle(state, open, { now: lastAt + 1000 });
			expect(decision.reason).toBe("backoff");
			expect(decision.retryAt).toBe(lastAt + 10_000);
		});
		it("caps the wait", () => {
			let state = afterTurn("user", { outcome: "error" });
			for (let i = 0; i < 20; i++) state = afterTurn("system", { outcome: "error" }, state);
			const lastAt = state.failures?.lastAt ?? 0;
			expect(idle(state, open, { now: lastAt }).retryAt).toBe(lastAt + 5 * 60_000);
		});
		it("lets the next guard answer once the wait is over", () => {
			const state = afterTurn("user", { outcome: "error" });
			const lastAt = state.failures?.lastAt ?? 0;
			expect(idle(state, open, { now: lastAt + 5000 }).kind).toBe("inject");
		});
	});

	describe("10 backoff: giving up", () => {
		const nudgedTurn = (state: ReturnType<typeof afterTurn>, outcome: "end" | "error", at: number, activity = 0) => {
			const decision = idle(state, open, { now: at });
			if (decision.kind !== "inject" || !decision.key) return { decision, state: decision.next };
			const delivered = onDelivered(decision.next, decision.key, at);
			return { decision, state: onTurnEnd(delivered, { outcome, activity }, at + 1000) };
		};
		it("does not count a nudge whose turn died on an API error as stagnation", () => {
			let state = afterTurn();
			let at = T0 + 10_000;
			for (let i = 0; i < 4; i++) {
				({ state } = nudgedTurn(state, "error", at));
				at += 10 * 60_000;
			}
			expect(idle(state, open, { now: at }).kind).toBe("inject");
			expect(state.episode?.stagnation).toBe(0);
		});
		it("gives up after too many nudged turns lost to API errors, until the user writes", () => {
			let state = afterTurn();
			let at = T0 + 10_000;
			for (let i = 0; i < 6; i++) {
				({ state } = nudgedTurn(state, "error", at));
				at += 10 * 60_000;
			}
			const decision = idle(state, open, { now: at });
			expect(decision.reason).toBe("backoff");
			expect(decision.detail).toContain("gave up");
			expect(decision.retryAt).toBeNull();
			expect(idle(afterTurn("user", { outcome: "end" }, state), open, { now: at }).kind).toBe("inject");
		});
		it("gives up after too many failed deliveries in a row", () => {
			let state = afterTurn();
			let at = T0 + 10_000;
			for (let i = 0; i < 6; i++) {
				const decision = idle(state, open, { now: at });
				state = onDeliveryFailed(decision.next, decision.key ?? "", at);
				at += 10 * 60_000;
			}
			expect(idle(state, open, { now: at }).detail).toContain("gave up after 6 failed deliveries");
		});
		it("refills the activity grace on real progress", () => {
			let state = afterTurn();
			({ state } = nudgedTurn(state, "end", T0 + 10_000, 3));
			({ state } = nudgedTurn(state, "end", T0 + 20_000, 3));
			expect(state.pendingCheck).not.toBeNull();
			const progressed = idle(state, view("xx."), { now: T0 + 30_000 });
			expect(progressed.next.episode?.graceUsed).toBe(0);
			expect(progressed.next.episode?.stagnation).toBe(0);
		});
	});

	describe("11 budgets", () => {
		const withEpisode = (episode: Partial<NonNullable<ReturnType<typeof afterTurn>["episode"]>>) => ({
			...afterTurn(),
			episode: {
				id: "e1",
				startedAt: T0,
				autoTurns: 0,
				tokens: 0,
				stagnation: 0,
				graceUsed: 0,
				errors: 0,
				earned: 0,
				bestOpen: 2,
				bestDone: 1,
				...episode,
			},
		});
		it("stops at the turn budget", () => {
			expect(idle(withEpisode({ autoTurns: 40 }), open).reason).toBe("budget-turns");
		});
		it("stops at the token budget", () => {
			expect(idle(withEpisode({ tokens: 4_000_000 }), open).reason).toBe("budget-tokens");
		});
		it("stops at the wall-clock budget", () => {
			expect(idle(withEpisode({}), open, { now: T0 + 180 * 60_000 }).reason).toBe("budget-time");
		});
		it("lets the next guard answer within budget", () => {
			expect(idle(withEpisode({ autoTurns: 39, stagnation: 3 }), open).reason).toBe("stagnation");
		});
		it("grows each budget with the items completed in the episode", () => {
			// 40 to start + 5 per item: 10 items done earn 50 more turns, 10 M more tokens, 200 more minutes.
			expect(idle(withEpisode({ autoTurns: 89, earned: 10 }), open).kind).toBe("inject");
			expect(idle(withEpisode({ autoTurns: 90, earned: 10 }), open).reason).toBe("budget-turns");
			expect(idle(withEpisode({ tokens: 13_999_999, earned: 10 }), open).kind).toBe("inject");
			expect(idle(withEpisode({ tokens: 14_000_000, earned: 10 }), open).reason).toBe("budget-tokens");
			expect(idle(withEpisode({ earned: 10 }), open, { now: T0 + 379 * 60_000 }).kind).toBe("inject");
			expect(idle(withEpisode({ earned: 10 }), open, { now: T0 + 380 * 60_000 }).reason).toBe("budget-time");
		});
		it("says which budget stopped it, what it used, and which key moves it", () => {
			const decision = idle(withEpisode({ autoTurns: 45, earned: 1 }), open);
			expect(decision.detail).toBe(
				"the episode used the 45 automatic turns it had earned (40 to start, 5 more for each item done, 1 done; used 45; `budgets.autoTurns` and `budgets.perItem.autoTurns` raise it)",
			);
			expect(decision.kind === "skip" && decision.notice).toBe(true);
		});
		it("never lets progress carry an episode past the ceiling", () => {
			const decision = idle(withEpisode({ tokens: 100_000_000, earned: 500 }), open);
			expect(decision.reason).toBe("budget-tokens");
			expect(decision.detail).toBe(
				"the episode reached its ceiling of 100 M real tokens (used 100 M; `budgets.ceiling.tokens` raises it)",
			);
			expect(idle(withEpisode({ autoTurns: 400, earned: 500 }), open).reason).toBe("budget-turns");
			expect(idle(withEpisode({ earned: 500 }), open, { now: T0 + 12 * 3_600_000 }).reason).toBe("budget-time");
		});
		it("has no ceiling where the user set none", () => {
			const noCeiling = config({ budgets: { ceiling: { autoTurns: null, tokens: null, wallClockMs: null } } });
			expect(idle(withEpisode({ autoTurns: 1_000, earned: 500 }), open, { config: noCeiling }).kind).toBe("inject");
		});
		it("counts what progress earned: items completed or closed beyond the best seen, never churn", () => {
			let state: ContinuationState = withEpisode({ bestOpen: 5, bestDone: 0 });
			state = idle(state, view("xx...")).next; // 2 done, 3 open: earned 2
			expect(state.episode?.earned).toBe(2);
			state = idle(state, view("x....")).next; // reopened: nothing earned
			state = idle(state, view("xx...")).next; // back to the best: nothing earned
			expect(state.episode?.earned).toBe(2);
		});
	});

	describe("12 stagnation", () => {
		it("stops after three nudges in a row that brought no progress", () => {
			let state = afterTurn();
			const reasons: string[] = [];
			for (let i = 0; i < 6; i++) {
				const decision = idle(state, open, { now: T0 + 10_000 * (i + 1) });
				reasons.push(decision.reason);
				if (!decision.key || decision.kind !== "inject") break;
				state = onTurnEnd(onDelivered(decision.next, decision.key, T0 + 10_000 * (i + 1)), { outcome: "end" }, T0);
			}
			expect(reasons).toEqual(["continue", "continue", "continue", "stagnation"]);
		});
		it("lets the inject through while progress is made", () => {
			const state = afterTurn();
			const decision = decide({ state, work: open, facts: {}, config: config(), now: T0 + 5000, scope: "s" });
			expect(decision.kind).toBe("inject");
			expect(decision.figures.stagnation).toBe(0);
		});
	});

	describe("13 harness-cap", () => {
		const cap = (inRow: number, limit = 8) => ({
			facts: { harnessCap: { harness: "Qwen Code", limit, inRow, lift: "stopHookBlockingCap" } },
		});
		it("nudges while the harness would deliver the block", () => {
			expect(idle(afterTurn("continuation"), open, cap(6)).kind).toBe("inject");
		});
		it("does not send the block the harness would override, and tells the user which cap and how to raise it", () => {
			const decision = idle(afterTurn("continuation"), open, cap(7));
			expect(decision).toMatchObject({ kind: "skip", reason: "harness-cap", notice: true, key: null });
			expect(decision.detail).toBe(
				"Qwen Code lets at most 7 continuation(s) in a row through for one prompt and would override this nudge (7 went through), so the agent stops with 2 item(s) open; raise stopHookBlockingCap to allow more",
			);
		});
		it("keeps the nudge's bookkeeping: no turn spent, nothing pending to be reported as failed", () => {
			const decision = idle(afterTurn("continuation"), open, cap(7));
			expect(decision.next.lastDecision).toMatchObject({ kind: "skip", reason: "harness-cap", delivery: null });
			expect(decision.next.episode?.autoTurns ?? 0).toBe(0);
		});
		it("lets an earlier guard answer first: a pending question", () => {
			expect(
				idle(afterTurn("continuation"), open, { facts: { ...cap(7).facts, pendingInput: { kind: "question" } } })
					.reason,
			).toBe("awaiting-user");
		});
	});
});
