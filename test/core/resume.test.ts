import { describe, expect, it } from "vitest";
import { parsePlan, planView } from "../../src/core/plan-parser.js";
import { LISTED_ITEMS, type ResumeInput, resumeContext } from "../../src/core/resume.js";
import { emptyContinuationState, onUserAbort } from "../../src/core/turns.js";
import { afterTurn, config, T0, todos, view } from "./builders.js";

const plan = parsePlan(
	"# Ship\n\n- [x] Write the parser\n- [/] Wire the CLI\n- [ ] Document it\n- [x] Release notes\n",
);
const planWork = planView(plan, "Ship", 3);
const planItems = plan.items;

function input(overrides: Partial<ResumeInput> = {}): ResumeInput {
	return {
		how: "resume",
		state: afterTurn(),
		work: planWork,
		items: planItems,
		facts: {},
		config: config(),
		planPath: "PLAN.md",
		...overrides,
	};
}

describe("resume context", () => {
	it("names the plan, the progress, every open item and the next one", () => {
		const verdict = resumeContext(input());
		if (verdict.kind !== "context") throw new Error(`no context: ${verdict.detail}`);
		expect(verdict.reason).toBe("resume-context");
		expect(verdict.text).toContain(
			'This session was resumed with work unfinished: 2 of 4 done, 2 open in the plan "Ship" (PLAN.md).',
		);
		expect(verdict.text).toContain("- Wire the CLI (in progress)\n- Document it\n");
		expect(verdict.text).toContain("Next: Wire the CLI");
		expect(verdict.text).not.toContain("Write the parser");
		expect(verdict.text).not.toContain("orchestrator");
		expect(verdict.detail).toContain('2 of 4 done, 2 open in the plan "Ship"');
		expect(verdict.detail).toContain('next: "Wire the CLI"');
	});

	it("reads as context, not as the user's instruction nor as a nudge", () => {
		const verdict = resumeContext(input({ how: "compact" }));
		if (verdict.kind !== "context") throw new Error("no context");
		expect(verdict.text.split("\n")[0]).toBe("[boulder · where the work stands — context, not a new instruction]");
		expect(verdict.text).not.toContain("automatic continuation");
		expect(verdict.text).toContain("had its conversation compacted");
		expect(resumeContext(input({ how: "restart" }))).toMatchObject({
			text: expect.stringContaining("came back after a restart"),
		});
	});

	it("names the subagent session of each item in orchestrate mode", () => {
		const orchestrated = { ...planWork, orchestrate: { subagents: { "Wire the CLI": "agent-7" } } };
		const verdict = resumeContext(input({ work: orchestrated }));
		if (verdict.kind !== "context") throw new Error("no context");
		expect(verdict.text).toContain("- Wire the CLI (in progress) — subagent session agent-7\n- Document it\n");
		expect(verdict.text).toContain("resume the subagent session named beside an item");
		const fresh = resumeContext(input({ work: { ...planWork, orchestrate: { subagents: {} } } }));
		expect(fresh).toMatchObject({ text: expect.stringContaining("delegate the open items to subagents") });
	});

	it("tells a session rolling its own list about that list", () => {
		const list = todos("x>..");
		const verdict = resumeContext(
			input({ work: view("x>.."), items: list.map((todo) => ({ title: todo.content, status: todo.status })) }),
		);
		if (verdict.kind !== "context") throw new Error("no context");
		expect(verdict.text).toContain("1 of 4 done, 3 open in your todo list");
		expect(verdict.text).toContain("- task 2 (in progress)\n- task 3\n- task 4\n");
	});

	it(`lists at most ${LISTED_ITEMS} open items and counts the rest`, () => {
		const list = todos(".".repeat(LISTED_ITEMS + 3));
		const verdict = resumeContext(
			input({
				work: view(".".repeat(LISTED_ITEMS + 3)),
				items: list.map((todo) => ({ title: todo.content, status: todo.status })),
			}),
		);
		if (verdict.kind !== "context") throw new Error("no context");
		expect(verdict.text).toContain(`- task ${LISTED_ITEMS}\n- … and 3 more\n`);
		expect(verdict.text).not.toContain(`task ${LISTED_ITEMS + 1}`);
	});

	it("gives nothing when nothing is open: done, blocked, cancelled, no work at all", () => {
		const done = parsePlan("# Ship\n\n- [x] A\n- [~] B\n- [-] C\n");
		expect(resumeContext(input({ work: planView(done, "Ship", 3), items: done.items }))).toMatchObject({
			kind: "none",
			reason: "no-open-work",
		});
		expect(resumeContext(input({ work: null, items: [] }))).toMatchObject({ kind: "none", reason: "no-open-work" });
		expect(resumeContext(input({ facts: { planUnusable: { path: "PLAN.md", problem: "missing" } } }))).toMatchObject({
			kind: "none",
			reason: "no-open-work",
		});
	});

	it("gives nothing once the user stopped boulder, paused the work, or aborted the last turn", () => {
		const cases: Partial<ResumeInput>[] = [
			{ config: config({ enabled: false }) },
			{ state: { ...afterTurn(), disabled: { at: T0, by: "the user" } } },
			{ facts: { switchedOff: { kind: "worktree-stopped", by: "the user" } } },
			{ facts: { switchedOff: { kind: "work-paused", work: "Ship" } } },
		];
		for (const overrides of cases) expect(resumeContext(input(overrides))).toMatchObject({ reason: "disabled" });
		const aborted = onUserAbort(afterTurn(), "interrupt", T0 + 5000);
		expect(resumeContext(input({ state: aborted }))).toMatchObject({ kind: "none", reason: "user-aborted" });
	});

	it("never speaks to a subagent, a skip-listed agent, or a session whose work is another's", () => {
		expect(resumeContext(input({ facts: { subagent: true } }))).toMatchObject({ reason: "not-eligible" });
		expect(resumeContext(input({ facts: { agent: "Plan" } }))).toMatchObject({ reason: "not-eligible" });
		const elsewhere = { boundElsewhere: { work: "Ship", harness: "claude-code", sessionId: "other" } };
		expect(resumeContext(input({ work: null, items: [], facts: elsewhere }))).toMatchObject({
			reason: "not-eligible",
		});
		// Its own list is still its own.
		const list = todos(">.");
		const own = resumeContext(
			input({
				work: view(">."),
				items: list.map((todo) => ({ title: todo.content, status: todo.status })),
				facts: elsewhere,
			}),
		);
		expect(own.kind).toBe("context");
	});

	it("is the same text for the same inputs, whatever the state's counters", () => {
		const fresh = resumeContext(input({ state: emptyContinuationState() }));
		const later = resumeContext(input({ state: afterTurn("continuation", { outcome: "end" }, afterTurn()) }));
		expect(fresh).toEqual(later);
	});
});
