import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { emptyContinuationState } from "../../src/core/turns.js";
import type { FleetSession, FleetWork, FleetWorktreeData } from "../../src/engine/fleet.js";
import { cardOrder, headerCounts } from "../../src/ui/client/counts.js";
import { dashboardView, formatCount, timelineEntry, worktreeView } from "../../src/ui/view-model.js";

const NOW = 10_000_000;

function worktree(overrides: Partial<FleetWorktreeData> = {}): FleetWorktreeData {
	return {
		root: "/home/jo/projects/alpha",
		vanished: false,
		stopped: null,
		works: [],
		sessions: [],
		problem: null,
		configProblem: null,
		config: DEFAULT_CONFIG,
		skippedLines: 0,
		decisions: [],
		...overrides,
	};
}

function session(state: Partial<ReturnType<typeof emptyContinuationState>>): FleetSession {
	return {
		scope: "session.claude-code.s1",
		harness: "claude-code",
		sessionId: "s1",
		work: null,
		state: { ...emptyContinuationState(), ...state },
		problem: null,
		lastRecord: null,
	};
}

const episode = {
	id: "e1",
	startedAt: NOW - 30 * 60_000,
	autoTurns: 7,
	tokens: 1_250_000,
	stagnation: 2,
	graceUsed: 0,
	errors: 0,
	earned: 1,
	bestOpen: 3,
	bestDone: 4,
};

describe("the dashboard's view of a worktree", () => {
	it("gives the episode's budgets as gauges against the limits progress has earned, and the stagnation count", () => {
		const view = worktreeView(worktree({ sessions: [session({ episode })] }), NOW);
		const [s] = view.sessions;
		expect(s?.gauges.map((g) => `${g.label}: ${g.usedText} / ${g.limitText}`)).toEqual([
			"auto turns: 7 / 45",
			"real tokens: 1.3M / 5M",
			"wall clock: 30m 0s / 3h 20m 0s",
		]);
		expect(s?.stagnation).toEqual({ count: 2, limit: 3 });
	});

	it("shows a session's own todo list on its card: progress, next item and the items", () => {
		const todos = [
			{ content: "read the code", status: "completed" as const },
			{ content: "fix the bug", status: "in_progress" as const },
			{ content: "write the test", status: "pending" as const },
		];
		const [own] = worktreeView(worktree({ sessions: [session({ todos })] }), NOW).sessions;
		expect(own?.list).toEqual({
			progressText: "2 open, 1/3 done",
			open: 2,
			next: "fix the bug",
			items: todos.map((todo) => ({ title: todo.content, status: todo.status, section: null, criteria: [] })),
		});
		const bound = worktreeView(worktree({ sessions: [{ ...session({ todos }), work: "w1" }] }), NOW).sessions[0];
		expect(bound?.list).toBeNull();
	});

	it("says when and why a session waits for its user, and the worktree reads so at a glance", () => {
		const asking = session({ observed: { ...emptyContinuationState().observed, pendingInput: { kind: "question" } } });
		const view = worktreeView(worktree({ sessions: [asking] }), NOW);
		expect(view.sessions[0]?.waiting).toBe("waits for you: a question");
		expect(view.badge).toEqual({ text: "waits for you", tone: "skip" });
		const aborted = worktreeView(worktree({ sessions: [session({ abortBlock: { at: NOW, how: "abort" } })] }), NOW);
		expect(aborted.sessions[0]?.waiting).toBe("the run was interrupted; waiting for your next message");
	});

	it("reads a stopped worktree, a stopped session, a problem and a vanished worktree in words", () => {
		expect(worktreeView(worktree({ stopped: { at: NOW, by: "`boulder stop`" } }), NOW).badge.text).toBe("stopped");
		const stopped = session({ disabled: { at: NOW, by: "the dashboard (`boulder ui`)" } });
		expect(worktreeView(worktree({ sessions: [stopped] }), NOW).sessions[0]?.badge.text).toBe("stopped");
		const broken = worktreeView(worktree({ problem: "the works file could not be read (corrupt)" }), NOW);
		expect(broken.badge).toEqual({ text: "problem", tone: "problem" });
		expect(broken.problems).toEqual(["the works file could not be read (corrupt)"]);
		const gone = worktreeView(worktree({ vanished: true, sessions: [session({})] }), NOW);
		expect(gone).toMatchObject({ badge: { text: "vanished" }, sessions: [], works: [] });
	});

	it("words the last decision as `boulder why` does", () => {
		const last = {
			...session({ episode }),
			lastRecord: {
				v: 1 as const,
				at: NOW,
				worktree: "/home/jo/projects/alpha",
				scope: "session.claude-code.s1",
				harness: "claude-code",
				session: "s1",
				work: null,
				kind: "skip" as const,
				reason: "stagnation",
				detail: "no progress",
				figures: { stagnation: 3 },
			},
		};
		const view = worktreeView(worktree({ sessions: [last] }), NOW);
		expect(view.sessions[0]?.last).toMatchObject({
			headline: "stopped",
			text: "the last 3 nudges brought no progress",
		});
	});

	it("counts tokens as people read them", () => {
		expect([980, 35_000, 1_250_000, 123_456_789].map(formatCount)).toEqual(["980", "35k", "1.3M", "123M"]);
	});
});

