/** oh-my-opencode-slim's removed hook, modelled from anchor-oh-my-opencode-slim.md §1. */
import { describe, expect, it } from "vitest";
import { isSlimQuestion, slimPolicy } from "../../bench/policy/policies/slim.js";
import { Driver, reason, todos } from "./driver.js";

function started(): Driver {
	const driver = new Driver(slimPolicy());
	driver.emit({ type: "session-created", session: "main", parent: null, agent: "orchestrator", readOnly: false });
	return driver.turn("user");
}

describe("oh-my-opencode-slim model", () => {
	it("stops after 5 consecutive continuations, progress or not", () => {
		const driver = started();
		for (let i = 0; i < 5; i++) expect(driver.nudgeCycle({ todos: todos("x..") }).delivered).toBe(true);
		expect(reason(driver.idle({ todos: todos("x..") }).answer)).toBe("max-continuations");
	});

	it("resets the counter when the session turns busy for anything but its own injection", () => {
		const driver = started();
		for (let i = 0; i < 5; i++) driver.nudgeCycle();
		expect(driver.idle().answer.kind).toBe("skip");
		driver.turn("wake");
		expect(driver.idle().delivered).toBe(true);
	});

	it("takes a trailing ? or one of its phrases anywhere for a question", () => {
		expect(isSlimQuestion("Shall I continue with the parser?")).toBe(true);
		expect(isSlimQuestion("Do you want the changelog too?  ")).toBe(true);
		expect(isSlimQuestion("Let me know which one.")).toBe(true);
		expect(isSlimQuestion("Finished the parser. We should include the tests next.")).toBe(true);
		expect(isSlimQuestion("Done with the parser; the build is green.")).toBe(false);
		expect(isSlimQuestion("Please paste the API key and I'll finish.")).toBe(false);
		const driver = started();
		expect(reason(driver.idle({ lastAssistantText: "Which auth provider?" }).answer)).toBe("question");
	});

	it("does not look at the question tool", () => {
		const driver = started();
		expect(
			driver.idle({ pendingQuestion: true, lastAssistantText: "I need a decision before going on." }).delivered,
		).toBe(true);
	});

	it("suppresses continuation for 5 s after an abort, and only that long", () => {
		const driver = started();
		driver.emit({ type: "abort", session: "main" });
		driver.wait(4_000);
		expect(reason(driver.idle().answer)).toBe("abort-suppressed");
		driver.wait(2_000);
		expect(driver.idle().delivered).toBe(true);
	});

	it("counts blocked items as incomplete and leaves subagents alone", () => {
		const driver = started();
		expect(driver.idle({ todos: todos("xx~") }).delivered).toBe(true);
		driver.turn("nudge");
		driver.emit({ type: "session-created", session: "child-1", parent: "main", agent: "general", readOnly: false });
		expect(reason(driver.idle({ session: "child-1", subagent: true }).answer)).toBe("not-orchestrator");
	});

	it("is switched off by the stop command, and by a restart (its flag lives in memory)", () => {
		const stopped = started();
		stopped.emit({ type: "stop-command", session: "main" });
		expect(reason(stopped.idle().answer)).toBe("disabled");
		const restarted = started();
		restarted.emit({ type: "restart" });
		expect(reason(restarted.idle().answer)).toBe("disabled");
	});
});
