/**
 * Factory Droid's dialect against what the pinned binary sends
 * (`test/fixtures/droid/`, captured from real runs; SubagentStop is the
 * documented input, since a subagent cannot run offline): its TodoWrite
 * string, its transcript's turns, and its events mapped onto a real engine
 * over the in-memory store.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
	type DroidTurn,
	dialect,
	droidTally,
	normalizeDroidTodos,
	readDroidTurn,
} from "../../../src/adapters/droid/dialect.js";
import { Config } from "../../../src/core/config.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

const FIXTURES = new URL("../../fixtures/droid/", import.meta.url);
const TRANSCRIPT = new URL("transcript.jsonl", FIXTURES).pathname;

function fixture(name: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
	return { ...(JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), "utf8")) as object), ...patch };
}

const STREAMS = {
	stdin: [],
	stdout: { write: () => true },
	stderr: { write: () => true },
	env: {},
	cwd: "/home/dev/shop",
};
const handleDroidHook = (input: ReturnType<typeof parsed>, engine: Engine) => dialect.handle(input, engine, STREAMS);

function parsed(event: string, fields: Record<string, unknown>) {
	const result = dialect.parse(JSON.stringify(fields), event);
	if (!result.ok) throw new Error(result.problem);
	return result.input;
}

describe("Droid's TodoWrite list", () => {
	it("reads the numbered lines its tool description asks for", () => {
		const { todos, warnings } = normalizeDroidTodos(fixture("PostToolUse-TodoWrite").tool_input);
		expect(warnings).toEqual([]);
		expect(todos).toEqual([
			expect.objectContaining({ id: "1", content: "Item 1", status: "in_progress" }),
			expect.objectContaining({ id: "2", content: "Item 2", status: "pending" }),
			expect.objectContaining({ id: "3", content: "Item 3", status: "completed" }),
		]);
	});

	it("reads the other lines Droid takes: bullets, [x] and [ ], no marker (pending); blank lines are no items", () => {
		const { todos } = normalizeDroidTodos({
			todos: "- [x] Done one\n\n* [ ] Open one\n3) Bare numbered\nJust words\n",
		});
		expect(todos.map((todo) => [todo.content, todo.status])).toEqual([
			["Done one", "completed"],
			["Open one", "pending"],
			["Bare numbered", "pending"],
			["Just words", "pending"],
		]);
	});

	it("reads a list of {content, status} items too, and names what it cannot read", () => {
		expect(normalizeDroidTodos({ todos: [{ content: "A", status: "completed" }] }).todos).toEqual([
			expect.objectContaining({ content: "A", status: "completed" }),
		]);
		const bad = normalizeDroidTodos({ todos: 42 });
		expect(bad.todos).toEqual([]);
		expect(bad.warnings.join(" ")).toMatch(/TodoWrite/);
	});
});

describe("Droid's transcript", () => {
	it("finds the current turn: it began at the Stop hook's reason, Droid's reminder and hook records inside it", async () => {
		const turn = await readDroidTurn(TRANSCRIPT);
		expect(turn).toMatchObject({ foundStart: true, lastAssistantText: "Nothing more.", activity: 0 });
		expect(turn.startMarker).toBe("9840c911-01a2-4567-8b63-31a8651431e2");
		expect(turn.pendingQuestion).toBeNull();
	});

	it("counts file edits, and an AskUser without its answer as a question", () => {
		const turn = { lastAssistantText: null, activity: 0, pendingQuestion: null, startMarker: null } as DroidTurn;
		const answered = new Set<string>();
		const assistant = (content: unknown[]) => ({ type: "message", id: "a", message: { role: "assistant", content } });
		const records = [
			assistant([{ type: "tool_use", id: "q", name: "AskUser", input: {} }]),
			assistant([
				{ type: "text", text: "Editing." },
				{ type: "tool_use", id: "e", name: "Edit", input: {} },
			]),
			{ type: "message", id: "u", message: { role: "user", content: [{ type: "text", text: "Go." }] } },
		];
		expect(records.map((record) => droidTally(turn, answered, record))).toEqual([false, false, true]);
		expect(turn).toMatchObject({ activity: 1, pendingQuestion: expect.stringMatching(/AskUser/) });
	});
});

describe("Droid's events on the engine", () => {
	const clock = { now: () => Date.UTC(2026, 11, 2, 9, 0, 0) };

	function engineOnMemory() {
		const store = new MemoryStore("/home/dev/shop", { clock });
		return { store, engine: new Engine({ store, config: Config.parse({}), clock, plans: { read: async () => null } }) };
	}

	it("nudges a Stop with open items, as {decision: block, reason}; the next user message is boulder's", async () => {
		const { engine } = engineOnMemory();
		await handleDroidHook(parsed("UserPromptSubmit", fixture("UserPromptSubmit")), engine);
		await handleDroidHook(parsed("PostToolUse", fixture("PostToolUse-TodoWrite")), engine);
		const answer = await handleDroidHook(parsed("Stop", fixture("Stop", { transcript_path: TRANSCRIPT })), engine);
		expect(answer.output).toEqual({ decision: "block", reason: expect.stringMatching(/1 of 3 done[\s\S]*Item 1/) });
	});

	it("never nudges a subagent's stop (SubagentStop), and says it is not eligible", async () => {
		const { engine, store } = engineOnMemory();
		await handleDroidHook(parsed("PostToolUse", fixture("PostToolUse-TodoWrite")), engine);
		const base = fixture("Stop");
		const stop = { ...base, hook_event_name: "SubagentStop", task_name: "worker", stop_hook_active: false };
		const answer = await handleDroidHook(parsed("SubagentStop", stop), engine);
		expect(answer.output).toBeNull();
		expect(await store.readDecisions()).toContainEqual(expect.objectContaining({ reason: "not-eligible" }));
	});

	it("tells a resumed session where its list stands, and says nothing on a fresh start", async () => {
		const { engine } = engineOnMemory();
		await handleDroidHook(parsed("UserPromptSubmit", fixture("UserPromptSubmit")), engine);
		await handleDroidHook(parsed("PostToolUse", fixture("PostToolUse-TodoWrite")), engine);
		expect((await handleDroidHook(parsed("SessionStart", fixture("SessionStart")), engine)).output).toBeNull();
		const resumed = await handleDroidHook(parsed("SessionStart", fixture("SessionStart-resume")), engine);
		expect(resumed.output).toEqual({
			hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: expect.stringContaining("Item 2") },
		});
	});

	it("refuses an input whose event disagrees with its registration", () => {
		const result = dialect.parse(JSON.stringify(fixture("Stop")), "SessionStart");
		expect(result.ok).toBe(false);
	});
});
