import { describe, expect, it } from "vitest";
import { turnOf, unfinishedReason } from "../../../src/adapters/gemini/transcript.js";
import {
	cancelledNote,
	header,
	jsonl,
	prompt,
	reply,
	sessionContext,
	TRANSCRIPT,
	toolCall,
	writeTodos,
} from "./helpers.js";

describe("reading Gemini CLI's transcript", () => {
	it("finds the agent's own last list anywhere in the session, not only in the turn, and skips a failed call", () => {
		const reading = turnOf(
			jsonl([
				header(),
				prompt("Work through the list."),
				...writeTodos(["completed", "pending", "pending"]),
				reply("First done."),
				prompt("Carry on."),
				...toolCall([{ name: "write_todos", args: { todos: [] }, status: "error" }]),
				reply("Still going."),
			]),
		);
		expect(reading.todoInput).toEqual({
			todos: [
				{ description: "Item A", status: "completed" },
				{ description: "Item B", status: "pending" },
				{ description: "Item C", status: "pending" },
			],
		});
		expect(turnOf(jsonl([header(), prompt("Hi."), reply("Hello.")])).todoInput).toBeNull();
	});

	it("sees a turn that ended with a finished reply, and sums its spend without cache reads", () => {
		const reading = turnOf(
			jsonl([
				header(),
				sessionContext(),
				prompt("Old prompt."),
				reply("Old answer.", { input: 5000, output: 5000 }),
				prompt("Work through the list."),
				...writeTodos(["in_progress", "pending"]),
				reply("First item done.", { input: 300, cached: 200, output: 40, thoughts: 10, tool: 5 }),
			]),
		);
		expect(reading.finished).toBe(true);
		expect(reading.lastAssistantText).toBe("First item done.");
		expect(reading.prompt).toBe("Work through the list.");
		expect(reading.calls).toBe(2);
		expect(reading.spend).toEqual({ input: 100 + 105, output: 20 + 50, cacheWrite: 0 });
		expect(reading.interrupt).toBeNull();
		expect(unfinishedReason(TRANSCRIPT, reading)).toBeNull();
	});

	it("counts a tool-calling reply written twice once, and file edits as activity", () => {
		const reading = turnOf(
			jsonl([
				header(),
				prompt("Edit."),
				...toolCall([
					{ name: "write_file", args: { file_path: "a.txt", content: "x" } },
					{ name: "replace", args: { file_path: "b.txt" } },
					{ name: "run_shell_command", args: { command: "ls" } },
				]),
				reply("Edited."),
			]),
		);
		expect(reading.calls).toBe(2);
		expect(reading.activity).toBe(2);
	});

	it("does not see a finished turn when the user cancelled it (Esc): the note is the user's interrupt", () => {
		const reading = turnOf(jsonl([header(), prompt("Say hello."), cancelledNote("2026-12-01T12:21:00.000Z")]));
		expect(reading.finished).toBe(false);
		expect(reading.interrupt).toEqual({ at: Date.parse("2026-12-01T12:21:00.000Z") });
		expect(unfinishedReason(TRANSCRIPT, reading)).toMatch(/cancelled, failed or is still being written/);
	});

	it("does not see a finished turn when the last reply called tools, or when only the prompt is there", () => {
		expect(turnOf(jsonl([header(), prompt("Go."), ...writeTodos(["pending"])])).finished).toBe(false);
		expect(turnOf(jsonl([header(), prompt("Go.")])).finished).toBe(false);
	});

	it("replays a `$set` of the whole list: a cancelled prompt Gemini CLI took back leaves no finished turn", () => {
		const reading = turnOf(
			jsonl([header(), sessionContext(), prompt("Say hello."), cancelledNote(), sessionContext()]),
		);
		expect(reading.finished).toBe(false);
		expect(reading.prompt).toBe("<session_context>…</session_context>");
	});

	it("marks the turn by the id of the prompt that began it, the same at every reading", () => {
		const lines = [header(), prompt("Go."), reply("Done.")];
		const first = turnOf(jsonl(lines));
		expect(first.startMarker).toBe((lines[1] as { id: string }).id);
		expect(turnOf(jsonl([...lines, { $set: { lastUpdated: "x" } }])).startMarker).toBe(first.startMarker);
	});

	it("knows plan mode from enter_plan_mode until exit_plan_mode", () => {
		const entered = [
			header(),
			prompt("Plan it."),
			...toolCall([{ name: "enter_plan_mode", args: {} }]),
			reply("Plan."),
		];
		expect(turnOf(jsonl(entered)).planMode).toBe(true);
		const left = [...entered, prompt("Approved."), ...toolCall([{ name: "exit_plan_mode", args: {} }]), reply("Ok.")];
		expect(turnOf(jsonl(left)).planMode).toBe(false);
		const refused = [header(), ...toolCall([{ name: "enter_plan_mode", args: {}, status: "error" }]), reply("No.")];
		expect(turnOf(jsonl(refused)).planMode).toBe(false);
	});

	it("skips lines that are not JSON objects and says so", () => {
		const text = `${jsonl([header(), prompt("Go.")])}not json\n[1]\n${jsonl([reply("Done.")])}`;
		const reading = turnOf(text);
		expect(reading.skippedLines).toBe(2);
		expect(reading.finished).toBe(true);
	});
});
