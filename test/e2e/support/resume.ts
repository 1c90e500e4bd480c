/**
 * The scenario the resume suites share: a three-item plan left unfinished,
 * an episode that allows one automatic turn (so a context that counted as a
 * nudge would leave the resumed run none), and what the decision log must
 * say after the session came back.
 */
import { expect } from "vitest";
import type { DecisionRecord } from "./suite.js";

export const RESUME_PLAN = `# Greetings

- [ ] Item A: write the greeting
- [ ] Item B: write the farewell
- [ ] Item C: write the thanks
`;

/** One automatic turn per episode, none per item. */
export const ONE_AUTO_TURN = { budgets: { autoTurns: 1, perItem: { autoTurns: 0 } } };

/** The project's files: the plan and the one-turn budget (relative path → content). */
export const RESUME_FILES: Record<string, string> = {
	"PLAN.md": RESUME_PLAN,
	"boulder.config.json": JSON.stringify(ONE_AUTO_TURN),
};

/**
 * Checks the decisions made since the session came back: the context comes
 * first, before the user's turn, and one nudge follows. Returns them as
 * `kind:reason` lines for further checks. `hooksRaceAtStart`: the harness
 * starts its session-start and prompt hooks without waiting for the first
 * (Copilot CLI), so the log may have them in either order; the context is
 * still logged once, and before the nudge.
 */
export function expectContextFirst(since: DecisionRecord[], options: { hooksRaceAtStart?: boolean } = {}): string[] {
	const lines = since.map((record) => `${record.kind}:${record.reason}`);
	const context = lines.indexOf("event:resume-context");
	if (options.hooksRaceAtStart) {
		expect(lines.slice(0, 2)).toContain("event:resume-context");
	} else {
		expect(lines[0]).toBe("event:resume-context");
		expect(context).toBeLessThan(lines.indexOf("event:user-turn"));
	}
	expect(lines.filter((line) => line === "event:resume-context")).toHaveLength(1);
	expect(lines.filter((line) => line.startsWith("inject:"))).toHaveLength(1);
	expect(context).toBeLessThan(lines.findIndex((line) => line.startsWith("inject:")));
	return lines;
}
