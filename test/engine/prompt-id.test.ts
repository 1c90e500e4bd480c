/**
 * The prompt id a harness names (Claude Code's `prompt_id`) is written on the
 * decision and event records of that turn, and read back from the real log,
 * so the fleet's export can join Claude Code's own telemetry by `prompt.id`.
 */
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { fileEngine, main, tempWorktree, tick } from "./helpers.js";

const folders: string[] = [];
afterEach(async () => {
	for (const folder of folders.splice(0)) {
		await rm(folder, { recursive: true, force: true });
		await rm(`${folder}.state`, { recursive: true, force: true });
	}
});

describe("the prompt id", () => {
	it("is on the decision and the event records of the turn, after a round trip through the log file", async () => {
		const worktree = await tempWorktree();
		folders.push(worktree);
		const { engine, store } = fileEngine(worktree);
		const ref = { ...main, promptId: "5f0c1d2e-prompt" };
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ id: "1", content: "one", status: "completed" },
			{ id: "2", content: "two", status: "pending" },
		]);
		tick(30_000);
		await engine.turnEnded(ref, { outcome: "end" });
		const idle = await engine.onIdle(ref, { lastAssistantText: "Done with one." });
		expect(idle.kind).toBe("inject");
		await engine.recordError(ref, "Stop", new Error("boom"));
		await engine.onIdle(main, { lastAssistantText: "again" });

		const records = await store.readDecisions();
		const decision = records.find((record) => record.kind === "inject");
		expect(decision?.promptId).toBe("5f0c1d2e-prompt");
		expect(records.find((record) => record.reason === "error")?.promptId).toBe("5f0c1d2e-prompt");
		// A turn whose event names no prompt writes none.
		expect(records.at(-1)?.promptId).toBeUndefined();
	});
});
