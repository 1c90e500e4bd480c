/** oh-my-opencode's enforcer model does what anchor-oh-my-opencode.md §2 documents, bugs included. */
import { describe, expect, it } from "vitest";
import { omoPolicy } from "../../bench/policy/policies/omo.js";
import { Driver, reason, todos } from "./driver.js";

function started(): Driver {
	return new Driver(omoPolicy()).turn("user");
}

describe("oh-my-opencode model", () => {
	it("counts a status flip as progress, so a list that only flips keeps being nudged", () => {
		const driver = started();
		const flips = ["x..", "x>.", "x.>", "x>.", "x.>"];
		for (const spec of flips) driver.nudgeCycle({ todos: todos(spec) });
		expect(driver.delivered).toBe(flips.length);
	});

	it("pauses at the turn boundary after one answered nudge that changed no status", () => {
		const driver = started();
		expect(driver.nudgeCycle({ todos: todos("x..") }).delivered).toBe(true);
		const second = driver.idle({ todos: todos("x..") });
		expect(reason(second.answer)).toBe("paused: directive-response");
		driver.turn("user", { activity: 2 });
		expect(reason(driver.idle({ todos: todos("x..") }).answer)).toBe("paused: directive-response");
		expect(driver.idle({ todos: todos("xx.") }).delivered).toBe(true);
	});

	it("counts stagnation only after its own injections, and stops at 3", () => {
		const driver = started();
		for (let i = 0; i < 4; i++) expect(reason(driver.idle({ backgroundTasks: 1 }).answer)).toBe("background");
		for (let i = 0; i < 3; i++) {
			expect(driver.idle({ todos: todos("x..") }).delivered).toBe(true);
			driver.emit({ type: "turn-start", session: "main", source: "nudge" });
			driver.wait(10_000);
			driver.emit({
				type: "turn-end",
				session: "main",
				outcome: "end",
				spend: { input: 1, output: 1, cacheWrite: 0 },
				lastCallTokens: 1,
				text: "",
			});
		}
		expect(reason(driver.idle({ todos: todos("x..") }).answer)).toBe("stagnation");
	});

	it("backs off 5 s × 2^failures after a failed delivery, with no timer of its own", () => {
		const driver = started();
		const first = driver.idle();
		expect(first.delivered).toBe(true);
		driver.emit({ type: "delivery-failed", session: "main", key: "any" });
		driver.wait(6_000);
		expect(reason(driver.idle().answer)).toBe("cooldown");
		driver.wait(5_000);
		expect(driver.idle().answer.kind).toBe("inject");
	});

	it("skips an idle right after an abort, and keeps skipping until new activity even once 3 s have passed", () => {
		const driver = started();
		driver.emit({ type: "abort", session: "main" });
		driver.wait(1_000);
		expect(reason(driver.idle().answer)).toBe("cancelled");
		driver.wait(60_000);
		expect(reason(driver.idle().answer)).toBe("cancelled");
		driver.turn("wake");
		expect(driver.idle().delivered).toBe(true);
	});

	it("waits while a question tool is pending or background tasks run", () => {
		const driver = started();
		expect(reason(driver.idle({ pendingQuestion: true }).answer)).toBe("pending-question");
		expect(reason(driver.idle({ backgroundTasks: 2 }).answer)).toBe("background");
	});

	it("does not see a question asked in plain text", () => {
		const driver = started();
		expect(driver.idle({ lastAssistantText: "Which database do you want, Postgres or SQLite?" }).delivered).toBe(true);
	});

	it("continues subagent sessions too, leaving out only agents that cannot write", () => {
		const driver = started();
		driver.turn("user", { session: "child-1" });
		expect(driver.idle({ session: "child-1", subagent: true, agent: "general" }).delivered).toBe(true);
		driver.turn("user", { session: "child-2" });
		expect(driver.idle({ session: "child-2", subagent: true, agent: "explore", readOnly: true }).delivered).toBe(false);
	});

	it("stays blocked after a context-length error until the user speaks", () => {
		const driver = new Driver(omoPolicy()).turn("user", { outcome: "context-overflow" });
		expect(reason(driver.idle().answer)).toBe("token-limit");
		driver.turn("compaction");
		expect(reason(driver.idle().answer)).toBe("token-limit");
		driver.turn("user");
		expect(driver.idle().delivered).toBe(true);
	});

	it("forgets its state on a restart but keeps the stop marker", () => {
		const driver = started();
		driver.nudgeCycle({ todos: todos("x..") });
		expect(driver.idle({ todos: todos("x..") }).answer.kind).toBe("skip");
		driver.emit({ type: "restart" });
		expect(driver.idle({ todos: todos("x..") }).delivered).toBe(true);
		driver.turn("nudge", { text: "progress" }).emit({ type: "stop-command", session: "main" });
		driver.emit({ type: "restart" });
		expect(reason(driver.idle({ todos: todos("xx.") }).answer)).toBe("stopped");
	});
});
