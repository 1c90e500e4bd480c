/** typeclaw's continuation policy, modelled from anchor-typeclaw.md §3. */
import { describe, expect, it } from "vitest";
import { typeclawPolicy } from "../../bench/policy/policies/typeclaw.js";
import { Driver, reason, todos } from "./driver.js";

const SMALL = 6_000;

function started(): Driver {
	return new Driver(typeclawPolicy()).turn("user", { lastCallTokens: SMALL });
}

describe("typeclaw model", () => {
	it("gives an unchanged list exactly 2 nudges (stagnation by hash, limit 2)", () => {
		const driver = started();
		for (let i = 0; i < 4; i++) driver.nudgeCycle({ todos: todos("x..") }, { lastCallTokens: 1_000 });
		expect(driver.delivered).toBe(2);
		expect(reason(driver.idle({ todos: todos("x..") }).answer)).toBe("already-decided");
	});

	it("gives a list that keeps changing cosmetically exactly 3 nudges (the turn budget)", () => {
		const driver = started();
		const specs = ["x..", "x>.", "x.>", "x>.", "x.>"];
		const answers = specs.map((spec) => driver.nudgeCycle({ todos: todos(spec) }, { lastCallTokens: 1_000 }).answer);
		expect(driver.delivered).toBe(3);
		expect(answers.map(reason)).toEqual(["inject", "inject", "inject", "max-auto-turns", "already-decided"]);
	});

	it("trips its token check on a big context: the last call's size, not the spend", () => {
		const driver = new Driver(typeclawPolicy()).turn("user", { lastCallTokens: 30_000 });
		expect(reason(driver.idle().answer)).toBe("max-tokens");
	});

	it("counts a subagent-completion wake and a restart kick as real user turns", () => {
		const driver = started();
		const specs = ["x..", "x>.", "x.>", "x>."];
		for (const spec of specs) driver.nudgeCycle({ todos: todos(spec) }, { lastCallTokens: 1_000 });
		expect(driver.delivered).toBe(3);
		driver.turn("wake", { lastCallTokens: 1_000 });
		expect(driver.idle({ todos: todos("x..") }).delivered).toBe(true);
		driver.turn("user", { outcome: "aborted", lastCallTokens: 1_000 });
		expect(reason(driver.idle().answer)).toBe("user-abort-blocked");
		driver.turn("restart", { lastCallTokens: 1_000 });
		expect(driver.idle().delivered).toBe(true);
	});

	it("does not arm the abort block for the abort a restart causes", () => {
		const driver = started();
		driver.emit({ type: "shutdown" });
		driver.turn("nudge", { outcome: "aborted" });
		driver.turn("nudge", { lastCallTokens: 1_000 });
		expect(driver.idle().delivered).toBe(true);
	});

	it("nudges during background work and after a question asked in plain text", () => {
		expect(started().idle({ backgroundTasks: 2 }).delivered).toBe(true);
		expect(started().idle({ lastAssistantText: "Which provider do you want?" }).delivered).toBe(true);
	});

	it("continues an error turn but never a subagent", () => {
		const driver = new Driver(typeclawPolicy()).turn("user", { outcome: "error", lastCallTokens: SMALL });
		expect(driver.idle().delivered).toBe(true);
		driver.emit({ type: "session-created", session: "child-1", parent: "main", agent: "general", readOnly: false });
		expect(reason(driver.idle({ session: "child-1", subagent: true }).answer)).toBe("no-scope");
	});
});
