/** The ralph-style loop (harness-apis.md §1.8) and the naive rule. */
import { describe, expect, it } from "vitest";
import { naivePolicy } from "../../bench/policy/policies/naive.js";
import { RALPH_PROMISE, ralphPolicy } from "../../bench/policy/policies/ralph.js";
import { Driver, reason, todos } from "./driver.js";

describe("ralph-loop model", () => {
	it("lets the agent go when it prints the exact promise, and not before", () => {
		const driver = new Driver(ralphPolicy()).turn("user", { text: "All done, I think." });
		expect(
			driver.nudgeCycle({ lastAssistantText: "All done, I think." }, { text: `Done. ${RALPH_PROMISE}` }).delivered,
		).toBe(true);
		expect(reason(driver.idle({ lastAssistantText: `Done. ${RALPH_PROMISE}` }).answer)).toBe("promise");
	});

	it("stops at the iteration cap whatever the list says", () => {
		const driver = new Driver(ralphPolicy(5)).turn("user");
		for (let i = 0; i < 10; i++) driver.nudgeCycle({ todos: todos("xxx") });
		expect(driver.delivered).toBe(4);
	});

	it("gets no Stop after an API error or an Esc, and one per turn end", () => {
		const driver = new Driver(ralphPolicy()).turn("user", { outcome: "error" });
		expect(reason(driver.idle().answer)).toBe("no-stop-event");
		driver.turn("user", { outcome: "aborted" });
		expect(reason(driver.idle().answer)).toBe("no-stop-event");
		driver.turn("user");
		expect(driver.idle().delivered).toBe(true);
		expect(reason(driver.idle().answer)).toBe("no-stop-event");
	});

	it("ends the loop on /cancel-ralph", () => {
		const driver = new Driver(ralphPolicy()).turn("user");
		driver.emit({ type: "stop-command", session: "main" });
		expect(reason(driver.idle().answer)).toBe("no-loop");
	});
});

describe("naive rule", () => {
	it("nudges at every idle event with an open item, copies included, anywhere", () => {
		const driver = new Driver(naivePolicy());
		expect(driver.idle().delivered).toBe(true);
		expect(driver.idle().delivered).toBe(true);
		expect(
			driver.idle({ subagent: true, session: "child-1", backgroundTasks: 1, pendingQuestion: true }).delivered,
		).toBe(true);
		expect(driver.idle({ todos: todos("xx~") }).delivered).toBe(false);
	});
});
