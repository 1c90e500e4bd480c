/** The pure render functions and formatters: data in, text out. */
import { describe, expect, it } from "vitest";
import { countStandings } from "../../src/core/standing.js";
import type { WorkStatusView } from "../../src/engine/status.js";
import { formatElapsed } from "../../src/present/format-time.js";
import { renderConfig } from "../../src/present/render/config.js";
import { renderDoctor } from "../../src/present/render/doctor.js";
import { renderStatus, type StatusReport } from "../../src/present/render/status.js";
import { plainStyle as plainColors } from "../../src/present/style.js";
import { todayAt } from "../cli/helpers.js";

describe("formatElapsed", () => {
	it.each([
		[0, "0s"],
		[999, "0s"],
		[59_000, "59s"],
		[65_000, "1m 5s"],
		[3_723_000, "1h 2m 3s"],
		[7_200_000, "2h 0m 0s"],
		[90_061_000, "1d 1h 1m"],
		[-5, "0s"],
	])("%i ms is %s", (ms, text) => {
		expect(formatElapsed(ms)).toBe(text);
	});
});

const NOW = todayAt(15, 0);

function work(fields: Partial<WorkStatusView>): WorkStatusView {
	return {
		id: "w",
		name: "W",
		status: "active",
		active: true,
		planPath: "PLAN.md",
		startedAt: NOW - 60_000,
		endedAt: null,
		elapsedMs: 60_000,
		progress: { total: 7, done: 3, open: 3, blocked: 1, cancelled: 0 },
		next: "Write the tests",
		planProblem: null,
		sessions: [],
		lastDecision: null,
		lastVerification: null,
		...fields,
	};
}

function report(works: WorkStatusView[], extra: Partial<StatusReport> = {}): StatusReport {
	return {
		now: NOW,
		all: false,
		worktrees: [
			{ worktree: "/w", stopped: null, works, lastDecision: null, sessions: [], problem: null, configProblem: null },
		],
		vanished: [],
		...extra,
	};
}

describe("renderStatus", () => {
	it("gives a live work a block and a finished one a line", () => {
		const text = renderStatus(
			report([
				work({
					sessions: [{ harness: "claude-code", sessionId: "0123456789abcdef", how: "direct", stoppedBy: null }],
					lastDecision: {
						v: 1,
						at: todayAt(14, 9),
						worktree: "/w",
						scope: null,
						harness: "claude-code",
						session: "0123456789abcdef",
						work: "w",
						kind: "skip",
						reason: "stagnation",
						detail: "the last 3 nudges brought no progress",
						figures: { stagnation: 3 },
					},
				}),
				work({ id: "old", name: "Old", status: "completed", active: false, elapsedMs: 7_384_000 }),
			]),
			plainColors,
		);
		expect(text.split("\n")).toEqual([
			"/w",
			"  ● W (w)  active  3/7 done, 1 blocked  1m 0s",
			"      plan      PLAN.md",
			"      sessions  claude-code:01234567… (direct)",
			"      next      Write the tests",
			"      last      14:09  stopped: the last 3 nudges brought no progress",
			"  ○ Old (old)  completed  3/7 done, 1 blocked  2h 3m 4s",
		]);
	});

	it("says when the plan cannot be read and when the worktree is stopped", () => {
		const base = report([work({ progress: null, next: null, planProblem: "the plan file PLAN.md is missing" })]);
		const stopped: StatusReport = {
			...base,
			worktrees: base.worktrees.map((worktree) => ({
				...worktree,
				stopped: { at: todayAt(14, 0), by: "`boulder stop`" },
			})),
		};
		const text = renderStatus(stopped, plainColors);
		expect(text).toContain("continuation is stopped here (by `boulder stop`, 14:00); `boulder go` turns it on");
		expect(text).toContain("active  progress unknown");
		expect(text).toContain("problem   the plan file PLAN.md is missing");
	});
});

describe("renderStatus --all", () => {
	it("opens with the dashboard header's line: the worktrees and every session in one standing", () => {
		const counts = countStandings([
			{ problems: 1, stopped: false, vanished: false, sessions: ["rolling", "waiting", "held"] },
			{ problems: 0, stopped: true, vanished: false, sessions: ["off"] },
		]);
		const text = renderStatus(report([], { all: true, counts }), plainColors);
		expect(text.split("\n")[0]).toBe(
			"2 worktrees · 1 with a problem · 1 stopped · 4 sessions: 1 rolling, 1 waiting for you, 1 held (no progress or budget spent), 1 turned off",
		);
	});

	it("prints no such line for one worktree, whose header is the worktree itself", () => {
		const counts = countStandings([{ problems: 0, stopped: false, vanished: false, sessions: ["rolling"] }]);
		expect(renderStatus(report([], { counts }), plainColors)).not.toContain("session");
	});
});

describe("renderDoctor", () => {
	it("prints each finding with its fix and a verdict", () => {
		const text = renderDoctor(
			[
				{ check: "state", level: "ok", message: "all readable", fix: null },
				{ check: "config", level: "problem", message: "/c.json: nextItems is 0", fix: "fix it", key: "nextItems" },
			],
			plainColors,
		);
		expect(text.split("\n")).toEqual([
			"✓ state   all readable",
			"✗ config  /c.json: nextItems is 0",
			"          fix: fix it",
			"",
			"1 problem(s) found.",
		]);
	});
});

describe("renderConfig", () => {
	it("lines up key, value and source", () => {
		const text = renderConfig(
			[
				{ key: "enabled", value: true, source: "default" },
				{ key: "stagnationLimit", value: 5, source: "/p/boulder.config.json" },
			],
			["/p/boulder.config.json"],
			plainColors,
		);
		expect(text.split("\n").slice(0, 2)).toEqual([
			"enabled          true  default",
			"stagnationLimit  5     /p/boulder.config.json",
		]);
	});
});