describe("the dashboard tells the truth at a glance (issue: misleading summary)", () => {
	const work = (overrides: Partial<FleetWork> = {}): FleetWork => ({
		work: {
			id: "w1",
			planPath: "REFACTOR.md",
			name: "Refactor",
			status: "active",
			startedAt: NOW - 60_000,
			endedAt: null,
			elapsedMs: null,
			sessions: [],
			agent: null,
			worktree: "/home/jo/projects/alpha",
			subagentSessions: {},
			verify: [],
			verifyTimeoutMs: null,
			lastVerification: null,
		} as FleetWork["work"],
		active: true,
		progress: null,
		next: null,
		items: [],
		verify: [],
		planProblem: null,
		lastVerification: null,
		...overrides,
	});
	const decided = (kind: "inject" | "skip" | "complete", reason: string) =>
		session({ lastDecision: { turnSeq: 1, kind, reason, key: null, at: NOW, delivery: "delivered" } as never });

	it("counts a worktree whose plan is missing as one with a problem, and badges it so", () => {
		const view = worktreeView(
			worktree({ works: [work({ planProblem: "the plan file REFACTOR.md is missing" })] }),
			NOW,
		);
		expect(view.badge).toEqual({ text: "problem", tone: "problem" });
		expect(headerCounts([view]).withProblem).toBe(1);
		expect(view.needs[0]).toMatchObject({ command: "boulder doctor" });
	});

	it("does not count the plan of a finished work that was removed: nothing waits for a person there", () => {
		const done = work({ planProblem: "the plan file REFACTOR.md is missing" });
		done.work = { ...done.work, status: "completed", endedAt: NOW - 1000, elapsedMs: 59_000 };
		const view = worktreeView(worktree({ works: [done] }), NOW);
		expect(view.problemCount).toBe(0);
		expect(view.needs).toEqual([]);
		expect(view.badge.text).not.toBe("problem");
		expect(headerCounts([view]).withProblem).toBe(0);
	});

	it("reads a stalled (held) session as held, on its card, its worktree's badge and in the header", () => {
		const view = worktreeView(worktree({ works: [work()], sessions: [decided("skip", "stagnation")] }), NOW);
		expect(view.sessions[0]?.badge.text).toBe("held");
		expect(view.badge.text).toBe("held");
		expect(headerCounts([view]).standing.held).toBe(1);
		expect(view.sessions[0]?.need?.command).toBe("boulder why --session s1");
	});

	it("never gives a failed verify the green `continued`", () => {
		const [s] = worktreeView(worktree({ sessions: [decided("inject", "verify-failed")] }), NOW).sessions;
		expect(s?.badge).toEqual({ text: "verify failed", tone: "problem" });
		const line = timelineEntry(
			{
				v: 1,
				at: NOW,
				worktree: "/w",
				scope: null,
				harness: "claude-code",
				session: "s1",
				work: "w1",
				kind: "inject",
				reason: "verify-failed",
				detail: "every item is done but `npm test` fails; sending the failure back",
			},
			NOW,
		);
		expect(line).toMatchObject({ headline: "verify failed", tone: "problem" });
	});

	it("says `own list` only of a session that has one", () => {
		const [bare] = worktreeView(worktree({ sessions: [session({})] }), NOW).sessions;
		expect(bare?.list).toBeNull();
	});

	it("counts every session card in exactly one state", () => {
		const states = [
			session({}),
			decided("inject", "continue"),
			decided("inject", "verify-failed"),
			decided("skip", "stagnation"),
			decided("skip", "budget-turns"),
			decided("complete", "complete"),
			session({ disabled: { at: NOW, by: "you" } }),
			session({ observed: { ...emptyContinuationState().observed, pendingInput: { kind: "question" } } }),
			{ ...session({}), state: null, problem: "its state file could not be read (bad)" },
		].map((s, index) => ({ ...s, scope: `session.claude-code.s${index}`, sessionId: `s${index}` }));
		const view = worktreeView(worktree({ sessions: states }), NOW);
		const counts = headerCounts([view]);
		expect(Object.values(counts.standing).reduce((a, b) => a + b, 0)).toBe(states.length);
		expect(counts.standing).toEqual({
			rolling: 1,
			waiting: 1,
			"verify-failed": 1,
			held: 2,
			problem: 1,
			off: 1,
			done: 1,
			idle: 1,
		});
		for (const standing of Object.keys(counts.standing)) {
			expect(view.sessions.filter((s) => s.standing === standing).length).toBe(
				counts.standing[standing as keyof typeof counts.standing],
			);
		}
	});

	it("orders the cards that need a person first, the rest by path, whatever the index's order", () => {
		const a = worktree({ root: "/p/a" });
		const b = worktree({ root: "/p/b", sessions: [decided("skip", "stagnation")] });
		const c = worktree({ root: "/p/c" });
		const view = dashboardView({ worktrees: [c, a, b], timeline: [], indexProblem: null }, NOW, 1);
		expect(view.worktrees.map((w) => w.root)).toEqual(["/p/a", "/p/b", "/p/c"]);
		expect(cardOrder(view.worktrees).map((w) => w.root)).toEqual(["/p/b", "/p/a", "/p/c"]);
	});
});
