import { describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/claude-code/events.js";
import { hookInput, memoryEngine, tick } from "./helpers.js";

const REMINDER = "[boulder · todo list]";

function setUp() {
	const { engine, store } = memoryEngine({ hygiene: { editsBeforeReminder: 2 } });
	const send = async (event: string, fields: Record<string, unknown>) => {
		tick(1000);
		return handleHook(hookInput(event, fields), {
			engine,
			readTurn: async () => {
				throw new Error("no transcript in this test");
			},
		});
	};
	const edit = (fields: Record<string, unknown> = {}) =>
		send("PreToolUse", { tool_name: "Edit", tool_input: { file_path: "/w/src/a.ts" }, ...fields });
	const todoWrite = () =>
		send("PostToolUse", {
			tool_name: "TodoWrite",
			tool_input: { todos: [{ content: "Item A", status: "in_progress", activeForm: "Doing A" }] },
		});
	return { store, edit, todoWrite };
}

describe("Claude Code's PreToolUse on a file tool: todo hygiene", () => {
	it("answers the threshold edit with the reminder as context, and nothing before or after it", async () => {
		const { store, edit, todoWrite } = setUp();
		await todoWrite();
		expect((await edit()).output).toBeNull();
		const due = await edit();
		expect(due.output).toEqual({
			hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: expect.stringContaining(REMINDER) },
		});
		expect((await edit()).output).toBeNull();
		const log = await store.readDecisions();
		expect(log.filter((record) => record.reason === "todo-reminder")).toHaveLength(1);
	});

	it("never reminds a subagent, and says nothing to a session without a list", async () => {
		const { edit, todoWrite } = setUp();
		for (let n = 0; n < 3; n++) expect((await edit()).output).toBeNull();
		await todoWrite();
		for (let n = 0; n < 3; n++) {
			expect((await edit({ agent_id: "agent-1", agent_type: "general-purpose" })).output).toBeNull();
		}
	});
});
