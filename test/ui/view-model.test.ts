import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { emptyContinuationState } from "../../src/core/turns.js";
import type { FleetSession, FleetWorktreeData } from "../../src/engine/fleet.js";
import { formatCount, worktreeView } from "../../src/ui/view-model.js";

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
