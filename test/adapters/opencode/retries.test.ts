import { describe, expect, it } from "vitest";
import { Retries } from "../../../src/adapters/opencode/retries.js";
import { ManualTime } from "./manual-time.js";

describe("a backoff's re-decide", () => {
	it("comes once, a little after the backoff ends, never before", async () => {
		const time = new ManualTime();
		const retries = new Retries(time, time);
		const fired: number[] = [];
		retries.at("s1", time.now() + 400, () => fired.push(time.now()));
		await time.advance(400);
		expect(fired).toEqual([]);
		await time.advance(10_000);
		expect(fired).toHaveLength(1);
		expect(fired[0]).toBeGreaterThan(time.now() - 10_000);
		expect(time.pending()).toEqual([]);
	});

	it("keeps only the newest for a session, and none after clear or close", async () => {
		const time = new ManualTime();
		const retries = new Retries(time, time);
		const fired: string[] = [];
		retries.at("s1", time.now() + 100, () => fired.push("s1 older"));
		retries.at("s1", time.now() + 200, () => fired.push("s1 newer"));
		retries.at("s2", time.now() + 100, () => fired.push("s2"));
		retries.at("s3", time.now() + 100, () => fired.push("s3"));
		retries.clear("s2");
		await time.advance(10_000);
		expect(fired).toEqual(["s3", "s1 newer"]);

		retries.at("s1", time.now() + 100, () => fired.push("after close"));
		retries.close();
		await time.advance(10_000);
		expect(fired).toEqual(["s3", "s1 newer"]);
	});

	it("comes at once (after the slack) when the backoff is already over", async () => {
		const time = new ManualTime();
		const retries = new Retries(time, time);
		retries.at("s1", time.now() - 5_000, () => undefined);
		expect(time.pending()).toHaveLength(1);
		expect(time.pending()[0]).toBeLessThan(1_000);
	});
});
