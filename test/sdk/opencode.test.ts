import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/engine/engine.js";
import type { EngineSource } from "../../src/sdk/engines.js";
import { BOULDER_PLUGIN, untilSettled, withBoulder } from "../../src/sdk/opencode.js";
import { memoryEngine } from "../engine/helpers.js";

const ref = { harness: "opencode", sessionId: "ses_1" };
const open = [{ content: "Item A", status: "pending" as const }];

function engines(engine: Engine): EngineSource {
	return { open: async () => engine, bookkeeping: async () => engine, start: async () => {} };
}

async function idleAfter(engine: Engine, lastAssistantText: string) {
	await engine.turnStarted(ref, "user");
	await engine.todosChanged(ref, open);
	await engine.turnEnded(ref, { outcome: "end" });
	return engine.onIdle(ref, { lastAssistantText });
}

describe("the OpenCode SDK entry", () => {
	it("adds boulder's plugin to a config once, keeping the rest", () => {
		const config = withBoulder({ model: "fake/m", plugin: ["other"] });
		expect(config).toEqual({ model: "fake/m", plugin: ["other", BOULDER_PLUGIN] });
		expect(withBoulder(config).plugin).toEqual(["other", BOULDER_PLUGIN]);
		expect(BOULDER_PLUGIN).toMatch(/^file:\/\/.*\/adapters\/opencode\/plugin\.js$/);
	});

	it("is not settled while boulder's last decision is a nudge", async () => {
		const { engine } = memoryEngine();
		expect(await idleAfter(engine, "Started.")).toMatchObject({ kind: "inject" });

		const settled = await untilSettled(ref.sessionId, { engines: engines(engine), timeoutMs: 0 });

		expect(settled).toEqual({ kind: "timeout" });
	});

	it("is settled by a skip, and says which", async () => {
		const { engine } = memoryEngine();
		await idleAfter(engine, "Should I use Postgres or SQLite? Which do you prefer?");

		const settled = await untilSettled(ref.sessionId, { engines: engines(engine), timeoutMs: 0 });

		expect(settled).toMatchObject({ kind: "decided", decision: { kind: "skip", reason: "awaiting-user" } });
	});

	it("stops waiting when its signal aborts", async () => {
		const { engine } = memoryEngine();
		const controller = new AbortController();
		controller.abort();
		expect(await untilSettled(ref.sessionId, { engines: engines(engine), signal: controller.signal })).toEqual({
			kind: "aborted",
		});
	});
});
