import { describe, expect, it } from "vitest";
import { systemScheduler } from "../../../src/adapters/opencode/scheduler.js";
import { ToolHooks } from "../../../src/adapters/opencode/tool-hooks.js";
import { Config } from "../../../src/core/config.js";
import { Engine, type SessionRef } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const REMINDER = "[boulder · todo list]";
const clock = { now: () => Date.UTC(2026, 10, 30, 9, 0, 0) };
const root: SessionRef = { harness: "opencode", sessionId: "ses_root" };

function setUp() {
	const store = new MemoryStore("/w", { clock });
	const engine = new Engine({
		store,
		config: Config.parse({ hygiene: { editsBeforeReminder: 2 } }),
		clock,
		plans: { read: async () => null },
	});
	const hooks = new ToolHooks({
		engine: async () => engine,
		rootRef: async (sessionId) => (sessionId === root.sessionId ? root : null),
		scheduler: systemScheduler,
		waitMs: 5_000,
		recordError: async (_ref, where, error) => {
			throw new Error(`${where}: ${String(error)}`);
		},
	});
	let call = 0;
	const edit = async (sessionID = root.sessionId) => {
		const input = { tool: "edit", sessionID, callID: `call_${++call}`, args: { filePath: "/w/src/a.ts" } };
		expect(await hooks.before(input, input.args)).toBeNull();
		const output = { output: "Edit applied successfully." };
		await hooks.after(input, output);
		return output.output;
	};
	return { engine, edit };
}

describe("OpenCode's tool hooks: todo hygiene", () => {
	it("appends the reminder to the threshold edit's result only", async () => {
		const { engine, edit } = setUp();
		await engine.todosChanged(root, [{ content: "Item A", status: "in_progress" }]);
		expect(await edit()).toBe("Edit applied successfully.");
		const due = await edit();
		expect(due.startsWith("Edit applied successfully.\n\n")).toBe(true);
		expect(due).toContain(REMINDER);
		expect(await edit()).toBe("Edit applied successfully.");
	});

	it("never reminds in a child session", async () => {
		const { engine, edit } = setUp();
		await engine.todosChanged(root, [{ content: "Item A", status: "in_progress" }]);
		for (let n = 0; n < 3; n++) expect(await edit("ses_child")).toBe("Edit applied successfully.");
	});
});
