/**
 * The bench's adapter of boulder's core: events reach the same transitions an
 * engine would call, so the results are the core's own.
 */
import { describe, expect, it } from "vitest";
import { boulderPolicy } from "../../bench/policy/policies/boulder.js";
import { Driver, reason, todos } from "./driver.js";

function started(): Driver {
	return new Driver(boulderPolicy()).turn("user");
}

describe("boulder through its pure core", () => {
	it("holds an Esc until the user speaks, through a harness wake", () => {
		const driver = started();
		driver.emit({ type: "turn-start", session: "main", source: "nudge" });
		driver.emit({ type: "abort", session: "main" });
		driver.turn("wake");
		expect(reason(driver.idle().answer)).toBe("user-aborted");
		driver.turn("user");
		expect(driver.idle().delivered).toBe(true);
	});

	it("keeps the stop command through a later user turn", () => {
		const driver = started();
		driver.emit({ type: "stop-command", session: "main" });
		driver.turn("user");
		expect(reason(driver.idle().answer)).toBe("disabled");
	});

	it("asks to be decided again after a failed delivery, then backs off with a retry time", () => {
		const driver = started();
		const first = driver.policy.decide(driver.facts());
		expect(first.kind).toBe("inject");
		const key = first.kind === "inject" ? first.key : "";
		const recheck = driver.policy.observe({ type: "delivery-failed", session: "main", key, at: driver.now });
		expect(recheck).toEqual({ session: "main", at: driver.now });
		const again = driver.idle().answer;
		expect(reason(again)).toBe("backoff");
		expect(again.kind === "skip" ? again.retryAt : 0).toBeGreaterThan(driver.now);
	});

	it("does not take a restart's abort for the user's, and decides the restart turn's idle normally", () => {
		const driver = started();
		driver.emit({ type: "turn-start", session: "main", source: "nudge" });
		driver.emit({ type: "shutdown" });
		driver.emit({ type: "abort", session: "main" });
		driver.emit({ type: "restart" });
		driver.turn("restart");
		expect(driver.idle().delivered).toBe(true);
	});

	it("skips the stale idle of the turn a restart interrupted", () => {
		const driver = started();
		driver.emit({ type: "shutdown" });
		expect(reason(driver.idle().answer)).toBe("turn-unsafe");
	});

	it("never nudges a subagent, a pending question or a running background task", () => {
		const driver = started();
		expect(reason(driver.idle({ subagent: true, session: "child-1" }).answer)).toBe("not-eligible");
		expect(reason(driver.idle({ pendingQuestion: true }).answer)).toBe("awaiting-user");
		expect(reason(driver.idle({ backgroundTasks: 1 }).answer)).toBe("background-busy");
		expect(reason(driver.idle({ todos: todos("xx~") }).answer)).toBe("no-open-work");
	});
});
