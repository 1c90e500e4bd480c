import { describe, expect, it } from "vitest";
import { systemScheduler } from "../../../src/adapters/opencode/scheduler.js";

describe("the runtime's scheduler", () => {
	it("runs a timer, and unref hands back the same timer", async () => {
		const fired = await new Promise<boolean>((resolve) => {
			const timer = systemScheduler.setTimeout(() => resolve(true), 1);
			expect(timer.unref()).toBe(timer);
		});
		expect(fired).toBe(true);
	});

	it("ignores clearing no timer", () => {
		expect(() => systemScheduler.clearTimeout(undefined)).not.toThrow();
	});
});
