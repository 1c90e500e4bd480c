/** The transcript path a harness names at a turn's start or idle is a fact the engine keeps on the session's state. */
import { describe, expect, it } from "vitest";
import { main, memoryEngine } from "./helpers.js";

describe("the transcript path", () => {
	it("is kept from the turn's start, replaced by a newer one at idle, and not lost when an event names none", async () => {
		const { engine, store } = memoryEngine();
		const scope = engine.scopeOf(main) ?? "";
		const path = async () => {
			const read = await store.readScope(scope);
			return read.kind === "ok" ? read.value.observed.transcriptPath : "unreadable";
		};

		await engine.turnStarted({ ...main, transcriptPath: "/t/one.jsonl" }, "user");
		expect(await path()).toBe("/t/one.jsonl");

		await engine.turnEnded({ ...main, transcriptPath: "/t/two.jsonl" }, { outcome: "end" });
		await engine.onIdle({ ...main, transcriptPath: "/t/two.jsonl" });
		expect(await path()).toBe("/t/two.jsonl");

		await engine.turnStarted({ ...main, transcriptPath: null }, "user");
		await engine.onIdle(main);
		expect(await path()).toBe("/t/two.jsonl");
	});
});
